import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

describe('the HTTP side of the gateway', () => {
  let simulator: Simulator;
  let gateway: TestGateway;
  let withLandingPage: TestGateway;

  beforeAll(async () => {
    simulator = await startSimulator();
    gateway = await startTestGateway(simulator.url, { upstreamTimeoutMs: 300 });
    withLandingPage = await startTestGateway(simulator.url, { landingPage: true });
  });

  afterAll(async () => {
    await gateway?.close();
    await withLandingPage?.close();
    await simulator?.close();
  });

  it('serves the Sandbox landing page to a browser on GET /graphql, and redirects / to it', async () => {
    const page = await fetch(withLandingPage.url, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('sandbox');
    const root = await fetch(withLandingPage.url.replace('/graphql', '/'), { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/graphql');
  });

  it('answers GET queries, but refuses a simple cross-site POST (CSRF prevention)', async () => {
    const get = await fetch(`${gateway.url}?query=${encodeURIComponent('{ runner(id: "gid://gitlab/Ci::Runner/1") { id } }')}`, {
      headers: { 'private-token': DEMO_TOKENS.admin, 'apollo-require-preflight': 'true' },
    });
    expect(await get.json()).toEqual({ data: { runner: { id: 'gid://gitlab/Ci::Runner/1' } } });
    const simplePost = await fetch(gateway.url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"query":"{ __typename }"}' });
    expect(simplePost.status).toBe(400);
  });

  it('refuses a body that is not JSON with a clear error', async () => {
    const response = await fetch(gateway.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ errors: [{ message: 'The request body is not valid JSON.', extensions: { code: 'BAD_REQUEST' } }] });
  });

  it('returns the request id it was given, and sends it upstream', async () => {
    simulator.resetRequests();
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'trace-123', 'private-token': DEMO_TOKENS.admin },
      body: JSON.stringify({ query: '{ runner(id: "gid://gitlab/Ci::Runner/1") { id } }' }),
    });
    expect(response.headers.get('x-request-id')).toBe('trace-123');
    expect(simulator.requests).toHaveLength(1);
  });

  it.each([
    ['timeout', 'UPSTREAM_UNAVAILABLE'],
    ['close', 'UPSTREAM_UNAVAILABLE'],
    ['malformed', 'UPSTREAM_ERROR'],
  ] as const)('maps an upstream %s to %s on that field alone', async (kind, code) => {
    const faultId = simulator.faults.add({ method: 'GET', path: '/runners/4', kind });
    try {
      const result = await gateway.query<{ ok: { id: string }; broken: unknown }>(
        '{ ok: runner(id: "gid://gitlab/Ci::Runner/5") { id } broken: runner(id: "gid://gitlab/Ci::Runner/4") { id } }',
        {},
        DEMO_TOKENS.admin,
      );
      expect(result.data).toEqual({ ok: { id: 'gid://gitlab/Ci::Runner/5' }, broken: null });
      expect(result.errors?.[0]).toMatchObject({ path: ['broken'], extensions: { code } });
      expect(JSON.stringify(result.errors)).not.toContain(simulator.origin);
    } finally {
      simulator.faults.remove(faultId);
    }
  });

  it('reports a rate limit with its retry hint', async () => {
    const faultId = simulator.faults.add({ method: 'GET', path: '/runners/6', kind: 'status', status: 429, body: 'Retry later', headers: { 'retry-after': '30', 'content-type': 'text/plain' } });
    try {
      const result = await gateway.query('{ runner(id: "gid://gitlab/Ci::Runner/6") { id } }', {}, DEMO_TOKENS.admin);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', restStatus: 429, retryAfterSeconds: 30, restMessage: 'Retry later' });
    } finally {
      simulator.faults.remove(faultId);
    }
  });

  it('answers unknown paths with 404 and /healthz with 200', async () => {
    expect((await fetch(gateway.url.replace('/graphql', '/nothing'))).status).toBe(404);
    expect((await fetch(gateway.url.replace('/graphql', '/healthz'))).status).toBe(200);
  });
});
