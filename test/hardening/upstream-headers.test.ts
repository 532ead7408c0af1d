// Values no HTTP header can carry (issue 15, item 2): a CR, LF, NUL or other control character, or a
// character past Latin-1, in a credential, a runner token or a job token. undici refuses them; before
// the fix each refusal counted as an upstream "connection" fault, was retried, and a handful of
// anonymous requests opened the circuit breaker for every caller. They must be refused as the
// caller's (UNAUTHENTICATED, BAD_USER_INPUT, close 4403, HTTP 401) before any network activity.
import { Agent, errors as undiciErrors, type Dispatcher } from 'undici';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import type { TestGateway } from '../support/gateway.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';
import { metricSample } from '../ops/support.js';

/** Each is refused by undici as a header value: control characters, and characters past U+00FF. */
const UNSENDABLE_TOKENS = [
  'glpat-abc\r\nX-Injected: 1',
  'glpat-abc\ndef',
  'glpat-abc\0def',
  'glpat-\u0007bell',
  'glpat-\u20ac-euro',
  'glpat-\u{1f600}',
];
const tokenAt = (index: number) => UNSENDABLE_TOKENS[index % UNSENDABLE_TOKENS.length]!;

const RUNNER_1 = '{ runner(id: "gid://gitlab/Ci::Runner/1") { id description } }';

/** Opens a graphql-ws connection and resolves with the code it was closed with. */
function closeCodeOfConnection(gateway: TestGateway, connectionParams: Record<string, unknown>): Promise<number> {
  return new Promise((resolve) => {
    createClient({
      url: gateway.wsUrl,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: false,
      // The refusal is expected; the close code is what the test checks.
      onNonLazyError: () => {},
      connectionParams,
      on: {
        // With no retries, a closed client is done: nothing to dispose.
        closed: (event) => resolve((event as { code: number }).code),
      },
    });
  });
}

async function routerDiscovery(gateway: TestGateway, runnerToken: string) {
  const response = await fetch(gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'query($token: String!) { ciJobRouterDiscovery(runnerToken: $token) { serverUrl } }',
      variables: { token: runnerToken },
    }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { errors?: Array<{ message: string; extensions?: Record<string, unknown> }> },
  };
}

async function artifactDownload(gateway: TestGateway, jobToken: string) {
  const response = await fetch(new URL(`/artifacts/projects/1/jobs/1/artifacts?job_token=${encodeURIComponent(jobToken)}`, gateway.url));
  return {
    status: response.status,
    body: (await response.json()) as { errors: Array<{ message: string; extensions?: Record<string, unknown> }> },
  };
}

const readyz = async (gateway: TestGateway) => (await fetch(new URL('/readyz', gateway.url))).status;
const scrape = async (gateway: TestGateway) => (await fetch(new URL('/metrics', gateway.url))).text();

describe('values no HTTP header can carry', () => {
  // A sensitive breaker that would stay open for the rest of the file once opened.
  const harness = gatewayOverSimulator({ circuitBreaker: { failureThreshold: 3, cooldownMs: 600_000 } });

  it('refuses a connection_init token with 4403, a runner token as BAD_USER_INPUT and a job token with 401, without a REST call', async () => {
    const { gateway } = harness;
    expect(await closeCodeOfConnection(gateway, { 'PRIVATE-TOKEN': tokenAt(0) })).toBe(4403);
    expect(await closeCodeOfConnection(gateway, { Authorization: `Bearer ${tokenAt(1)}` })).toBe(4403);

    const discovery = await routerDiscovery(gateway, 'glrt-abc\r\nX-Injected: 1');
    expect(discovery.body.errors?.[0]?.extensions).toEqual({ code: 'BAD_USER_INPUT' });
    expect(discovery.body.errors?.[0]?.message).toMatch(/runner-token.*cannot be sent in an HTTP header/);

    const download = await artifactDownload(gateway, 'abc\r\ndef');
    expect(download.status).toBe(401);
    expect(download.body.errors[0]?.extensions).toEqual({ code: 'UNAUTHENTICATED' });
    expect(restCalls(harness.simulator)).toEqual([]);
  });

  it('lets 100 such anonymous requests through the three routes leave the breaker closed and other callers served', async () => {
    const { gateway } = harness;
    const before = await scrape(gateway);
    const answers = await Promise.all(
      Array.from({ length: 100 }, async (_, index) => {
        const token = tokenAt(index);
        switch (index % 3) {
          case 0:
            return `ws ${await closeCodeOfConnection(gateway, { 'PRIVATE-TOKEN': token })}`;
          case 1:
            return `graphql ${String((await routerDiscovery(gateway, token)).body.errors?.[0]?.extensions?.['code'])}`;
          default: {
            const { status, body } = await artifactDownload(gateway, token);
            return `download ${status} ${String(body.errors[0]?.extensions?.['code'])}`;
          }
        }
      }),
    );
    expect(new Set(answers)).toEqual(new Set(['ws 4403', 'graphql BAD_USER_INPUT', 'download 401 UNAUTHENTICATED']));
    // Not one of them reached the upstream, let alone three times.
    expect(restCalls(harness.simulator)).toEqual([]);

    // The breaker is closed: the gateway is ready, and another caller's query is answered by REST.
    expect(await readyz(gateway)).toBe(200);
    const other = await gateway.query(RUNNER_1, {}, DEMO_TOKENS.admin);
    expect(other).toEqual({ data: { runner: { id: 'gid://gitlab/Ci::Runner/1', description: 'shared-runner-1' } } });
    expect(restCalls(harness.simulator)).toEqual(['GET /version', 'GET /runners/1']);

    // Counted as refusals, never as upstream errors.
    const after = await scrape(gateway);
    const delta = (name: string, labels: Record<string, string>) =>
      (metricSample(after, name, labels) ?? 0) - (metricSample(before, name, labels) ?? 0);
    expect(delta('gateway_rest_calls_unsent_total', { reason: 'invalid_credential' })).toBe(67);
    expect(delta('gateway_rest_calls_unsent_total', { reason: 'invalid_argument' })).toBe(33);
    expect(after).not.toMatch(/gateway_upstream_errors_total\{kind="connection"\}/);
  });
});

describe('a request the HTTP client refuses to build for a reason the gateway did not foresee', () => {
  /** An undici agent that refuses, as it does for a bad header or path, every call to one runner. */
  class RefusingAgent extends Agent {
    override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      if (options.path.endsWith('/runners/2')) throw new undiciErrors.InvalidArgumentError('invalid request path');
      return super.dispatch(options, handler);
    }
  }
  const agent = new RefusingAgent();
  const harness = gatewayOverSimulator({ dispatcher: agent, circuitBreaker: { failureThreshold: 3, cooldownMs: 600_000 } });
  afterAll(() => agent.close());

  it('is a gateway error, never retried, never counted against the upstream', async () => {
    const { gateway } = harness;
    for (let i = 0; i < 5; i++) {
      const refused = await gateway.query('{ runner(id: "gid://gitlab/Ci::Runner/2") { id } }', {}, DEMO_TOKENS.admin);
      expect(refused.errors?.[0]).toMatchObject({
        message: 'Internal error in the gateway',
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      });
    }
    expect(restCalls(harness.simulator)).toEqual([]);
    expect(metricSample(await scrape(gateway), 'gateway_rest_calls_unsent_total', { reason: 'unbuildable' })).toBe(5);
    expect(await readyz(gateway)).toBe(200);
    expect((await gateway.query(RUNNER_1, {}, DEMO_TOKENS.admin)).errors).toBeUndefined();
    expect(restCalls(harness.simulator)).toEqual(['GET /version', 'GET /runners/1']);
  });
});
