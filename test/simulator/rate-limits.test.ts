// GitLab's user and IP rate limits in the embedded v4 server (rest-conventions §9): Rack::Attack's
// throttle_authenticated_api (per user) and throttle_unauthenticated_api (per IP), over real HTTP.
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../simulator/http/rate-limits.js';
import { DEMO_JOB_TOKEN, DEMO_TOKENS, SPECIAL_TOKENS, parseRateLimit, startSimulator, type Simulator } from '../../simulator/index.js';
import { until } from '../support/wait.js';
import { call, type CallResult } from './helpers.js';

/**
 * A period whose windows start at multiples of 10^9 s (2001, then 2033): the counts of a test never
 * straddle a reset, so its figures are exact. RateLimit-Limit, per minute, then reads 1.
 */
const LONG = 1_000_000_000;

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator();
});

afterEach(() => {
  sim.setRateLimits(undefined);
  sim.faults.clear();
});

afterAll(async () => {
  await sim.close();
});

function figures(result: CallResult): Record<string, string | null> {
  const h = result.headers;
  return {
    name: h.get('ratelimit-name'),
    limit: h.get('ratelimit-limit'),
    observed: h.get('ratelimit-observed'),
    remaining: h.get('ratelimit-remaining'),
  };
}

const RATE_LIMIT_HEADERS = ['ratelimit-name', 'ratelimit-limit', 'ratelimit-observed', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-resettime', 'retry-after'];

describe('rate limits off (the default)', () => {
  it('sends no RateLimit headers and never answers 429', async () => {
    const results = [await call(sim, '/projects'), await call(sim, '/user', { token: DEMO_TOKENS.developer }), await call(sim, '/no-such-route')];
    expect(results.map((r) => r.status)).toEqual([200, 200, 404]);
    for (const result of results) for (const name of RATE_LIMIT_HEADERS) expect(result.headers.get(name)).toBeNull();
  });
});

describe('throttle_authenticated_api (per user)', () => {
  it('puts the figures on every answer as calls are made', async () => {
    sim.setRateLimits({ authenticated: { requests: 3, periodSeconds: LONG } });
    const seen = [];
    for (let i = 0; i < 3; i++) seen.push(figures(await call(sim, '/user', { token: DEMO_TOKENS.developer })));
    expect(seen).toEqual([1, 2, 3].map((n) => ({ name: 'throttle_authenticated_api', limit: '1', observed: String(n), remaining: String(3 - n) })));
  });

  it('reads RateLimit-Limit per minute, rounded up, as GitLab does', async () => {
    const limits: [number, number, string][] = [
      [7200, 3600, '120'],
      [3600, 3600, '60'],
      [100, 120, '50'],
      [10, 7, '86'],
      [2000, 60, '2000'],
    ];
    for (const [requests, periodSeconds, perMinute] of limits) {
      sim.setRateLimits({ authenticated: { requests, periodSeconds } });
      const result = await call(sim, '/user', { token: DEMO_TOKENS.developer });
      expect([requests, periodSeconds, result.headers.get('ratelimit-limit'), result.headers.get('ratelimit-remaining')]).toEqual([
        requests,
        periodSeconds,
        perMinute,
        String(requests - 1),
      ]);
    }
  });

  it('counts each user apart, and the tokens of one user together', async () => {
    sim.setRateLimits({ authenticated: { requests: 5, periodSeconds: LONG } });
    for (let i = 0; i < 3; i++) await call(sim, '/user', { token: DEMO_TOKENS.developer });
    const maintainer = await call(sim, '/user', { token: DEMO_TOKENS.maintainer });
    expect(figures(maintainer)).toMatchObject({ observed: '1', remaining: '4' });
    // glpat-demo-readonly belongs to the developer too: its call is the developer's fourth.
    const readOnly = await call(sim, '/user', { token: SPECIAL_TOKENS.readOnly });
    expect(figures(readOnly)).toMatchObject({ name: 'throttle_authenticated_api', observed: '4', remaining: '1' });
    // Bearer and the query parameter name the same user.
    const bearer = await call(sim, '/user', { headers: { Authorization: `Bearer ${DEMO_TOKENS.maintainer}` } });
    const query = await call(sim, `/user?private_token=${DEMO_TOKENS.maintainer}`);
    expect([figures(bearer).observed, figures(query).observed]).toEqual(['2', '3']);
  });

  it('counts a CI job token against the job’s user', async () => {
    sim.setRateLimits({ authenticated: { requests: 5, periodSeconds: LONG } });
    const job = sim.state.jobs.get(sim.state.jobTokens.get(DEMO_JOB_TOKEN) ?? -1);
    const ownersToken = [...sim.state.tokens.entries()].find(([, token]) => token.userId === job?.userId && !token.revoked)?.[0];
    expect(ownersToken).toBeDefined();
    const withJobToken = await call(sim, '/projects/1/jobs', { headers: { 'JOB-TOKEN': DEMO_JOB_TOKEN } });
    expect(figures(withJobToken)).toMatchObject({ name: 'throttle_authenticated_api', observed: '1' });
    const withOwnersToken = await call(sim, '/user', { token: ownersToken });
    expect(figures(withOwnersToken)).toMatchObject({ name: 'throttle_authenticated_api', observed: '2' });
  });

  it('refuses the call past the limit with 429 Retry later and consistent reset figures', async () => {
    sim.setRateLimits({ authenticated: { requests: 2, periodSeconds: 3600 } });
    for (let i = 0; i < 2; i++) expect((await call(sim, '/user', { token: DEMO_TOKENS.guest })).status).toBe(200);
    sim.resetRequests();
    const before = Math.floor(Date.now() / 1000);
    const refused = await call(sim, '/user', { token: DEMO_TOKENS.guest });
    const after = Math.floor(Date.now() / 1000);

    expect(refused.status).toBe(429);
    expect(refused.text).toBe('Retry later');
    expect(refused.headers.get('content-type')).toBe('text/plain');
    // 2 per hour reads 1 per minute (rounded up); Remaining counts down the hour's 2.
    expect(figures(refused)).toEqual({ name: 'throttle_authenticated_api', limit: '1', observed: '3', remaining: '0' });
    const reset = Number(refused.headers.get('ratelimit-reset'));
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(reset % 3600).toBe(0);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // The server's clock when it counted the call: the window is the one that clock falls in.
    expect(reset - retryAfter).toBeGreaterThanOrEqual(before);
    expect(reset - retryAfter).toBeLessThanOrEqual(after);
    expect(Math.floor((reset - retryAfter) / 3600) + 1).toBe(reset / 3600);
    expect(refused.headers.get('ratelimit-resettime')).toBe(new Date(reset * 1000).toUTCString());
    // Recorded like any other call, so that tests count what was sent.
    expect(sim.requests).toEqual([{ method: 'GET', path: '/user', query: {} }]);

    // Every further call in the window counts, and Remaining never goes below 0.
    const again = await call(sim, '/user', { token: DEMO_TOKENS.guest });
    expect([again.status, figures(again).observed, figures(again).remaining]).toEqual([429, '4', '0']);
  });

  it('does not run the handler of a refused call: a refused POST creates nothing', async () => {
    sim.setRateLimits({ authenticated: { requests: 1, periodSeconds: LONG } });
    const issuesBefore = sim.state.issues.size;
    const created = await call(sim, '/projects/1/issues', { method: 'POST', token: DEMO_TOKENS.maintainer, json: { title: 'first' } });
    expect(created.status).toBe(201);
    const refused = await call(sim, '/projects/1/issues', { method: 'POST', token: DEMO_TOKENS.maintainer, json: { title: 'second' } });
    expect(refused.status).toBe(429);
    expect(sim.state.issues.size).toBe(issuesBefore + 1);
    expect([...sim.state.issues.values()].filter((issue) => issue.title === 'second')).toEqual([]);
  });

  it('counts before routing and before faults: a 404 counts, a faulted answer carries the headers, a refused call takes no fault', async () => {
    sim.setRateLimits({ authenticated: { requests: 3, periodSeconds: LONG } });
    const missing = await call(sim, '/no-such-route', { token: DEMO_TOKENS.outsider });
    expect([missing.status, figures(missing).observed]).toEqual([404, '1']);
    sim.faults.add({ path: '/user', kind: 'status', status: 502, times: 2 });
    const faulted = await call(sim, '/user', { token: DEMO_TOKENS.outsider });
    expect([faulted.status, figures(faulted).observed]).toEqual([502, '2']);
    await call(sim, '/projects', { token: DEMO_TOKENS.outsider });
    const refused = await call(sim, '/user', { token: DEMO_TOKENS.outsider });
    expect(refused.status).toBe(429);
    // The fault's second time is still there for the next call that gets through.
    sim.setRateLimits(undefined);
    expect((await call(sim, '/user', { token: DEMO_TOKENS.outsider })).status).toBe(502);
  });
});

describe('throttle_unauthenticated_api (per IP)', () => {
  it('counts anonymous calls and unresolved tokens against the client address', async () => {
    sim.setRateLimits({ unauthenticated: { requests: 4, periodSeconds: LONG }, authenticated: { requests: 100, periodSeconds: LONG } });
    const anonymous = await call(sim, '/projects');
    expect(figures(anonymous)).toEqual({ name: 'throttle_unauthenticated_api', limit: '1', observed: '1', remaining: '3' });
    const unknown = await call(sim, '/projects', { token: 'glpat-no-such-token' });
    const revoked = await call(sim, '/projects', { token: SPECIAL_TOKENS.revoked });
    expect([unknown.status, figures(unknown).name, figures(unknown).observed]).toEqual([401, 'throttle_unauthenticated_api', '2']);
    expect([revoked.status, figures(revoked).observed]).toEqual([401, '3']);
    // A user's call is the user's, not the address's.
    expect(figures(await call(sim, '/user', { token: DEMO_TOKENS.developer }))).toMatchObject({ name: 'throttle_authenticated_api', observed: '1' });
    const fourth = await call(sim, '/projects');
    const fifth = await call(sim, '/projects');
    expect([fourth.status, fifth.status, fifth.text, fifth.headers.get('ratelimit-name')]).toEqual([200, 429, 'Retry later', 'throttle_unauthenticated_api']);
  });

  it('counts each address apart', async () => {
    sim.setRateLimits({ unauthenticated: { requests: 2, periodSeconds: LONG } });
    for (let i = 0; i < 3; i++) await call(sim, '/projects');
    expect((await call(sim, '/projects')).status).toBe(429);
    // Another loopback address is another client.
    const other = new Agent({ localAddress: '127.0.0.2' });
    try {
      const response = await undiciFetch(`${sim.url}/projects`, { dispatcher: other });
      await response.arrayBuffer();
      expect([response.status, response.headers.get('ratelimit-observed'), response.headers.get('ratelimit-remaining')]).toEqual([200, '1', '1']);
    } finally {
      await other.close();
    }
  });

  it('applies only the throttle that is set', async () => {
    sim.setRateLimits({ unauthenticated: { requests: 2, periodSeconds: LONG } });
    const user = await call(sim, '/user', { token: DEMO_TOKENS.developer });
    expect([user.status, user.headers.get('ratelimit-name')]).toEqual([200, null]);
  });
});

describe('setRateLimits at run time', () => {
  it('turns the limits on, resets the counts when they change, and turns them off', async () => {
    expect((await call(sim, '/projects')).headers.get('ratelimit-name')).toBeNull();
    sim.setRateLimits({ unauthenticated: { requests: 2, periodSeconds: LONG } });
    await call(sim, '/projects');
    await call(sim, '/projects');
    expect((await call(sim, '/projects')).status).toBe(429);
    sim.setRateLimits({ unauthenticated: { requests: 2, periodSeconds: LONG } });
    const afterChange = await call(sim, '/projects');
    expect([afterChange.status, figures(afterChange).observed]).toEqual([200, '1']);
    sim.setRateLimits(undefined);
    const off = await call(sim, '/projects');
    expect([off.status, off.headers.get('ratelimit-observed')]).toEqual([200, null]);
  });

  it('refuses limits that are not positive integers', async () => {
    expect(() => sim.setRateLimits({ authenticated: { requests: 0, periodSeconds: 60 } })).toThrow(RangeError);
    expect(() => sim.setRateLimits({ unauthenticated: { requests: 10, periodSeconds: 0.5 } })).toThrow(RangeError);
    await expect(startSimulator({ rateLimits: { authenticated: { requests: -1, periodSeconds: 60 } } })).rejects.toThrow(RangeError);
  });

  it('takes them at start', async () => {
    const limited = await startSimulator({ rateLimits: { authenticated: { requests: 7200, periodSeconds: 3600 } } });
    try {
      const result = await call(limited, '/user', { token: DEMO_TOKENS.admin });
      expect(figures(result)).toEqual({ name: 'throttle_authenticated_api', limit: '120', observed: '1', remaining: '7199' });
    } finally {
      await limited.close();
    }
  });

  it('takes them through the control API of a simulator started apart', async () => {
    const control = (method: string, body?: string) => fetch(`${sim.origin}/__simulator/rate-limits`, { method, body });
    const put = await control('PUT', JSON.stringify({ authenticated: { requests: 2, periodSeconds: LONG } }));
    expect([put.status, await put.json()]).toEqual([200, { authenticated: { requests: 2, periodSeconds: LONG } }]);
    expect(figures(await call(sim, '/user', { token: DEMO_TOKENS.admin }))).toMatchObject({ observed: '1', remaining: '1' });
    const refused = await control('PUT', JSON.stringify({ authenticated: { requests: 0, periodSeconds: 60 } }));
    expect(refused.status).toBe(400);
    expect(await (await control('GET')).json()).toEqual({ authenticated: { requests: 2, periodSeconds: LONG } });
    const off = await control('PUT', 'null');
    expect([off.status, await off.json()]).toEqual([200, null]);
    expect((await call(sim, '/user', { token: DEMO_TOKENS.admin })).headers.get('ratelimit-name')).toBeNull();
  });

  it('reads requests/periodSeconds as the environment gives it', () => {
    expect(parseRateLimit('7200/3600')).toEqual({ requests: 7200, periodSeconds: 3600 });
    expect(parseRateLimit(undefined)).toBeUndefined();
    expect(parseRateLimit('')).toBeUndefined();
    for (const bad of ['7200', '7200/0', '0/60', 'a/b', '1.5/60']) expect(() => parseRateLimit(bad)).toThrow(RangeError);
  });
});

describe('windows', () => {
  it('starts a new count when the window ends', async () => {
    sim.setRateLimits({ authenticated: { requests: 1, periodSeconds: 1 } });
    // Two calls in one window: the first call's window must still be the second's.
    let refused: CallResult | undefined;
    while (refused === undefined) {
      await call(sim, '/user', { token: DEMO_TOKENS.developer });
      const next = await call(sim, '/user', { token: DEMO_TOKENS.developer });
      if (next.status === 429) refused = next;
    }
    const reset = Number(refused.headers.get('ratelimit-reset'));
    expect(refused.headers.get('retry-after')).toBe('1');
    await until(() => Date.now() >= reset * 1000);
    const fresh = await call(sim, '/user', { token: DEMO_TOKENS.developer });
    expect(fresh.status).toBe(200);
    expect(Number(fresh.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(reset + 1);
  });

  it('keeps counts only for the current window, however many clients came before', async () => {
    const limiter = new RateLimiter({ unauthenticated: { requests: 1000, periodSeconds: 1 }, authenticated: { requests: 1000, periodSeconds: 1 } });
    let second = Math.floor(Date.now() / 1000);
    // Fill one window with many users and addresses (retrying should the second turn meanwhile).
    for (;;) {
      second = Math.floor(Date.now() / 1000);
      for (let i = 0; i < 500; i++) {
        limiter.check({ userId: null, ip: `10.0.${i >> 8}.${i & 255}` });
        limiter.check({ userId: i, ip: '127.0.0.1' });
      }
      if (Math.floor(Date.now() / 1000) === second) break;
    }
    expect(limiter.trackedKeys()).toBe(1000);
    await until(() => Math.floor(Date.now() / 1000) > second, 3_000);
    limiter.check({ userId: null, ip: '10.9.9.9' });
    limiter.check({ userId: 1, ip: '127.0.0.1' });
    expect(limiter.trackedKeys()).toBe(2);
    limiter.set(undefined);
    expect(limiter.trackedKeys()).toBe(0);
  });
});
