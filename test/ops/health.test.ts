import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

async function probe(graphqlUrl: string, path: '/healthz' | '/readyz') {
  const response = await fetch(new URL(path, graphqlUrl));
  return { status: response.status, body: (await response.json()) as { status: string; reason?: string } };
}

/** A URL where nothing listens: a port that was free a moment ago. */
async function deadUpstreamUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/api/v4`;
}

describe('/healthz and /readyz', () => {
  const harness = gatewayOverSimulator({ upstreamRetryAttempts: 1 });
  const started: TestGateway[] = [];
  afterAll(async () => Promise.all(started.map((gateway) => gateway.close())));

  it('/healthz says the process is alive, without asking the upstream', async () => {
    expect(await probe(harness.gateway.url, '/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(restCalls(harness.simulator)).toEqual([]);
  });

  it('/readyz is ready when the upstream answers, and a storm of probes costs the upstream one anonymous call', async () => {
    const answers = await Promise.all(Array.from({ length: 25 }, () => probe(harness.gateway.url, '/readyz')));
    expect(new Set(answers.map((answer) => JSON.stringify(answer)))).toEqual(
      new Set([JSON.stringify({ status: 200, body: { status: 'ready' } })]),
    );
    expect(restCalls(harness.simulator)).toEqual(['GET /version']);
  });

  it('/readyz is 503 with the reason when the upstream answers 5xx', async () => {
    const gateway = await startTestGateway(harness.simulator.url, { upstreamRetryAttempts: 1 });
    started.push(gateway);
    harness.simulator.faults.add({ method: 'GET', path: '/version', kind: 'status', status: 503, times: 1 });
    expect(await probe(gateway.url, '/readyz')).toEqual({
      status: 503,
      body: { status: 'unavailable', reason: 'the upstream answered 503' },
    });
  });

  it('/readyz is 503 when nothing listens upstream, while /healthz stays 200', async () => {
    const gateway = await startTestGateway(await deadUpstreamUrl(), { upstreamRetryAttempts: 1 });
    started.push(gateway);
    expect(await probe(gateway.url, '/readyz')).toEqual({
      status: 503,
      body: { status: 'unavailable', reason: 'the upstream refused or dropped the connection' },
    });
    expect((await probe(gateway.url, '/healthz')).status).toBe(200);
  });

  it('/readyz is 503 when the upstream does not answer within the readiness timeout', async () => {
    const gateway = await startTestGateway(harness.simulator.url, { upstreamRetryAttempts: 1, readinessTimeoutMs: 200 });
    started.push(gateway);
    harness.simulator.faults.add({ method: 'GET', path: '/version', kind: 'timeout', times: 1 });
    expect(await probe(gateway.url, '/readyz')).toEqual({
      status: 503,
      body: { status: 'unavailable', reason: 'the upstream did not answer within 200 ms' },
    });
  });
});
