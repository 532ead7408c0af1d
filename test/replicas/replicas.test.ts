import { createHash, createHmac } from 'node:crypto';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { restOracle } from '../support/rest-oracle.js';
import { connect, watch } from '../support/runner-watch.js';
import { eventually } from '../support/wait.js';
import { startRedis, type TestRedis } from './support/redis-server.js';
import { startReplicas, type Replica } from './support/replica.js';

/**
 * Three replicas of the command line over one embedded v4 server and one Redis, as a deployment
 * behind a load balancer runs them. The v4 server counts the polls; Redis is read key by key.
 * Waits are bounded and fail the test when what they wait for never comes; no assertion is on a
 * duration, only on counts (polls can only be late, never early, so a count over a window has a
 * ceiling that several pollers would exceed threefold).
 */
const POLL_MS = 200;
const KEY_SECRET = 'replica-test-secret-0123456789';
const PREFIX = 'gw-test:';
const gid = (id: number) => `gid://gitlab/Ci::Runner/${id}`;
const PAUSE = 'mutation($id: CiRunnerID!, $paused: Boolean!) { runnerUpdate(input: { id: $id, paused: $paused }) { runner { paused } } }';

describe('three replicas sharing one Redis', () => {
  let simulator: Simulator;
  let redis: TestRedis;
  let replicas: Replica[] = [];
  const clients: Client[] = [];
  /** Every subscription opened, with its replica and runner. */
  const subscriptions: Array<{ replica: Replica; token: string; runnerId: number; watcher: ReturnType<typeof watch> }> = [];
  const subscribe = (replica: Replica, token: string, runnerId: number) => {
    const client = connect(replica, { 'PRIVATE-TOKEN': token });
    clients.push(client);
    const entry = { replica, token, runnerId, watcher: watch(client, runnerId) };
    subscriptions.push(entry);
    return entry;
  };
  /** The subscriptions to the maintainer's runner on replicas still running. */
  const maintainerWatchersAlive = () =>
    subscriptions
      .filter((entry) => entry.token === DEMO_TOKENS.maintainer && entry.runnerId === maintainerRunner && alive().includes(entry.replica))
      .map((entry) => entry.watcher);
  /** The maintainer's group runner (one a guest may not see), and the admin's runner 12: two (credential, runner) keys. */
  let maintainerRunner: number;
  const adminRunner = 12;

  const pollsOf = (runnerId: number) =>
    simulator.requests.filter((request) => request.method === 'GET' && request.path === `/runners/${runnerId}`).length;
  const alive = () => replicas.filter((replica) => replica.child.exitCode === null && replica.child.signalCode === null);
  const sumOf = async (name: string, among = alive()) => (await Promise.all(among.map((replica) => replica.metric(name)))).reduce((a, b) => a + b, 0);
  /** The replica whose id the lease of (token, runner) holds: the key names the credential by its HMAC. */
  const leaseHolder = async (token: string, runnerId: number) => {
    const digest = createHmac('sha256', KEY_SECRET).update(`private-token\0${token}`).digest('base64url');
    const holderId = await redis.client.get(`${PREFIX}runner-lease:${digest}:${runnerId}`);
    return replicas.find((replica) => replica.replicaId() === holderId);
  };
  const setPaused = async (replica: Replica, token: string, runnerId: number, paused: boolean) => {
    const result = await replica.post({ query: PAUSE, variables: { id: gid(runnerId), paused } }, token);
    expect(result.body.errors).toBeUndefined();
  };

  beforeAll(async () => {
    [simulator, redis] = await Promise.all([startSimulator(), startRedis()]);
    replicas = await startReplicas(3, {
      V4_URL: simulator.url,
      REDIS_URL: redis.url,
      REDIS_KEY_SECRET: KEY_SECRET,
      REDIS_KEY_PREFIX: PREFIX,
      RUNNER_POLL_INTERVAL_MS: String(POLL_MS),
      RESPONSE_CACHE_TTL_MS: '60000',
    });
    const [owned] = await restOracle(simulator).all<{ id: number }>('/runners?type=group_type&status=active', DEMO_TOKENS.maintainer);
    maintainerRunner = owned!.id;
    expect(maintainerRunner).not.toBe(adminRunner);
  }, 60_000);

  afterAll(async () => {
    for (const client of clients) await client.dispose();
    for (const replica of alive()) replica.child.kill('SIGKILL');
    await Promise.all(replicas.map((replica) => replica.exited));
    await redis?.close();
    await simulator?.close();
  });

  it('connects every replica to Redis and says so on /readyz', async () => {
    for (const replica of replicas) {
      expect(replica.replicaId()).toMatch(/^[0-9a-f-]{36}$/);
      expect(await replica.readyz()).toEqual({ status: 200, body: { status: 'ready', redis: 'connected' } });
      expect(await replica.metric('gateway_redis_up')).toBe(1);
    }
  });

  it('finds a persisted query registered on one replica on every other', async () => {
    const query = '{ currentUser { username } }';
    const extensions = { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') } };
    const [first, second, third] = replicas as [Replica, Replica, Replica];
    expect((await second.post({ extensions }, DEMO_TOKENS.maintainer)).body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect((await first.post({ query, extensions }, DEMO_TOKENS.maintainer)).body).toEqual({ data: { currentUser: { username: 'maintainer' } } });
    expect((await third.post({ extensions }, DEMO_TOKENS.maintainer)).body).toEqual({ data: { currentUser: { username: 'maintainer' } } });
    expect((await second.post({ extensions }, DEMO_TOKENS.developer)).body).toEqual({ data: { currentUser: { username: 'developer' } } });
  });

  it('shares the response cache, and a mutation on one replica empties it on every one', async () => {
    const [first, second, third] = replicas as [Replica, Replica, Replica];
    const query = { query: 'query Runner($id: CiRunnerID!) { runner(id: $id) { id description } }', variables: { id: gid(adminRunner) } };
    const runnerReads = () => simulator.requests.filter((request) => request.method === 'GET' && request.path === `/runners/${adminRunner}`).length;
    const hits = async () =>
      (await Promise.all(replicas.map((replica) => replica.metric('gateway_response_cache_lookups_total', { result: 'hit' })))).reduce((a, b) => a + b, 0);
    const hitsBefore = await hits();
    simulator.resetRequests();
    const answer = (await first.post(query, DEMO_TOKENS.admin)).body;
    expect(answer.errors).toBeUndefined();
    expect((await third.post(query, DEMO_TOKENS.admin)).body).toEqual(answer);
    expect((await second.post(query, DEMO_TOKENS.admin)).body).toEqual(answer);
    expect(runnerReads()).toBe(1); // replica 1 asked REST; 3 and 2 answered from Redis
    // Another credential never meets that entry.
    await third.post(query, DEMO_TOKENS.maintainer);
    expect(runnerReads()).toBe(2);

    const rename = 'mutation($id: CiRunnerID!) { runnerUpdate(input: { id: $id, description: "renamed by replica 2" }) { runner { description } } }';
    expect((await second.post({ query: rename, variables: { id: gid(adminRunner) } }, DEMO_TOKENS.admin)).body.errors).toBeUndefined();
    simulator.resetRequests();
    for (const replica of [first, third]) {
      expect((await replica.post(query, DEMO_TOKENS.admin)).body.data).toEqual({ runner: { id: gid(adminRunner), description: 'renamed by replica 2' } });
    }
    expect(runnerReads()).toBe(1); // one miss after the mutation, then a hit again
    expect((await hits()) - hitsBefore).toBe(3);
  });

  it('polls each watched runner once per interval however many replicas watch it, and feeds every subscriber', async () => {
    const watchers = replicas.flatMap((replica) => [
      subscribe(replica, DEMO_TOKENS.maintainer, maintainerRunner),
      subscribe(replica, DEMO_TOKENS.admin, adminRunner),
    ]);
    await eventually(async () => (await sumOf('gateway_active_subscriptions')) === 6, 10_000, 'six subscriptions');
    // Each replica watches both keys; one replica polls each.
    await eventually(async () => (await sumOf('gateway_runners_polled')) === 2, 10_000, 'one poller per key');

    simulator.resetRequests();
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 8));
    const elapsedIntervals = Math.floor((performance.now() - started) / POLL_MS);
    for (const runnerId of [maintainerRunner, adminRunner]) {
      // Three pollers would make about 3 × elapsedIntervals; one makes at most elapsedIntervals + 1.
      expect(pollsOf(runnerId)).toBeGreaterThanOrEqual(2);
      expect(pollsOf(runnerId)).toBeLessThanOrEqual(elapsedIntervals + 2);
    }

    await setPaused(replicas[1]!, DEMO_TOKENS.maintainer, maintainerRunner, true);
    const events = await Promise.all(watchers.filter((entry) => entry.runnerId === maintainerRunner).map((entry) => entry.watcher.nextEvent()));
    expect(events).toHaveLength(3);
    for (const event of events) expect(event.data?.ciRunnerStatusUpdated).toMatchObject({ id: gid(maintainerRunner), paused: true });
    // The admin's subscribers saw nothing: another key.
    for (const entry of watchers.filter((candidate) => candidate.runnerId === adminRunner)) expect(entry.watcher.events).toEqual([]);
  });

  it("checks a caller's access on its own replica, with its own credential, however many watch the runner", async () => {
    const refused = subscribe(replicas[2]!, DEMO_TOKENS.guest, maintainerRunner).watcher;
    const event = await refused.nextEvent();
    expect(event.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
  });

  it('hands a killed lease holder’s runner to another replica, and every surviving subscriber gets the next change', async () => {
    const holder = await leaseHolder(DEMO_TOKENS.maintainer, maintainerRunner);
    expect(holder).toBeDefined();
    holder!.child.kill('SIGKILL');
    await holder!.exited;
    const survivors = alive();
    expect(survivors).toHaveLength(2);

    // The change comes right after the kill, before anyone holds the lease again: nobody may miss it.
    const watchers = maintainerWatchersAlive();
    expect(watchers).toHaveLength(2);
    await setPaused(survivors[0]!, DEMO_TOKENS.maintainer, maintainerRunner, false);
    const events = await Promise.all(watchers.map((watcher) => watcher.nextEvent(10_000)));
    for (const event of events) expect(event.data?.ciRunnerStatusUpdated).toMatchObject({ paused: false });

    const successor = await leaseHolder(DEMO_TOKENS.maintainer, maintainerRunner);
    expect(survivors).toContain(successor);
    await eventually(async () => (await sumOf('gateway_runners_polled')) === 2, 10_000, 'one poller per key again');
  });

  it('polls locally while Redis is down, says so, and converges back to one poller per key when it returns', async () => {
    const survivors = alive();
    // Two subscribers per replica for the one key now: still one poller per replica while degraded.
    for (const replica of survivors) subscribe(replica, DEMO_TOKENS.maintainer, maintainerRunner);
    await eventually(async () => (await sumOf('gateway_active_subscriptions')) === 3 * survivors.length, 10_000, 'the new subscriptions');
    const watchers = maintainerWatchersAlive();
    expect(watchers).toHaveLength(2 * survivors.length);

    await redis.stop();
    await eventually(async () => (await sumOf('gateway_redis_up')) === 0, 10_000, 'every replica sees Redis gone');
    // Degraded, not down: each replica polls both keys itself, and stays ready.
    await eventually(async () => (await sumOf('gateway_runners_polled')) === 2 * survivors.length, 10_000, 'local polling');
    for (const replica of survivors) {
      expect(await replica.readyz()).toEqual({ status: 200, body: { status: 'ready', redis: 'degraded', redisReason: 'unreachable' } });
      expect(replica.logLines().some((line) => line['level'] === 40 && line.msg.startsWith('redis unreachable'))).toBe(true);
    }
    await setPaused(survivors[1]!, DEMO_TOKENS.maintainer, maintainerRunner, true);
    for (const event of await Promise.all(watchers.map((watcher) => watcher.nextEvent(10_000)))) {
      expect(event.data?.ciRunnerStatusUpdated).toMatchObject({ paused: true });
    }

    await redis.start();
    await eventually(async () => (await sumOf('gateway_redis_up')) === survivors.length, 15_000, 'every replica reconnected');
    await eventually(async () => (await sumOf('gateway_runners_polled')) === 2, 10_000, 'one poller per key again');
    expect(await leaseHolder(DEMO_TOKENS.maintainer, maintainerRunner)).toBeDefined();
    await setPaused(survivors[0]!, DEMO_TOKENS.maintainer, maintainerRunner, false);
    for (const event of await Promise.all(watchers.map((watcher) => watcher.nextEvent(10_000)))) {
      expect(event.data?.ciRunnerStatusUpdated).toMatchObject({ paused: false });
    }
  });

  it('keeps no token in Redis: every key and value scanned', async () => {
    // Something to scan (Redis restarted empty): a persisted query and its cached answer, next to the live leases.
    const query = '{ currentUser { id } }';
    const extensions = { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') } };
    await alive()[0]!.post({ query, extensions }, DEMO_TOKENS.admin);
    const entries = await redis.dump();
    expect([...entries.keys()].some((key) => key.startsWith(`${PREFIX}runner-lease:`))).toBe(true);
    expect([...entries.keys()].some((key) => key.startsWith(`${PREFIX}apq:`))).toBe(true);
    expect([...entries.values()].some((value) => value.includes('"currentUser"'))).toBe(true);
    // Not the token, nor its unkeyed hash (which a dictionary of tokens would find).
    const forbidden = Object.values(DEMO_TOKENS).flatMap((token) => [
      token,
      createHash('sha256').update(`private-token\0${token}`).digest('base64url'),
    ]);
    for (const [key, value] of entries) {
      for (const text of [key, value]) {
        expect(text).not.toMatch(/glpat-|glrt-/);
        for (const secret of forbidden) expect(text).not.toContain(secret);
      }
    }
  });
});
