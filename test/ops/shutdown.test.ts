import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import { Client as HttpClient } from 'undici';
import WebSocket from 'ws';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { until } from '../support/wait.js';

const SLOW_QUERY = '{ runner(id: "gid://gitlab/Ci::Runner/16") { id description } }';

/**
 * gateway.close(): what CLI's SIGTERM and SIGINT call (test/main.test.ts checks the process exits
 * 0). Each test starts its own gateway, since each ends it.
 */
describe('graceful shutdown', () => {
  let simulator: Simulator;
  let gateway: TestGateway;

  beforeAll(async () => {
    simulator = await startSimulator();
  });
  afterAll(async () => simulator?.close());
  afterEach(async () => {
    simulator.setLatency(0);
    simulator.resetRequests();
    await gateway?.close();
  });

  /** Latency makes a REST call last long enough to be caught in flight; the test waits until it is. */
  async function queryInFlight(latencyMs: number) {
    simulator.setLatency(latencyMs);
    const answer = gateway.query(SLOW_QUERY, {}, DEMO_TOKENS.maintainer);
    await until(() => simulator.requests.length > 0);
    return { answer };
  }

  it('lets an in-flight request finish, then refuses new connections', async () => {
    gateway = await startTestGateway(simulator.url, { shutdownTimeoutMs: 10_000 });
    const { answer } = await queryInFlight(400);

    await gateway.close();
    expect(await answer).toEqual({ data: { runner: { id: 'gid://gitlab/Ci::Runner/16', description: expect.any(String) as unknown } } });
    await expect(fetch(new URL('/healthz', gateway.url))).rejects.toThrow();
  });

  it('answers /readyz 503 while draining (on a connection that was already open)', async () => {
    gateway = await startTestGateway(simulator.url, { shutdownTimeoutMs: 10_000 });
    // One connection with pipelining: the probe is sent after close() began, behind the slow query.
    const http = new HttpClient(new URL(gateway.url).origin, { pipelining: 2 });
    try {
      simulator.setLatency(400);
      const slow = http.request({
        method: 'GET',
        blocking: false, // let undici send the probe behind it without waiting for its headers
        path: `/graphql?query=${encodeURIComponent(SLOW_QUERY)}`,
        headers: { 'private-token': DEMO_TOKENS.maintainer, 'apollo-require-preflight': 'true' },
      });
      await until(() => simulator.requests.length > 0);
      const closing = gateway.close();
      const ready = await http.request({ method: 'GET', path: '/readyz' });

      expect(ready.statusCode).toBe(503);
      expect(await ready.body.json()).toEqual({ status: 'draining', reason: 'shutting down' });
      const slowAnswer = await slow;
      expect(slowAnswer.statusCode).toBe(200);
      expect(await slowAnswer.body.json()).toMatchObject({ data: { runner: { id: 'gid://gitlab/Ci::Runner/16' } } });
      await closing;
    } finally {
      await http.destroy();
    }
  });

  it('closes subscriptions with 1001 Going Away and a reason, and stops their pollers', async () => {
    gateway = await startTestGateway(simulator.url, { runnerPollIntervalMs: 60_000 });
    let closed: { code: number; reason: string } | undefined;
    const client = createClient({
      url: gateway.wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { 'PRIVATE-TOKEN': DEMO_TOKENS.maintainer },
      retryAttempts: 0,
      on: { closed: (event) => (closed = event as { code: number; reason: string }) },
    });
    client.subscribe(
      { query: 'subscription { ciRunnerStatusUpdated(runnerId: "gid://gitlab/Ci::Runner/16") { id status } }' },
      { next: () => {}, error: () => {}, complete: () => {} },
    );
    await until(() => gateway.gateway.pollers.activeSubscriptions === 1);

    await gateway.close();
    await until(() => closed !== undefined);
    expect(closed).toMatchObject({ code: 1001, reason: 'Going away' });
    expect(gateway.gateway.pollers.activePollers).toBe(0);
    await client.dispose();
  });

  it('cuts what is still running after the shutdown timeout, without waiting for the upstream', async () => {
    gateway = await startTestGateway(simulator.url, { shutdownTimeoutMs: 100 });
    const { answer } = await queryInFlight(60_000);
    const settled = answer.then(
      () => 'answered',
      () => 'cut',
    );

    await gateway.close(); // within the test's timeout, long before the upstream would answer
    expect(await settled).toBe('cut');
  });
});
