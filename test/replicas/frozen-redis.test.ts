import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { eventually } from '../support/wait.js';
import { startRedis, type TestRedis } from './support/redis-server.js';
import { startReplicas, type Replica } from './support/replica.js';

/**
 * Two replicas of the command line over one embedded v4 server and one redis-server that is frozen
 * (SIGSTOP) with its connections open: TCP stays up, so only an unanswered command tells. Redis's
 * own command statistics, read after the thaw, count the scripts the replicas sent it while frozen.
 */
const KEY_SECRET = 'frozen-redis-test-secret-0123';
const QUERIES = 20;
/** The probe that shows no stall: twenty queries that each waited Redis's 1 s timeout would miss it. */
const ANSWERED_WITHIN_MS = 10_000;
const ME = '{ currentUser { username } }';

/**
 * The scripts Redis has run: each lookup and each store of the response cache is one EVAL (the GETs
 * and SETs inside a script are counted under their own names too, so those say nothing here).
 */
async function scriptsRun(redis: TestRedis): Promise<number> {
  const calls = await redis.commandCalls();
  return (calls.get('eval') ?? 0) + (calls.get('evalsha') ?? 0);
}

/** Resolves with `work`'s result, or fails once `ms` have passed without it. */
async function answeredWithin<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} not answered within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('replicas over a Redis that stops answering', () => {
  let simulator: Simulator;
  let redis: TestRedis;
  let replicas: Replica[] = [];

  beforeAll(async () => {
    [simulator, redis] = await Promise.all([startSimulator(), startRedis()]);
    replicas = await startReplicas(2, {
      V4_URL: simulator.url,
      REDIS_URL: redis.url,
      REDIS_KEY_SECRET: KEY_SECRET,
      REDIS_KEY_PREFIX: 'gw-frozen:',
      RESPONSE_CACHE_TTL_MS: '60000',
    });
  }, 60_000);
  afterEach(() => redis.thaw());
  afterAll(async () => {
    redis?.thaw();
    for (const replica of replicas) replica.child.kill('SIGKILL');
    await Promise.all(replicas.map((replica) => replica.exited));
    await redis?.close();
    await simulator?.close();
  });

  it('serves from memory without waiting on a frozen Redis, says so, and shares again once it answers', async () => {
    const [first, second] = replicas as [Replica, Replica];
    for (const replica of replicas) expect(await replica.readyz()).toEqual({ status: 200, body: { status: 'ready', redis: 'connected' } });
    const before = await scriptsRun(redis);

    redis.freeze();
    const answers = await answeredWithin(
      (async () => {
        const bodies = [];
        for (let sent = 0; sent < QUERIES; sent++) bodies.push((await first.post({ query: ME }, DEMO_TOKENS.maintainer)).body);
        return bodies;
      })(),
      ANSWERED_WITHIN_MS,
      `${QUERIES} queries in a row`,
    );
    expect(answers).toEqual(Array.from({ length: QUERIES }, () => ({ data: { currentUser: { username: 'maintainer' } } })));
    const degraded = { status: 200, body: { status: 'ready', redis: 'degraded', redisReason: 'not answering' } };
    expect(await first.readyz()).toEqual(degraded);
    expect(await first.metric('gateway_redis_up')).toBe(0);
    expect(await first.metric('gateway_redis_fallbacks_total', { store: 'response_cache' })).toBeGreaterThanOrEqual(QUERIES);
    // The idle replica asked Redis nothing: its heartbeat finds out.
    await eventually(async () => (await second.readyz()).body['redisReason'] === 'not answering', 10_000, 'the idle replica sees Redis not answering');
    expect(await second.readyz()).toEqual(degraded);
    expect(await second.metric('gateway_redis_up')).toBe(0);
    for (const replica of replicas) {
      expect(replica.logLines().some((line) => line['level'] === 40 && line.msg.startsWith('redis not answering'))).toBe(true);
    }

    redis.thaw();
    await eventually(async () => (await first.metric('gateway_redis_up')) + (await second.metric('gateway_redis_up')) === 2, 10_000, 'both replicas see Redis answer');
    for (const replica of replicas) expect(await replica.readyz()).toEqual({ status: 200, body: { status: 'ready', redis: 'connected' } });
    // Redis has now run what reached it while frozen: at most the one lookup that met the timeout
    // (none when a heartbeat found out first); without the circuit, one per query.
    expect((await scriptsRun(redis)) - before).toBeLessThanOrEqual(1);

    // Shared again: a persisted query registered on one replica is found on the other, and an answer
    // cached by one is served by the other without a REST call.
    const query = '{ currentUser { id username } }';
    const extensions = { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') } };
    const userReads = () => simulator.requests.filter((request) => request.method === 'GET' && request.path === '/user').length;
    simulator.resetRequests();
    expect((await first.post({ query, extensions }, DEMO_TOKENS.developer)).body.errors).toBeUndefined();
    expect(userReads()).toBe(1);
    const fromRedis = await second.post({ extensions }, DEMO_TOKENS.developer);
    expect(fromRedis.body.data).toMatchObject({ currentUser: { username: 'developer' } });
    expect(userReads()).toBe(1);
  }, 60_000);
});
