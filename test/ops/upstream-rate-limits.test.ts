// Issue 30, GitLab's rate limits respected: the gateway reads the RateLimit-* headers of every REST
// answer per credential digest (src/datasources/upstream-quota.ts), refuses at once an operation
// whose estimate the calls left would not cover (RATE_LIMITED, retryAfter, HTTP 429 + Retry-After,
// no REST call), never sends a call with none left, stretches pollers, shares the figures with other
// replicas through Redis, and exposes them per digest in /metrics. Against the embedded v4 server's
// GitLab throttles (simulator rateLimits), over real HTTP and WebSocket.
import { parse } from 'graphql';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator, type SimulatorRateLimits } from '../../simulator/index.js';
import type { GatewayOptions } from '../../src/index.js';
import { estimateRestCalls } from '../../src/cost/estimate.js';
import { RestClient, RestSession } from '../../src/datasources/rest-client.js';
import { UpstreamQuota, UpstreamQuotaSpent } from '../../src/datasources/upstream-quota.js';
import { randomCredentialDigest } from '../../src/shared-state/credential-digest.js';
import { RecordPollers } from '../../src/subscriptions/record-pollers.js';
import { watchedRunner, runnerStatusAspect } from '../../src/subscriptions/runner-status.js';
import { connectWebSocket } from '../embedding/support.js';
import { startRedis, type TestRedis } from '../replicas/support/redis-server.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { SUBSCRIPTION } from '../support/runner-watch.js';
import { eventually, until } from '../support/wait.js';
import { restOracle } from '../support/rest-oracle.js';
import { metricSample, postGraphQL } from './support.js';

/** One REST call (GET /user). */
const ME = '{ currentUser { username } }';
/** The projects, then each one's issues: several REST calls, estimated as such. */
const PROJECTS_AND_ISSUES = '{ projects(first: 5) { nodes { id issues(first: 2) { nodes { id } } } } }';
const PUBLIC_PROJECTS = '{ projects(first: 1) { nodes { id } } }';
const LIMIT = 10;
const RUNNER = 12;

/**
 * A throttle period whose current window (aligned to multiples of it, as GitLab's) has at least five
 * minutes to run, so that no test here crosses a reset it did not ask for.
 */
function roomyPeriod(): number {
  const now = Math.floor(Date.now() / 1000);
  return [3_600, 5_400, 7_200, 10_800].find((period) => period - (now % period) > 300)!;
}

const tokenOf = (token: string) => ({ 'private-token': token });
const codeOf = (answer: { body: { errors?: Array<{ extensions?: Record<string, unknown> }> } }) => answer.body.errors?.[0]?.extensions?.['code'];

describe("GitLab's rate limits, respected", () => {
  let simulator: Simulator;
  let period: number;
  const gateways: TestGateway[] = [];
  const start = async (options: Partial<GatewayOptions> = {}) => {
    const gateway = await startTestGateway(simulator.url, options);
    gateways.push(gateway);
    return gateway;
  };
  /** Every count from zero, for the test's own gateway (a gateway remembers a window's figures). */
  const limitTo = (limits: SimulatorRateLimits) => {
    simulator.setRateLimits(limits);
    simulator.resetRequests();
  };
  const metrics = async (gateway: TestGateway) => (await fetch(new URL('/metrics', gateway.url))).text();
  const digestOf = (gateway: TestGateway, token: string) => gateway.gateway.pollers.credentialDigest({ kind: 'private-token', value: token });
  const estimateOf = (gateway: TestGateway, query: string) => estimateRestCalls(gateway.gateway.schema, { document: parse(query) }, { batching: true });
  const remaining = async (gateway: TestGateway, credential: string) => metricSample(await metrics(gateway), 'gateway_upstream_quota_remaining', { credential });
  /** REST answers of status 429 the gateway got (GitLab's refusals), by its own count. */
  const answers429 = async (gateway: TestGateway) =>
    (await metrics(gateway))
      .split('\n')
      .filter((line) => line.startsWith('gateway_rest_calls_total{') && line.includes('status="429"'))
      .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);

  beforeAll(async () => {
    simulator = await startSimulator();
    period = roomyPeriod();
  });
  afterEach(async () => {
    await Promise.all(gateways.splice(0).map((gateway) => gateway.close()));
    simulator.setRateLimits(undefined);
  });
  afterAll(async () => {
    await simulator?.close();
  });

  it('follows nothing while GitLab sends no RateLimit headers: nothing is refused, no series is exposed', async () => {
    simulator.setRateLimits(undefined);
    const gateway = await start();
    const wide = await postGraphQL(gateway.url, { query: PROJECTS_AND_ISSUES }, tokenOf(DEMO_TOKENS.maintainer));
    expect(wide.status).toBe(200);
    expect(wide.body.errors).toBeUndefined();
    expect(await metrics(gateway)).not.toContain('gateway_upstream_quota_remaining{');
  });

  it("reads each credential's figures apart, by digest, and anonymous calls under one entry", async () => {
    limitTo({ authenticated: { requests: LIMIT, periodSeconds: period }, unauthenticated: { requests: LIMIT, periodSeconds: period } });
    const gateway = await start();
    await postGraphQL(gateway.url, { query: ME }, tokenOf(DEMO_TOKENS.maintainer));
    for (let sent = 0; sent < 2; sent++) await postGraphQL(gateway.url, { query: ME }, tokenOf(DEMO_TOKENS.developer));
    const anonymous = await postGraphQL(gateway.url, { query: PUBLIC_PROJECTS });
    expect(anonymous.body.errors).toBeUndefined();
    const anonymousCalls = simulator.requests.length - 3;

    expect(await remaining(gateway, digestOf(gateway, DEMO_TOKENS.maintainer))).toBe(LIMIT - 1);
    expect(await remaining(gateway, digestOf(gateway, DEMO_TOKENS.developer))).toBe(LIMIT - 2);
    expect(await remaining(gateway, 'anonymous')).toBe(LIMIT - anonymousCalls);
    const exposition = await metrics(gateway);
    for (const token of Object.values(DEMO_TOKENS)) expect(exposition).not.toContain(token);
  });

  it('refuses at once an operation whose estimate exceeds the calls left (429, Retry-After, no REST call), and admits one that fits', async () => {
    limitTo({ authenticated: { requests: LIMIT, periodSeconds: period } });
    const gateway = await start();
    const estimate = estimateOf(gateway, PROJECTS_AND_ISSUES);
    expect(estimate).toBeGreaterThan(1);
    expect(estimate).toBeLessThan(LIMIT);
    // Spend until fewer calls are left than the estimate.
    const spend = LIMIT - estimate + 1;
    for (let sent = 0; sent < spend; sent++) expect((await postGraphQL(gateway.url, { query: ME }, tokenOf(DEMO_TOKENS.maintainer))).status).toBe(200);
    expect(simulator.requests).toHaveLength(spend);

    simulator.resetRequests();
    const refused = await postGraphQL(gateway.url, { query: PROJECTS_AND_ISSUES }, tokenOf(DEMO_TOKENS.maintainer));
    expect(refused.status).toBe(429);
    expect(codeOf(refused)).toBe('RATE_LIMITED');
    const retryAfter = refused.body.errors![0]!.extensions!['retryAfter'] as number;
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(period);
    expect(refused.headers.get('retry-after')).toBe(String(retryAfter));
    expect(refused.body.data).toBeUndefined();
    expect(simulator.requests).toHaveLength(0);

    // One that fits is admitted; another credential's figures are its own.
    const fits = await postGraphQL(gateway.url, { query: ME }, tokenOf(DEMO_TOKENS.maintainer));
    expect(fits.status).toBe(200);
    expect(fits.body.errors).toBeUndefined();
    const other = await postGraphQL(gateway.url, { query: PROJECTS_AND_ISSUES }, tokenOf(DEMO_TOKENS.developer));
    expect(other.body.errors).toBeUndefined();
    expect(simulator.requests.length).toBeGreaterThan(1);

    const exposition = await metrics(gateway);
    expect(metricSample(exposition, 'gateway_upstream_quota_refused_total', { credential: digestOf(gateway, DEMO_TOKENS.maintainer) })).toBe(1);
    expect(await answers429(gateway)).toBe(0);
  });

  it('refuses in the one pipeline: each operation of a batch on its own, and a graphql-ws operation', async () => {
    limitTo({ authenticated: { requests: LIMIT, periodSeconds: period } });
    const gateway = await start({ allowBatchedHttpRequests: true });
    const spend = LIMIT - estimateOf(gateway, PROJECTS_AND_ISSUES) + 1;
    for (let sent = 0; sent < spend; sent++) await postGraphQL(gateway.url, { query: ME }, tokenOf(DEMO_TOKENS.maintainer));
    simulator.resetRequests();

    const batch = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...tokenOf(DEMO_TOKENS.maintainer) },
      body: JSON.stringify([{ query: PROJECTS_AND_ISSUES }, { query: ME }]),
    });
    const answers = (await batch.json()) as Array<{ data?: unknown; errors?: Array<{ extensions?: Record<string, unknown> }> }>;
    // One ran: the batch is not to be sent again whole, so it is no 429.
    expect(batch.status).toBe(200);
    expect(answers[0]!.errors?.[0]?.extensions?.['code']).toBe('RATE_LIMITED');
    expect(answers[1]).toEqual({ data: { currentUser: { username: 'maintainer' } } });
    expect(simulator.requests).toHaveLength(1);

    const socket = connectWebSocket(gateway.wsUrl, { 'PRIVATE-TOKEN': DEMO_TOKENS.maintainer });
    try {
      const refused = await socket.first(PROJECTS_AND_ISSUES);
      expect(refused.errors?.[0]?.extensions?.['code']).toBe('RATE_LIMITED');
      expect(refused.errors?.[0]?.extensions?.['retryAfter']).toBeGreaterThanOrEqual(1);
    } finally {
      await socket.client.dispose();
    }
    // Nothing of the refused operations went out (the socket's own check of its token may have).
    expect(simulator.requests.filter((request) => request.path.startsWith('/projects'))).toEqual([]);
  });

  it('sends no call once none is left: a burst past the limit gets RATE_LIMITED and GitLab never answers 429', async () => {
    limitTo({ authenticated: { requests: LIMIT, periodSeconds: period } });
    const gateway = await start({ explainRestCalls: true });
    // The figures come with the first answer; then three times what is left, at once.
    expect((await postGraphQL(gateway.url, { query: ME }, tokenOf(DEMO_TOKENS.maintainer))).body.errors).toBeUndefined();
    const explained = { query: ME, extensions: { explainRestCalls: true } };
    const burst = await Promise.all(Array.from({ length: 3 * LIMIT }, () => postGraphQL(gateway.url, explained, tokenOf(DEMO_TOKENS.maintainer))));

    expect(simulator.requests).toHaveLength(LIMIT);
    const answered = burst.filter((answer) => answer.body.errors === undefined);
    const limited = burst.filter((answer) => codeOf(answer) === 'RATE_LIMITED');
    expect(answered).toHaveLength(LIMIT - 1);
    expect(limited).toHaveLength(burst.length - answered.length);
    for (const answer of limited) expect(answer.body.errors![0]!.extensions!['retryAfter']).toBeGreaterThanOrEqual(1);
    // A call not sent was not made: EXPLAIN lists none for them, each answered one lists its one.
    const made = (answer: (typeof burst)[number]) => (answer.body as { extensions?: { restCalls?: { made: number } } }).extensions?.restCalls?.made ?? 0;
    expect(limited.map(made)).toEqual(limited.map(() => 0));
    expect(answered.map(made)).toEqual(answered.map(() => 1));

    expect(await answers429(gateway)).toBe(0);
    const exposition = await metrics(gateway);
    const credential = digestOf(gateway, DEMO_TOKENS.maintainer);
    expect(metricSample(exposition, 'gateway_upstream_quota_remaining', { credential })).toBe(0);
    const paced = metricSample(exposition, 'gateway_upstream_quota_paced_total', { credential }) ?? 0;
    const refused = metricSample(exposition, 'gateway_upstream_quota_refused_total', { credential }) ?? 0;
    expect(paced + refused).toBe(limited.length);
  });

  it("learns from GitLab's 429 too: it reaches the caller as RATE_LIMITED, and the credential's next operation is refused without a call", async () => {
    limitTo({ authenticated: { requests: 2, periodSeconds: period } });
    // Another client of the same user spends the window behind the gateway's back.
    for (let sent = 0; sent < 2; sent++) await fetch(`${simulator.url}/user`, { headers: tokenOf(DEMO_TOKENS.maintainer) });
    const gateway = await start({ upstreamRetryAttempts: 1 });
    simulator.resetRequests();

    const throttled = await postGraphQL(gateway.url, { query: ME }, tokenOf(DEMO_TOKENS.maintainer));
    expect(codeOf(throttled)).toBe('RATE_LIMITED');
    expect(throttled.body.errors![0]!.extensions!['restStatus']).toBe(429);
    expect(simulator.requests).toHaveLength(1);
    expect(await answers429(gateway)).toBe(1);

    const refused = await postGraphQL(gateway.url, { query: ME }, tokenOf(DEMO_TOKENS.maintainer));
    expect(refused.status).toBe(429);
    expect(codeOf(refused)).toBe('RATE_LIMITED');
    expect(refused.headers.get('retry-after')).toBe(String(refused.body.errors![0]!.extensions!['retryAfter']));
    expect(simulator.requests).toHaveLength(1);
  });

  it('paces the calls of operations admitted together past what is left: not sent, not counted as made, a field error', async () => {
    const left = 3;
    // Six projects, each read by a call of its own (one batch shares its loaders: the same read would be made once).
    const projects = await restOracle(simulator).get<Array<{ path_with_namespace: string }>>(`/projects?per_page=${2 * left}`, DEMO_TOKENS.maintainer);
    expect(projects).toHaveLength(2 * left);
    limitTo({ authenticated: { requests: LIMIT, periodSeconds: period } });
    const gateway = await start({ allowBatchedHttpRequests: true, explainRestCalls: true });
    for (let sent = 0; sent < LIMIT - left; sent++) await postGraphQL(gateway.url, { query: ME }, tokenOf(DEMO_TOKENS.maintainer));
    simulator.resetRequests();
    // A batch's operations pass the admission before any of them calls REST: each fits what is left.
    const batch = projects.map(({ path_with_namespace: fullPath }) => ({
      query: 'query($fullPath: ID!) { project(fullPath: $fullPath) { id } }',
      variables: { fullPath },
      extensions: { explainRestCalls: true },
    }));
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...tokenOf(DEMO_TOKENS.maintainer) },
      body: JSON.stringify(batch),
    });
    type Answer = { data?: unknown; errors?: Array<{ path?: unknown[]; extensions?: Record<string, unknown> }>; extensions?: { restCalls?: { made: number } } };
    const answers = (await response.json()) as Answer[];
    expect(simulator.requests).toHaveLength(left);
    const paced = answers.filter((answer) => answer.errors !== undefined);
    expect(paced).toHaveLength(left);
    for (const answer of paced) {
      expect(answer.errors![0]).toMatchObject({ path: ['project'], extensions: { code: 'RATE_LIMITED', retryAfter: expect.any(Number) as unknown } });
    }
    // The batch's operations share one context: what it made is the calls sent, the paced ones not among them.
    expect(answers.map((answer) => answer.extensions?.restCalls?.made)).toEqual(answers.map(() => left));
    const exposition = await metrics(gateway);
    expect(metricSample(exposition, 'gateway_upstream_quota_paced_total', { credential: digestOf(gateway, DEMO_TOKENS.maintainer) })).toBe(left);
    expect(await answers429(gateway)).toBe(0);
  });

  it("stretches a poller's interval as its credential's calls run low, and polls again after each reset without ever being paced", async () => {
    const requests = 6;
    limitTo({ authenticated: { requests, periodSeconds: 2 } });
    const gateway = await start({ runnerPollIntervalMs: 20 });
    const client = connectWebSocket(gateway.wsUrl, { 'PRIVATE-TOKEN': DEMO_TOKENS.admin });
    try {
      const events: unknown[] = [];
      client.client.subscribe(
        { query: SUBSCRIPTION, variables: { id: `gid://gitlab/Ci::Runner/${RUNNER}` } },
        { next: (event) => void events.push(event), error: (error) => void events.push(error), complete: () => undefined },
      );
      const polls = () => simulator.requests.filter((request) => request.path === `/runners/${RUNNER}`).length;
      // Unstretched, a 20 ms interval would spend a 2 s window's 6 calls in its first 120 ms and be
      // paced for the rest of it; stretched, it takes some of each window's calls, and more than one
      // window's worth in all: it polled past a reset.
      await until(() => polls() > requests, 15_000);
      expect(events).toEqual([]);
    } finally {
      await client.client.dispose();
    }
    const exposition = await metrics(gateway);
    expect(metricSample(exposition, 'gateway_upstream_quota_paced_total', { credential: digestOf(gateway, DEMO_TOKENS.admin) }) ?? 0).toBe(0);
    expect(await answers429(gateway)).toBe(0);
  }, 30_000);

  it("refuses a watch whose first poll finds no call left (RATE_LIMITED), sending nothing, rather than accepting it unchecked", async () => {
    limitTo({ authenticated: { requests: 1, periodSeconds: period } });
    const digest = randomCredentialDigest();
    const upstreamQuota = new UpstreamQuota({ digest });
    const restClient = new RestClient({ baseUrl: simulator.url, upstreamQuota });
    const pollers = new RecordPollers({ restClient, intervalMs: 1_000, credentialDigest: digest, upstreamQuota });
    const credential = { kind: 'private-token' as const, value: DEMO_TOKENS.admin };
    try {
      // The window's one call: its answer says none is left.
      await new RestSession(restClient, credential).get('/user');
      const sent = simulator.requests.length;
      const refusal = await pollers.watch(credential, watchedRunner(RUNNER), runnerStatusAspect).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(UpstreamQuotaSpent);
      expect((refusal as UpstreamQuotaSpent).retryAfter).toBeGreaterThanOrEqual(1);
      expect(pollers.activePollers).toBe(0);
      expect(simulator.requests).toHaveLength(sent);
    } finally {
      await pollers.close();
      await restClient.close();
    }
  });

  describe('with replicas sharing a Redis', () => {
    let redis: TestRedis;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      await redis?.close();
    });

    it("tells the other replicas a credential's figures: one refuses what the other spent, and Redis holds digests only", async () => {
      limitTo({ authenticated: { requests: LIMIT, periodSeconds: period } });
      const redisOptions = { redis: { url: redis.url, keySecret: 'upstream-quota-test-secret', keyPrefix: 'quota-test:' } };
      const [spender, other] = await Promise.all([start(redisOptions), start(redisOptions)]);
      for (const gateway of [spender, other]) await eventually(async () => metricSample(await metrics(gateway), 'gateway_redis_up') === 1, 5_000, 'redis up');
      const credential = digestOf(spender, DEMO_TOKENS.maintainer);
      expect(digestOf(other, DEMO_TOKENS.maintainer)).toBe(credential);

      const estimate = estimateOf(spender, PROJECTS_AND_ISSUES);
      const spend = LIMIT - estimate + 1;
      for (let sent = 0; sent < spend; sent++) await postGraphQL(spender.url, { query: ME }, tokenOf(DEMO_TOKENS.maintainer));
      await eventually(async () => (await remaining(other, credential)) === LIMIT - spend, 5_000, 'the figures reached the other replica');

      simulator.resetRequests();
      const refused = await postGraphQL(other.url, { query: PROJECTS_AND_ISSUES }, tokenOf(DEMO_TOKENS.maintainer));
      expect(codeOf(refused)).toBe('RATE_LIMITED');
      expect(refused.status).toBe(429);
      expect(simulator.requests).toHaveLength(0);

      const stored = await redis.dump();
      const key = `quota-test:upstream-quota:${credential}`;
      expect(stored.get(key)).toBe(`${credential} ${LIMIT - spend} ${stored.get(key)!.split(' ')[2]}`);
      const ttl = await redis.client.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(period * 1000);
      const everything = [...stored].join('\n');
      for (const token of Object.values(DEMO_TOKENS)) expect(everything).not.toContain(token);

      // A replica started later reads the stored figures, asked by the credential's first operation
      // (one that makes no REST call: nothing it could learn them from GitLab by).
      const late = await start(redisOptions);
      await eventually(async () => metricSample(await metrics(late), 'gateway_redis_up') === 1, 5_000, 'redis up');
      expect((await postGraphQL(late.url, { query: '{ __typename }' }, tokenOf(DEMO_TOKENS.maintainer))).body.errors).toBeUndefined();
      await eventually(async () => (await remaining(late, credential)) === LIMIT - spend, 5_000, 'the late replica read the stored figures');
      expect(codeOf(await postGraphQL(late.url, { query: PROJECTS_AND_ISSUES }, tokenOf(DEMO_TOKENS.maintainer)))).toBe('RATE_LIMITED');
      expect(simulator.requests).toHaveLength(0);
    });
  });
});
