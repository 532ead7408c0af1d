// Upstream faults the gateway must ride out (issue #8): the gaps test/e2e/upstream-faults.test.ts
// leaves. Retries (reads only, three attempts at most, Retry-After on 429 and 503), redirects never
// followed, the circuit breaker's edges, and a fault of one field that costs that field only.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS, type FaultSpec } from '../../simulator/index.js';
import { startTestGateway } from '../support/gateway.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';
import { startStubUpstream } from '../support/stub-upstream.js';
import { logCollector, metricSample } from '../ops/support.js';

const admin = DEMO_TOKENS.admin;
const gid = (id: number) => `gid://gitlab/Ci::Runner/${id}`;
const RUNNER = (id: number) => `{ runner(id: "${gid(id)}") { id description } }`;
/** How long the gateway waits for an answer in these tests: short, so timeouts are quick to meet. */
const TIMEOUT_MS = 300;

/** The REST calls of one method, to count what reached the upstream. */
const callsOf = (calls: string[], method: string) => calls.filter((call) => call.startsWith(`${method} `));

describe('retries', () => {
  // No breaker here: each test's faults must meet the retry policy alone.
  const harness = gatewayOverSimulator({ circuitBreaker: false, upstreamTimeoutMs: TIMEOUT_MS });

  it.each<[string, Omit<FaultSpec, 'path' | 'method'>, Record<string, unknown>]>([
    ['a 503', { kind: 'status', status: 503 }, { code: 'UPSTREAM_UNAVAILABLE', restStatus: 503 }],
    ['a 502', { kind: 'status', status: 502 }, { code: 'UPSTREAM_UNAVAILABLE', restStatus: 502 }],
    ['a closed connection', { kind: 'close' }, { code: 'UPSTREAM_UNAVAILABLE', restStatus: 0 }],
    ['a timeout', { kind: 'timeout' }, { code: 'UPSTREAM_UNAVAILABLE', restStatus: 0 }],
    ['a 429 without Retry-After', { kind: 'status', status: 429, body: 'Retry later' }, { code: 'RATE_LIMITED', restStatus: 429 }],
  ])('gives a read that keeps meeting %s three attempts, no more', async (_case, fault, extensions) => {
    harness.simulator.faults.add({ method: 'GET', path: '/runners/3', ...fault });
    const result = await harness.gateway.query(RUNNER(3), {}, admin);
    harness.simulator.faults.clear();
    expect(result.errors?.[0]?.extensions).toMatchObject(extensions);
    expect(restCalls(harness.simulator)).toEqual(['GET /runners/3', 'GET /runners/3', 'GET /runners/3']);
  });

  it('does not retry what another attempt cannot change: a 500, a 404, a malformed body', async () => {
    harness.simulator.faults.add({ method: 'GET', path: '/runners/4', kind: 'status', status: 500, times: 1 });
    harness.simulator.faults.add({ method: 'GET', path: '/runners/5', kind: 'malformed', times: 1 });
    const result = await harness.gateway.query(`{ a: runner(id: "${gid(4)}") { id } b: runner(id: "${gid(5)}") { id } c: runner(id: "${gid(99999)}") { id } }`, {}, admin);
    expect(result.data).toEqual({ a: null, b: null, c: null });
    expect(result.errors?.map((error) => [error.path?.[0], error.extensions?.['code']])).toEqual(
      expect.arrayContaining([
        ['a', 'UPSTREAM_ERROR'],
        ['b', 'UPSTREAM_ERROR'],
      ]),
    );
    expect(restCalls(harness.simulator).sort()).toEqual(['GET /runners/4', 'GET /runners/5', 'GET /runners/99999']);
  });

  // Each write meets the fault once; the write must reach REST once, whatever the fault.
  const WRITES: Array<[string, string, string, string]> = [
    ['PUT', '/runners/6', `mutation { runnerUpdate(input: { id: "${gid(6)}", description: "x" }) { runner { id } } }`, 'runner update'],
    ['POST', '/groups', `mutation { groupCreate(input: { name: "Retry", path: "retry-once" }) { group { id } errors } }`, 'group creation'],
    ['DELETE', '/runners/7', `mutation { runnerDelete(input: { id: "${gid(7)}" }) { errors } }`, 'runner deletion'],
  ];
  const WRITE_FAULTS: Array<[string, Omit<FaultSpec, 'path' | 'method'>, string]> = [
    ['503', { kind: 'status', status: 503, times: 1 }, 'UPSTREAM_UNAVAILABLE'],
    ['429 with a short Retry-After', { kind: 'status', status: 429, headers: { 'retry-after': '1' }, body: 'Retry later', times: 1 }, 'RATE_LIMITED'],
    ['closed connection', { kind: 'close', times: 1 }, 'UPSTREAM_UNAVAILABLE'],
    ['timeout', { kind: 'timeout', times: 1 }, 'UPSTREAM_UNAVAILABLE'],
  ];
  it.each(WRITES.flatMap(([method, path, mutation, label]) => WRITE_FAULTS.map(([fault, spec, code]) => ({ method, path, mutation, label, fault, spec, code }))))(
    'never retries a $label ($method) after a $fault: it may already have happened',
    async ({ method, path, mutation, spec, code }) => {
      harness.simulator.faults.add({ method, path, ...spec });
      const result = await harness.gateway.query(mutation, {}, admin);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code });
      expect(callsOf(restCalls(harness.simulator), method)).toEqual([`${method} ${path}`]);
    },
  );

  it.each([
    ['429', 'RATE_LIMITED'],
    ['503', 'UPSTREAM_UNAVAILABLE'],
  ])('honours Retry-After on a %s: waits when it is short, reports it when it is long', async (status, code) => {
    const fault = (id: number, retryAfter: string) =>
      harness.simulator.faults.add({ method: 'GET', path: `/runners/${id}`, kind: 'status', status: Number(status), headers: { 'retry-after': retryAfter }, body: 'Retry later', times: 1 });
    fault(8, '1');
    expect((await harness.gateway.query(RUNNER(8), {}, admin)).errors).toBeUndefined();
    expect(restCalls(harness.simulator)).toEqual(['GET /runners/8', 'GET /runners/8']);

    // Without Retry-After a read would be tried three times; a long one is reported at once instead.
    harness.simulator.resetRequests();
    fault(9, '60');
    const inSeconds = await harness.gateway.query(RUNNER(9), {}, admin);
    expect(inSeconds.errors?.[0]?.extensions).toMatchObject({ code, restStatus: Number(status), retryAfterSeconds: 60 });
    expect(restCalls(harness.simulator)).toEqual(['GET /runners/9']);

    // The HTTP-date form of Retry-After means the same.
    harness.simulator.resetRequests();
    fault(10, new Date(Date.now() + 120_000).toUTCString());
    const asDate = await harness.gateway.query(RUNNER(10), {}, admin);
    expect(asDate.errors?.[0]?.extensions?.['retryAfterSeconds']).toBeGreaterThan(100);
    expect(restCalls(harness.simulator)).toEqual(['GET /runners/10']);
  });

  it.each([
    ['PUT', '/runners/11', `mutation { runnerUpdate(input: { id: "${gid(11)}", paused: true }) { runner { id paused } } }`],
    ['POST', '/groups', `mutation { groupCreate(input: { name: "Moved", path: "moved-once" }) { group { id } errors } }`],
  ])('never follows a 301 on %s: the write is answered with an error, not re-sent', async (method, path, mutation) => {
    const moved = `${harness.simulator.url}/runners/12`;
    harness.simulator.faults.add({ method, path, kind: 'status', status: 301, headers: { location: moved }, body: `This resource has been moved permanently to ${moved}`, times: 1 });
    const result = await harness.gateway.query(mutation, {}, admin);
    expect(result.errors).toHaveLength(1);
    // The upstream's redirect, not the caller's input (issue 15, item 4).
    expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_ERROR', restStatus: 301 });
    // Not re-sent, and not turned into a GET of the new location.
    expect(restCalls(harness.simulator)).toEqual([`${method} ${path}`]);
    // The message names where the resource went as a REST path, never by the upstream's URL.
    expect(JSON.stringify(result)).not.toContain(harness.simulator.origin);
    expect(result.errors?.[0]?.extensions?.['restMessage']).toBe('This resource has been moved permanently to /runners/12');
  });

  it('does not follow a redirect off the upstream either, so the credential never travels there', async () => {
    const elsewhere = await startStubUpstream([{ method: 'GET', path: '/runners/13', body: { id: 13, description: 'not the upstream' } }]);
    try {
      harness.simulator.faults.add({ method: 'GET', path: '/runners/13', kind: 'status', status: 302, headers: { location: `${elsewhere.url}/runners/13` }, body: '', times: 1 });
      const result = await harness.gateway.query(RUNNER(13), {}, admin);
      expect(result.data).toEqual({ runner: null });
      expect(result.errors?.[0]?.extensions).toMatchObject({ restStatus: 302 });
      expect(restCalls(harness.simulator)).toEqual(['GET /runners/13']);
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });
});

describe('the circuit breaker', () => {
  const COOLDOWN_MS = 250;
  const harness = gatewayOverSimulator({ circuitBreaker: { failureThreshold: 3, cooldownMs: COOLDOWN_MS }, upstreamRetryAttempts: 1 });
  const cooldown = () => new Promise((resolve) => setTimeout(resolve, COOLDOWN_MS + 50));

  it('stays closed through answers that prove the upstream alive: 404s, 403s, 429s and 500s', async () => {
    harness.simulator.faults.add({ method: 'GET', path: '/runners/1', kind: 'status', status: 429, headers: { 'retry-after': '60' }, body: 'Retry later', times: 3 });
    harness.simulator.faults.add({ method: 'GET', path: '/runners/2', kind: 'status', status: 500, times: 3 });
    for (let i = 0; i < 3; i++) {
      const result = await harness.gateway.query(`{ a: runner(id: "${gid(99999)}") { id } b: runner(id: "${gid(1)}") { id } c: runner(id: "${gid(2)}") { id } }`, {}, admin);
      expect(result.errors?.map((error) => error.extensions?.['code']).sort()).toEqual(['RATE_LIMITED', 'UPSTREAM_ERROR']);
      const hidden = await harness.gateway.query(RUNNER(16), {}, DEMO_TOKENS.guest);
      expect(hidden.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
    }
    expect(restCalls(harness.simulator)).toHaveLength(12);
    expect((await harness.gateway.query(RUNNER(3), {}, admin)).errors).toBeUndefined();
    expect(restCalls(harness.simulator)).toHaveLength(13);
  });

  it('opens on closed connections and timeouts as on 502s, and a failed trial opens it for another cooldown', async () => {
    // A success first: it clears whatever count the earlier test left.
    expect((await harness.gateway.query(RUNNER(4), {}, admin)).errors).toBeUndefined();
    harness.simulator.resetRequests();
    const fault = harness.simulator.faults.add({ method: 'GET', path: /^\/runners\/\d+$/, kind: 'close' });
    for (const id of [5, 6, 7]) {
      const failed = await harness.gateway.query(RUNNER(id), {}, admin);
      expect(failed.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', restStatus: 0 });
    }
    expect(restCalls(harness.simulator)).toHaveLength(3);

    const open = await harness.gateway.query(RUNNER(8), {}, admin);
    expect(open.errors?.[0]?.message).toContain('not calling it for a few seconds');
    expect(restCalls(harness.simulator)).toHaveLength(3);

    // After the cooldown one trial goes out; it fails, so the circuit is open again at once.
    await cooldown();
    await harness.gateway.query(RUNNER(8), {}, admin);
    expect(restCalls(harness.simulator)).toHaveLength(4);
    const reopened = await harness.gateway.query(RUNNER(9), {}, admin);
    expect(reopened.errors?.[0]?.message).toContain('not calling it for a few seconds');
    expect(restCalls(harness.simulator)).toHaveLength(4);

    harness.simulator.faults.remove(fault);
    await cooldown();
    expect((await harness.gateway.query(RUNNER(9), {}, admin)).errors).toBeUndefined();
    expect((await harness.gateway.query(RUNNER(10), {}, admin)).errors).toBeUndefined();
    expect(restCalls(harness.simulator).slice(4)).toEqual(['GET /runners/9', 'GET /runners/10']);
  });
});

describe('a field whose REST call fails', () => {
  const harness = gatewayOverSimulator({ circuitBreaker: false, upstreamTimeoutMs: TIMEOUT_MS, upstreamRetryAttempts: 1 });

  const FAULTS: Array<[string, Omit<FaultSpec, 'path' | 'method'>, Record<string, unknown>, RegExp]> = [
    ['malformed JSON', { kind: 'malformed' }, { code: 'UPSTREAM_ERROR', restStatus: 200 }, /not valid JSON/],
    ['a closed connection', { kind: 'close' }, { code: 'UPSTREAM_UNAVAILABLE', restStatus: 0 }, /could not be reached/],
    ['a 500', { kind: 'status', status: 500 }, { code: 'UPSTREAM_ERROR', restStatus: 500, restMessage: '500 Internal Server Error' }, /REST API failed/],
    ['a 429', { kind: 'status', status: 429, headers: { 'retry-after': '30' }, body: 'Retry later' }, { code: 'RATE_LIMITED', restStatus: 429, retryAfterSeconds: 30 }, /retry after 30 s/],
    ['a timeout', { kind: 'timeout' }, { code: 'UPSTREAM_UNAVAILABLE', restStatus: 0 }, /did not answer in time/],
  ];

  it.each(FAULTS)('costs that field only, with its code, on %s', async (_case, fault, extensions, message) => {
    harness.simulator.faults.add({ method: 'GET', path: '/runners/2', ...fault });
    const result = await harness.gateway.query<{ currentUser: { username: string }; ok: { id: string; description: string }; broken: null }>(
      `{ currentUser { username } ok: runner(id: "${gid(1)}") { id description } broken: runner(id: "${gid(2)}") { id description } }`,
      {},
      admin,
    );
    harness.simulator.faults.clear();
    expect(result.data).toEqual({ currentUser: { username: 'root' }, ok: { id: gid(1), description: 'shared-runner-1' }, broken: null });
    expect(result.errors).toHaveLength(1);
    expect(result.errors?.[0]).toMatchObject({ path: ['broken'], extensions });
    expect(result.errors?.[0]?.message).toMatch(message);
  });

  it.each(FAULTS)('costs one nested field of one list item only, on %s', async (_case, fault, extensions) => {
    const listed = await harness.gateway.query<{ ownedRunners: { nodes: Array<{ id: string }> } }>(`{ ownedRunners(first: 3) { nodes { id } } }`, {}, DEMO_TOKENS.maintainer);
    const ids = listed.data!.ownedRunners.nodes.map((node) => Number(node.id.split('/').pop()));
    expect(ids).toHaveLength(3);
    harness.simulator.faults.add({ method: 'GET', path: `/runners/${ids[1]}`, ...fault });
    const result = await harness.gateway.query<{ ownedRunners: { nodes: Array<{ id: string; tagList: string[] | null }> } }>(
      `{ ownedRunners(first: 3) { nodes { id tagList } } }`,
      {},
      DEMO_TOKENS.maintainer,
    );
    harness.simulator.faults.clear();
    const nodes = result.data!.ownedRunners.nodes;
    expect(nodes.map((node) => node.id)).toEqual(ids.map(gid));
    expect(nodes[1]!.tagList).toBeNull();
    expect(Array.isArray(nodes[0]!.tagList) && Array.isArray(nodes[2]!.tagList)).toBe(true);
    expect(result.errors).toHaveLength(1);
    expect(result.errors?.[0]).toMatchObject({ path: ['ownedRunners', 'nodes', 1, 'tagList'], extensions });
  });
});

describe('an answer whose body stops half-way', () => {
  it('times out that field, instead of holding the request open', async () => {
    // Headers and the start of a body, then nothing: only the body timeout can end the wait.
    const upstream = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url === '/api/v4/user') res.end(JSON.stringify({ id: 1, username: 'root', name: 'Administrator' }));
      else res.write('{"id": 1, "description": "half');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const gateway = await startTestGateway(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}/api/v4`, { upstreamTimeoutMs: TIMEOUT_MS, upstreamRetryAttempts: 1 });
    try {
      const result = await gateway.query(`{ currentUser { username } runner(id: "${gid(1)}") { id } }`, {}, admin);
      expect(result.data).toEqual({ currentUser: { username: 'root' }, runner: null });
      expect(result.errors).toHaveLength(1);
      expect(result.errors?.[0]).toMatchObject({ path: ['runner'], extensions: { code: 'UPSTREAM_UNAVAILABLE', restStatus: 0 } });
      expect(result.errors?.[0]?.message).toMatch(/did not answer in time/);
    } finally {
      await gateway.close();
      upstream.closeAllConnections();
      await new Promise((resolve) => upstream.close(resolve));
    }
  });
});

// V4_URL on http:// in front of an https-only GitLab (issue 15, item 4): every call meets a 301 to the
// same path on https. Before the fix each field said BAD_USER_INPUT "301 Moved Permanently", as if
// the caller had asked wrong. It is the upstream's (the operator's) fault: UPSTREAM_ERROR, counted as
// an upstream error, and one log line says where the upstream redirects and what V4_URL should be.
describe('an upstream that redirects every call', () => {
  const MOVED_TO = 'https://gitlab.internal.example:8443/api/v4';

  it('is UPSTREAM_ERROR on every field, never followed or retried, and the log names the V4_URL to use', async () => {
    const seen: string[] = [];
    const upstream = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const location = `${MOVED_TO}${(req.url ?? '/').replace(/^\/api\/v4/, '')}`;
      res.writeHead(301, { location, 'content-type': 'text/plain' });
      res.end(`This resource has been moved permanently to ${location}`);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamOrigin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const logs = logCollector('warn');
    const gateway = await startTestGateway(`${upstreamOrigin}/api/v4`, { logger: logs.logger, circuitBreaker: { failureThreshold: 2, cooldownMs: 600_000 } });
    try {
      const result = await gateway.query(`{ currentUser { username } runner(id: "${gid(1)}") { id } }`, {}, admin);
      expect(result.data).toEqual({ currentUser: null, runner: null });
      expect(result.errors?.map((error) => [error.path?.[0], error.extensions?.['code'], error.extensions?.['restStatus']]).sort()).toEqual([
        ['currentUser', 'UPSTREAM_ERROR', 301],
        ['runner', 'UPSTREAM_ERROR', 301],
      ]);
      const list = await gateway.query('{ runners { count } }', {}, admin);
      expect(list.errors?.map((error) => [error.path?.[0], error.extensions?.['code'], error.extensions?.['restStatus']])).toEqual([['runners', 'UPSTREAM_ERROR', 301]]);
      expect(result.errors?.[0]?.message).toMatch(/redirect \(301\), which the gateway never follows/);
      // Callers never see where the upstream is, nor where it redirects to.
      const text = JSON.stringify([result, list]);
      expect(text).not.toContain('gitlab.internal.example');
      expect(text).not.toContain(upstreamOrigin);
      expect(result.errors?.map((error) => error.extensions?.['restMessage'])).toContain('This resource has been moved permanently to /user');
      // One call per field: a redirect is neither followed nor retried.
      expect(seen.sort()).toEqual(['GET /api/v4/runners/1', 'GET /api/v4/runners/all?page=1&per_page=20', 'GET /api/v4/user']);

      // The operator's log line says where the upstream went and what V4_URL should be.
      const lines = logs.lines().filter((line) => line.msg === 'upstream error');
      expect(lines).toHaveLength(3);
      const userLine = lines.find((line) => line['endpoint'] === 'GET /user');
      expect(userLine).toMatchObject({ kind: 'redirect', status: 301, location: `${MOVED_TO}/user`, movedBaseUrl: MOVED_TO });
      expect(userLine?.['fix']).toContain('set V4_URL (upstreamUrl) to it');
      const metrics = await (await fetch(new URL('/metrics', gateway.url))).text();
      expect(metricSample(metrics, 'gateway_upstream_errors_total', { kind: 'redirect' })).toBe(3);

      // Not ready either: a rolling deploy with this V4_URL halts instead of replacing healthy replicas.
      const readiness = await fetch(new URL('/readyz', gateway.url));
      expect(readiness.status).toBe(503);
      const readinessBody = (await readiness.json()) as { status: string; reason: string };
      expect(readinessBody.status).toBe('unavailable');
      expect(readinessBody.reason).toContain('V4_URL does not point at its REST API');
    } finally {
      await gateway.close();
      upstream.closeAllConnections();
      await new Promise((resolve) => upstream.close(resolve));
    }
  });
});
