// Issue 30, caller limits at the gateway: operations per second and REST calls per minute, per
// credential digest and per address for anonymous callers, in memory or in Redis shared by the
// replicas; past a limit an operation is refused RATE_LIMITED with retryAfter (HTTP 429 and
// Retry-After) before any REST call. Off by default.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import type { GatewayOptions } from '../../src/index.js';
import { MemoryCallerBuckets } from '../../src/policy/caller-buckets.js';
import { addressKey, createCallerLimits } from '../../src/policy/caller-limits.js';
import { randomCredentialDigest } from '../../src/shared-state/credential-digest.js';
import { connectWebSocket } from '../embedding/support.js';
import { startRedis, type TestRedis } from '../replicas/support/redis-server.js';
import { startTestGateway, type GraphQLResponse, type TestGateway } from '../support/gateway.js';
import { restCalls } from '../support/rest-oracle.js';
import { eventually } from '../support/wait.js';
import { metricSample, postGraphQL } from './support.js';

const ME = '{ currentUser { username } }';
/** Six REST calls (the projects, then each one's issues), estimated as such. */
const PROJECTS_AND_ISSUES = '{ projects(first: 5) { nodes { id issues(first: 2) { nodes { id } } } } }';
const PUBLIC_PROJECTS = '{ projects(first: 1) { nodes { id } } }';
const maintainer = { 'private-token': DEMO_TOKENS.maintainer };
const developer = { 'private-token': DEMO_TOKENS.developer };

/**
 * Rates so slow that no token comes back while a test runs (one operation per 100 s), so that
 * every count is exact; the bursts are what the tests spend.
 */
const SLOW = 0.01;

/** A GraphQL POST from a loopback address of the test's choosing (127.0.0.2, ...), as another host's caller. */
function postFrom(localAddress: string, url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: GraphQLResponse }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: 'POST', localAddress, headers: { 'content-type': 'application/json', ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as GraphQLResponse }));
    });
    sent.on('error', reject);
    sent.end(JSON.stringify(body));
  });
}

/** Any whole number of seconds; the assertions below bound it. */
const ANY_SECONDS: unknown = expect.any(Number);
const ANY_NAME: unknown = expect.any(String);

const codeOf = (answer: { body: GraphQLResponse }) => answer.body.errors?.[0]?.extensions?.['code'];

describe('caller limits', () => {
  let simulator: Simulator;
  const gateways: TestGateway[] = [];
  const start = async (options: Partial<GatewayOptions>) => {
    const gateway = await startTestGateway(simulator.url, options);
    gateways.push(gateway);
    return gateway;
  };

  beforeAll(async () => {
    simulator = await startSimulator();
  });
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.close()));
    await simulator?.close();
  });

  it('are off by default: a burst of operations from one credential all run', async () => {
    const gateway = await start({});
    const answers = await Promise.all(Array.from({ length: 30 }, () => postGraphQL(gateway.url, { query: ME }, maintainer)));
    expect(answers.map((answer) => [answer.status, answer.body])).toEqual(answers.map(() => [200, { data: { currentUser: { username: 'maintainer' } } }]));
    const metrics = await (await fetch(new URL('/metrics', gateway.url))).text();
    expect(metrics).not.toContain('gateway_caller_limit_refusals_total{');
  });

  describe('operations per second', () => {
    let gateway: TestGateway;
    beforeAll(async () => {
      gateway = await start({
        allowBatchedHttpRequests: true,
        callerLimits: { operationsPerSecond: SLOW, operationBurst: 2, anonymous: { operationsPerSecond: SLOW } },
      });
    });

    it('refuses the operation past the burst with RATE_LIMITED, retryAfter, 429 and Retry-After, and no REST call', async () => {
      for (let sent = 0; sent < 2; sent++) expect((await postGraphQL(gateway.url, { query: ME }, maintainer)).body).toEqual({ data: { currentUser: { username: 'maintainer' } } });
      simulator.resetRequests();
      const refused = await postGraphQL(gateway.url, { query: PROJECTS_AND_ISSUES }, maintainer);
      expect(restCalls(simulator)).toEqual([]);
      expect(refused.status).toBe(429);
      const extensions = refused.body.errors?.[0]?.extensions ?? {};
      expect(extensions).toEqual({ code: 'RATE_LIMITED', limit: 'operations', retryAfter: ANY_SECONDS });
      const retryAfter = extensions['retryAfter'] as number;
      // One operation per 100 s: the next one in at most 100 s, and never "now".
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 1 / SLOW).toBe(true);
      expect(refused.headers.get('retry-after')).toBe(String(retryAfter));
      expect(refused.body.errors?.[0]?.message).toMatch(/Too many operations from this credential/);
      expect(refused.body).not.toHaveProperty('data');
      const metrics = await (await fetch(new URL('/metrics', gateway.url))).text();
      expect(metricSample(metrics, 'gateway_caller_limit_refusals_total', { limit: 'operations', caller: 'credential' })).toBe(1);
    });

    it("keeps each credential's bucket apart: another token still has its own burst", async () => {
      expect(codeOf(await postGraphQL(gateway.url, { query: ME }, maintainer))).toBe('RATE_LIMITED');
      for (let sent = 0; sent < 2; sent++) expect((await postGraphQL(gateway.url, { query: ME }, developer)).body).toEqual({ data: { currentUser: { username: 'developer' } } });
      expect(codeOf(await postGraphQL(gateway.url, { query: ME }, developer))).toBe('RATE_LIMITED');
    });

    it('counts anonymous callers per address, with their own figures, apart from the credentials sent from it', async () => {
      const first = await postFrom('127.0.0.2', gateway.url, { query: PUBLIC_PROJECTS });
      expect([first.status, first.body.errors]).toEqual([200, undefined]);
      // The anonymous burst is one second of ANONYMOUS_OPERATIONS_PER_SECOND (1), not the credentials' 2.
      simulator.resetRequests();
      const second = await postFrom('127.0.0.2', gateway.url, { query: PUBLIC_PROJECTS });
      expect([second.status, codeOf(second)]).toEqual([429, 'RATE_LIMITED']);
      expect(second.body.errors?.[0]?.message).toMatch(/this address \(no credential\)/);
      expect(restCalls(simulator)).toEqual([]);
      const otherAddress = await postFrom('127.0.0.3', gateway.url, { query: PUBLIC_PROJECTS });
      expect([otherAddress.status, otherAddress.body.errors]).toEqual([200, undefined]);
      // A credential sent from the refused address has its own bucket.
      const withToken = await postFrom('127.0.0.2', gateway.url, { query: ME }, { 'private-token': DEMO_TOKENS.guest });
      expect(withToken.body).toEqual({ data: { currentUser: { username: 'guest' } } });
      const metrics = await (await fetch(new URL('/metrics', gateway.url))).text();
      expect(metricSample(metrics, 'gateway_caller_limit_refusals_total', { limit: 'operations', caller: 'anonymous' })).toBe(1);
    });

    it('decides each operation of a batch on its own: 200 when some ran, 429 and Retry-After when none did', async () => {
      const token = { 'private-token': DEMO_TOKENS.admin };
      simulator.resetRequests();
      const batch = await postGraphQL(gateway.url, [{ query: ME }, { query: ME }, { query: PROJECTS_AND_ISSUES }], token);
      expect(batch.status).toBe(200);
      expect(batch.headers.get('retry-after')).toBeNull();
      const answers = batch.body as unknown as GraphQLResponse[];
      const ran = { data: { currentUser: { username: ANY_NAME } } };
      expect(answers.slice(0, 2)).toEqual([ran, ran]);
      expect(answers[2]?.errors?.[0]?.extensions).toEqual({ code: 'RATE_LIMITED', limit: 'operations', retryAfter: ANY_SECONDS });
      // The batch's operations share one context, so its two reads of the user are one call; the refused one made none.
      const made = restCalls(simulator);
      expect(made).toEqual(['GET /user']);
      const refused = await postGraphQL(gateway.url, [{ query: ME }, { query: ME }], token);
      expect(refused.status).toBe(429);
      const retryAfter = (refused.body as unknown as GraphQLResponse[]).map((answer) => answer.errors?.[0]?.extensions?.['retryAfter']);
      expect(retryAfter).toEqual([ANY_SECONDS, ANY_SECONDS]);
      expect(refused.headers.get('retry-after')).toBe(String(retryAfter[0]));
      expect(restCalls(simulator)).toEqual(made);
    });

    it('counts a graphql-ws subscribe as an operation, and refuses it with the code', async () => {
      const socket = connectWebSocket(gateway.wsUrl, { 'PRIVATE-TOKEN': DEMO_TOKENS.outsider });
      try {
        for (let sent = 0; sent < 2; sent++) expect(await socket.first(ME)).toEqual({ data: { currentUser: { username: 'outsider' } } });
        simulator.resetRequests();
        const refused = await socket.first('subscription { ciRunnerStatusUpdated(runnerId: "gid://gitlab/Ci::Runner/1") { status } }');
        expect(refused.errors?.[0]?.extensions).toEqual({ code: 'RATE_LIMITED', limit: 'operations', retryAfter: ANY_SECONDS });
        expect(restCalls(simulator)).toEqual([]);
      } finally {
        await socket.client.dispose();
      }
    });
  });

  describe('REST calls per minute', () => {
    it('debits the REST calls operations really made, not their estimate, and refuses once the bucket is spent', async () => {
      // The estimate of PROJECTS_AND_ISSUES, from a gateway that refuses it for its cost.
      const estimating = await start({ limits: { maxRestCalls: 1 } });
      const estimate = (await postGraphQL(estimating.url, { query: PROJECTS_AND_ISSUES }, maintainer)).body.errors?.[0]?.extensions?.['estimate'] as number;
      // A bucket of a minute's calls smaller than the estimate: an estimate-based limit would refuse at once.
      const perMinute = estimate - 1;
      const gateway = await start({ callerLimits: { restCallsPerMinute: perMinute } });
      simulator.resetRequests();
      let admitted = 0;
      let made = 0;
      let refused: Awaited<ReturnType<typeof postGraphQL>> | undefined;
      // Operations of one REST call each run until the bucket is spent: as many as it holds.
      while (!refused && admitted <= perMinute) {
        const answer = await postGraphQL(gateway.url, { query: ME }, maintainer);
        if (codeOf(answer) === 'RATE_LIMITED') refused = answer;
        else admitted += 1;
        made = restCalls(simulator).length;
      }
      expect([admitted, made]).toEqual([perMinute, perMinute]);
      expect(refused?.status).toBe(429);
      expect(refused?.body.errors?.[0]?.extensions).toEqual({ code: 'RATE_LIMITED', limit: 'restCalls', retryAfter: ANY_SECONDS });
      const retryAfter = refused?.body.errors?.[0]?.extensions?.['retryAfter'] as number;
      expect(retryAfter >= 1 && retryAfter <= Math.ceil(60 / perMinute)).toBe(true);
      expect(refused?.headers.get('retry-after')).toBe(String(retryAfter));

      // Another credential's operation above the bucket runs whole (admitted while one call is
      // left), overdraws it by what it made, and is refused after; the wait covers the overdraft.
      simulator.resetRequests();
      expect((await postGraphQL(gateway.url, { query: PROJECTS_AND_ISSUES }, developer)).body.errors).toBeUndefined();
      const overdraft = restCalls(simulator).length - perMinute;
      expect(overdraft).toBeGreaterThan(0);
      const after = await postGraphQL(gateway.url, { query: ME }, developer);
      expect(after.body.errors?.[0]?.extensions?.['limit']).toBe('restCalls');
      expect(after.body.errors?.[0]?.extensions?.['retryAfter']).toBeGreaterThan(Math.floor((overdraft * 60) / perMinute));
      expect(restCalls(simulator).length).toBe(perMinute + overdraft);
      const metrics = await (await fetch(new URL('/metrics', gateway.url))).text();
      expect(metricSample(metrics, 'gateway_caller_limit_refusals_total', { limit: 'restCalls', caller: 'credential' })).toBe(2);
    });
  });

  describe('with replicas sharing Redis', () => {
    let redis: TestRedis;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      await Promise.all(gateways.splice(0).map((gateway) => gateway.close()));
      await redis?.close();
    });

    it("shares one caller's bucket between two gateways, keyed by the credential's digest, never its token", async () => {
      const options = {
        redis: { url: redis.url, keySecret: 'a secret shared by both replicas', keyPrefix: 'caller-limits-test:' },
        callerLimits: { operationsPerSecond: SLOW, operationBurst: 3, restCallsPerMinute: 6 },
      };
      const [one, other] = await Promise.all([start(options), start(options)]);
      expect((await postGraphQL(one.url, { query: ME }, maintainer)).body.errors).toBeUndefined();
      expect((await postGraphQL(other.url, { query: ME }, maintainer)).body.errors).toBeUndefined();
      expect((await postGraphQL(one.url, { query: ME }, maintainer)).body.errors).toBeUndefined();
      simulator.resetRequests();
      const refused = await postGraphQL(other.url, { query: ME }, maintainer);
      expect([refused.status, refused.body.errors?.[0]?.extensions?.['limit']]).toEqual([429, 'operations']);
      expect(restCalls(simulator)).toEqual([]);
      // One hash for the caller, on either replica: its operations spent, and the REST calls made
      // (sent to Redis after the answers) taken from the same bucket of 6 a minute.
      const bucketsOf = async () => [...(await redis.dump())].filter(([key]) => key.startsWith('caller-limits-test:caller-limits:'));
      const spent = async () => (await bucketsOf()).map(([, value]) => JSON.parse(value) as { operations: string; restCalls: string });
      await eventually(async () => (await spent()).some((bucket) => Number(bucket.restCalls) < 6), 5_000, 'the REST calls spent in Redis');
      const buckets = await bucketsOf();
      expect(buckets.map(([key]) => key)).toEqual([expect.stringMatching(/^caller-limits-test:caller-limits:credential:[\w-]{43}$/)]);
      expect(Number((await spent())[0]?.operations)).toBeLessThan(1);
      const text = JSON.stringify(buckets);
      for (const token of Object.values(DEMO_TOKENS)) expect(text).not.toContain(token);
      expect(await redis.client.pttl(buckets[0]![0])).toBeGreaterThan(0);
    });

    it("falls back to each replica's memory while Redis is down, still limiting, and says so", async () => {
      const gateway = await start({
        redis: { url: redis.url, keySecret: 'a secret shared by both replicas', keyPrefix: 'caller-limits-down:' },
        callerLimits: { operationsPerSecond: SLOW, operationBurst: 2 },
      });
      const metricsOf = async () => (await fetch(new URL('/metrics', gateway.url))).text();
      await redis.stop();
      try {
        await eventually(async () => metricSample(await metricsOf(), 'gateway_redis_up') === 0, 10_000, 'the replica seeing Redis down');
        const token = { 'private-token': DEMO_TOKENS.guest };
        for (let sent = 0; sent < 2; sent++) expect((await postGraphQL(gateway.url, { query: ME }, token)).body).toEqual({ data: { currentUser: { username: 'guest' } } });
        simulator.resetRequests();
        const refused = await postGraphQL(gateway.url, { query: ME }, token);
        expect([refused.status, codeOf(refused)]).toEqual([429, 'RATE_LIMITED']);
        expect(restCalls(simulator)).toEqual([]);
        expect(metricSample(await metricsOf(), 'gateway_redis_fallbacks_total', { store: 'caller_limits' })).toBe(3);
      } finally {
        await redis.start();
      }
    });
  });
});

describe('the buckets held in memory', () => {
  const figures = { operationsPerSecond: 1, operationBurst: 2, restCallsPerMinute: 60 };

  it('stay bounded whoever calls: past the bound the least recently used key goes, and idle keys are swept', () => {
    let now = 0;
    const buckets = new MemoryCallerBuckets(100, () => now);
    // A caller rotating addresses or tokens: 10,000 keys, never more than 100 held.
    for (let key = 0; key < 10_000; key++) {
      expect(buckets.take(`address:${key}`, figures)).toBeUndefined();
      expect(buckets.size).toBeLessThanOrEqual(100);
    }
    expect(buckets.size).toBe(100);
    // Two seconds later every bucket is full again, no different from none: one caller's
    // operations sweep them away as they come.
    now += 2_000;
    for (let operation = 0; operation < 60; operation++) {
      buckets.take('credential:regular', figures);
      now += 1_000;
    }
    expect(buckets.size).toBe(1);
  });

  it('keeps a bucket overdrawn by REST calls until it has refilled, and says how long', () => {
    let now = 0;
    const buckets = new MemoryCallerBuckets(100, () => now);
    buckets.spend('credential:a', figures, 90); // 60 a minute: 30 calls overdrawn, 31 s to one call left
    expect(buckets.take('credential:a', figures)).toEqual({ limit: 'restCalls', retryAfter: 31 });
    now += 30_000;
    expect(buckets.take('credential:a', figures)).toEqual({ limit: 'restCalls', retryAfter: 1 });
    now += 1_000;
    expect(buckets.take('credential:a', figures)).toBeUndefined();
  });
});

describe('the settings', () => {
  it('turn nothing on when every figure is 0, and give anonymous callers the credential figures unless set', () => {
    const digest = randomCredentialDigest();
    expect(createCallerLimits(undefined, { digest })).toBeUndefined();
    expect(createCallerLimits({ operationsPerSecond: 0, restCallsPerMinute: 0, anonymous: {} }, { digest })).toBeUndefined();
    let now = 0;
    const memory = new MemoryCallerBuckets(10, () => now);
    const limits = createCallerLimits({ operationsPerSecond: 1, operationBurst: 3 }, { digest, memory })!;
    for (let sent = 0; sent < 3; sent++) expect(limits.admit({ credential: null, address: '10.0.0.1' })).toBeUndefined();
    expect(() => limits.admit({ credential: null, address: '10.0.0.1' })).toThrow(/this address/);
    now += 1_000;
    expect(limits.admit({ credential: null, address: '10.0.0.1' })).toBeUndefined();
  });

  it('key anonymous callers by IPv4 address, and IPv6 by its /64', () => {
    expect(addressKey('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey('10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:0db8:0001:0002:ffff:1:2:3'));
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey(undefined)).toBe('unknown');
  });
});
