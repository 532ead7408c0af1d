// Isolation under load: many callers, each with its own token and its own private data, through
// one gateway at once, batching on. No response may carry another caller's data, whether it is
// built by loaders, served from the response cache, or pushed by a shared runner poller.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { loadTestProjectPath, loadTestRunnerDescription, loadTestToken, loadTestUsername, startSimulator, type Simulator } from '../../simulator/index.js';
import { startTestGateway, type GraphQLResponse, type TestGateway } from '../support/gateway.js';
import { restCalls } from '../support/rest-oracle.js';
import { until } from '../support/wait.js';
import { loadClient, runBounded } from './load.js';

const USERS = 200;
const REQUESTS = 2_000;
const IN_FLIGHT = 50;
/** Generous: a bound on a run that takes seconds on an idle machine, and others may load this one. */
const LOAD_TIMEOUT_MS = 120_000;
/** Projects every request asks for: each is visible to its owner only, null to the others. */
const PROBES = [1, 2, 3, 4, 5].map(loadTestProjectPath);

/**
 * What a caller is, sees and owns, all in one response. The variables are the same for every
 * caller, so a cache keyed without the credential would hand one caller's answer to the next.
 */
const QUERY = `query Isolation($probe: ID!) {
  currentUser { username name }
  ownedRunners(first: 2) { count nodes { description tagList projects(first: 2) { nodes { fullPath } } } }
  probe: project(fullPath: $probe) { fullPath name description }
}`;

interface IsolationData {
  currentUser: { username: string; name: string };
  ownedRunners: { count: number; nodes: Array<{ description: string; tagList: string[]; projects: { nodes: Array<{ fullPath: string }> } }> };
  probe: { fullPath: string; name: string; description: string } | null;
}

/** Every load-test user number the text names, in any of the forms its data takes. */
function usersNamedIn(text: string): Set<number> {
  return new Set([...text.matchAll(/\b(?:load-user|load-runner|secret|load|Load User) ?-?(\d+)\b/g)].map((match) => Number(match[1])));
}

/** The whole answer caller `n` must get when probing `probe`. */
function expectedFor(n: number, probe: string): IsolationData {
  const own = loadTestProjectPath(n);
  return {
    currentUser: { username: loadTestUsername(n), name: `Load User ${n}` },
    ownedRunners: { count: 1, nodes: [{ description: loadTestRunnerDescription(n), tagList: [`load-${n}`], projects: { nodes: [{ fullPath: own }] } }] },
    probe: probe === own ? { fullPath: own, name: `secret-${n}`, description: `Private data of ${loadTestUsername(n)}` } : null,
  };
}

describe('isolation between callers under load', () => {
  let simulator: Simulator;

  beforeAll(async () => {
    simulator = await startSimulator({ loadTestUsers: USERS });
  });

  afterAll(async () => {
    await simulator?.close();
  });

  /** Sends REQUESTS requests with mixed tokens, checks each answer, and returns how many differed. */
  async function runLoad(gateway: TestGateway): Promise<{ leaks: string[]; checked: number }> {
    const client = loadClient(gateway.url, IN_FLIGHT);
    const leaks: string[] = [];
    let checked = 0;
    try {
      await runBounded(REQUESTS, IN_FLIGHT, async (index) => {
        // A stride coprime with USERS: consecutive requests, and so concurrent ones, come from different callers.
        const n = ((index * 37) % USERS) + 1;
        const probe = PROBES[index % PROBES.length]!;
        const { status, body } = await client.post<IsolationData>(QUERY, { probe }, loadTestToken(n));
        const text = JSON.stringify(body);
        const others = [...usersNamedIn(text)].filter((user) => user !== n);
        if (status !== 200 || others.length > 0 || JSON.stringify(body) !== JSON.stringify({ data: expectedFor(n, probe) })) {
          leaks.push(`request ${index} as user ${n}: HTTP ${status} ${text.slice(0, 300)}`);
        }
        checked += 1;
      });
    } finally {
      await client.close();
    }
    return { leaks, checked };
  }

  describe('with per-request loaders only (the default)', () => {
    let gateway: TestGateway;
    beforeAll(async () => {
      gateway = await startTestGateway(simulator.url, { batching: true });
    });
    afterAll(async () => {
      await gateway?.close();
    });

    it(`answers ${REQUESTS} requests from ${USERS} callers, ${IN_FLIGHT} at a time, each with its own data only`, async () => {
      simulator.resetRequests();
      const { leaks, checked } = await runLoad(gateway);
      expect(leaks).toEqual([]);
      expect(checked).toBe(REQUESTS);
      // Nothing answered from what another request fetched: every request made its own four calls.
      const calls = restCalls(simulator);
      const count = (pattern: RegExp) => calls.filter((call) => pattern.test(call)).length;
      expect(calls).toHaveLength(4 * REQUESTS);
      expect(count(/^GET \/user$/)).toBe(REQUESTS);
      expect(count(/^GET \/runners$/)).toBe(REQUESTS);
      expect(count(/^GET \/runners\/\d+$/)).toBe(REQUESTS);
      expect(count(/^GET \/projects\/load-user-\d+%2Fsecret-\d+$/)).toBe(REQUESTS);
    }, LOAD_TIMEOUT_MS);
  });

  describe('with the response cache on', () => {
    let gateway: TestGateway;
    beforeAll(async () => {
      gateway = await startTestGateway(simulator.url, { responseCache: { ttlMs: 60_000, maxEntries: 10_000 } });
    });
    afterAll(async () => {
      await gateway?.close();
    });

    it('keys every entry by credential: a hit never serves another caller', async () => {
      simulator.resetRequests();
      const filling = await runLoad(gateway);
      expect(filling.leaks).toEqual([]);
      expect(filling.checked).toBe(REQUESTS);
      // Every caller missed at least once. How many repeats of a (caller, probe) pair missed too
      // depends on whether the pair's first answer was stored before the repeat came: timing.
      const fillingMisses = restCalls(simulator).filter((call) => call === 'GET /user').length;
      expect(fillingMisses).toBeGreaterThanOrEqual(USERS);

      // Every pair is cached now: the same load again is all hits, each the caller's own answer.
      simulator.resetRequests();
      const hitting = await runLoad(gateway);
      expect(hitting.leaks).toEqual([]);
      expect(hitting.checked).toBe(REQUESTS);
      expect(restCalls(simulator)).toEqual([]);
    }, LOAD_TIMEOUT_MS);
  });

  describe('runner status subscriptions', () => {
    let gateway: TestGateway;
    const clients: Client[] = [];
    beforeAll(async () => {
      gateway = await startTestGateway(simulator.url, { runnerPollIntervalMs: 40 });
    });
    afterAll(async () => {
      for (const client of clients) await client.dispose();
      await gateway?.close();
    });

    const runnerOf = (n: number) => [...simulator.state.runners.values()].find((runner) => runner.description === loadTestRunnerDescription(n))!.id;

    function watchRunner(n: number, runnerId: number) {
      const client = createClient({ url: gateway.wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: { 'PRIVATE-TOKEN': loadTestToken(n) } });
      clients.push(client);
      const watch = { events: [] as GraphQLResponse[], completed: false, close: () => client.dispose() };
      client.subscribe(
        { query: 'subscription($id: CiRunnerID!) { ciRunnerStatusUpdated(runnerId: $id) { id description paused } }', variables: { id: `gid://gitlab/Ci::Runner/${runnerId}` } },
        { next: (event) => void watch.events.push(event as GraphQLResponse), error: () => (watch.completed = true), complete: () => (watch.completed = true) },
      );
      return watch;
    }

    it.each([
      ['after', 11, 12],
      ['before', 13, 14],
    ])('refuses a runner to a caller who may not see it, %s its owner watches it, and pushes changes to the owner only', async (order, owner, stranger) => {
      const runnerId = runnerOf(owner);
      const watchOf: Record<string, ReturnType<typeof watchRunner>> = {};
      const subscribe = async (n: number) => {
        watchOf[n] = watchRunner(n, runnerId);
        if (n === owner) await until(() => gateway.gateway.pollers.activeSubscriptions === 1);
        else await until(() => watchOf[n]!.completed);
      };
      for (const n of order === 'after' ? [owner, stranger] : [stranger, owner]) await subscribe(n);
      const [ownerWatch, strangerWatch] = [watchOf[owner]!, watchOf[stranger]!];

      expect(strangerWatch.events).toHaveLength(1);
      expect(strangerWatch.events[0]?.data ?? null).toBeNull();
      expect(strangerWatch.events[0]?.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
      // The owner's poller is the only one left: the stranger's never shared it.
      expect(gateway.gateway.pollers.activePollers).toBe(1);

      const paused = await gateway.query(`mutation { runnerUpdate(input: { id: "gid://gitlab/Ci::Runner/${runnerId}", paused: true }) { runner { paused } } }`, {}, loadTestToken(owner));
      expect(paused.errors).toBeUndefined();
      await until(() => ownerWatch.events.length === 1);
      expect(ownerWatch.events[0]).toEqual({ data: { ciRunnerStatusUpdated: { id: `gid://gitlab/Ci::Runner/${runnerId}`, description: loadTestRunnerDescription(owner), paused: true } } });
      expect(strangerWatch.events).toHaveLength(1);
      expect(JSON.stringify(strangerWatch.events)).not.toContain(loadTestRunnerDescription(owner));
      await Promise.all([ownerWatch.close(), strangerWatch.close()]);
      await until(() => gateway.gateway.pollers.activePollers === 0);
    });
  });
});
