// Faults under a bounded load on loopback: the embedded v4 server slow, erroring, rate limiting,
// closing connections, and killed mid-query then restarted on its port. Every answer must be
// well-formed JSON with the code the fault calls for, the gateway must recover by itself when the
// upstream does, and its memory must settle after 10,000 failed requests.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type FaultSpec, type Simulator } from '../../simulator/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { loadClient, runBounded, type LoadClient } from './load.js';

const IN_FLIGHT = 20;
const PHASE_REQUESTS = 200;
const FAILED_REQUESTS = 10_000;
const WARM_UP_REQUESTS = 1_000;
/**
 * The heap may grow this much over 10,000 failed requests. Each one builds a context, loaders, a
 * RestError with its body and a formatted GraphQL error: several KB, so keeping even a tenth of
 * them would exceed 8 MB; what stays below it is the noise of a live heap (JIT code, pools).
 */
const MAX_HEAP_GROWTH_BYTES = 8 * 1024 * 1024;
const BREAKER_COOLDOWN_MS = 200;
/** Bounds on waiting for states (not timings asserted): the whole file's runs take seconds. */
const FILE_TIMEOUT_MS = 120_000;

/** Waits for the next IPC message of the child. */
async function nextMessage<T>(child: ChildProcess): Promise<T> {
  const [message] = (await once(child, 'message')) as [T];
  return message;
}

/** A caller's name, and a runner beside it: a runner fault costs the runner field only. */
const QUERY = `query Soak($id: CiRunnerID!) { currentUser { username } runner(id: $id) { id status } }`;
/** The runner alone: one REST call, for the many requests of the memory run. */
const RUNNER_ONLY = `query Soak($id: CiRunnerID!) { runner(id: $id) { id status } }`;
const runnerFor = (index: number) => `gid://gitlab/Ci::Runner/${(index % 15) + 1}`;

/** `ok`, or the codes of a response's errors by field: `currentUser:UPSTREAM_UNAVAILABLE runner:...`. */
type Outcome = string;

describe('faults and a soak under load', () => {
  let simulator: Simulator;
  let port: number;
  let gateway: TestGateway;
  let client: LoadClient;

  beforeAll(async () => {
    simulator = await startSimulator();
    port = Number(new URL(simulator.url).port);
    gateway = await startTestGateway(simulator.url, {
      upstreamTimeoutMs: 300,
      circuitBreaker: { failureThreshold: 5, cooldownMs: BREAKER_COOLDOWN_MS },
    });
    client = loadClient(gateway.url, IN_FLIGHT);
  });

  afterAll(async () => {
    await client?.close();
    await gateway?.close();
    await simulator?.close();
  });

  /**
   * One request, reduced to what the phase checks: `ok` for a whole answer, else the codes of its
   * errors by field (`runner:UPSTREAM_ERROR`). Anything malformed throws, failing the phase.
   */
  async function outcomeOf(index: number, query = QUERY, target = client): Promise<Outcome> {
    const { status, body } = await target.post<{ currentUser?: { username: string } | null; runner: { id: string } | null }>(query, { id: runnerFor(index) }, DEMO_TOKENS.admin);
    if (status !== 200 || typeof body !== 'object' || body === null) throw new Error(`HTTP ${status}: ${JSON.stringify(body)}`);
    if (!body.errors) {
      const caller = query === QUERY ? body.data?.currentUser?.username : 'root';
      if (caller !== 'root' || body.data?.runner?.id !== runnerFor(index)) throw new Error(`incomplete answer ${JSON.stringify(body)}`);
      return 'ok';
    }
    return body.errors
      .map((error) => {
        if (typeof error.message !== 'string' || error.message === '') throw new Error(`error without a message ${JSON.stringify(error)}`);
        return `${String(error.path?.[0])}:${String(error.extensions?.['code'])}`;
      })
      .sort()
      .join(' ');
  }

  /** Sends `count` requests, `IN_FLIGHT` at a time, and tallies their outcomes. */
  async function phase(count: number, query = QUERY, target = client): Promise<Map<Outcome, number>> {
    const tally = new Map<Outcome, number>();
    await runBounded(count, IN_FLIGHT, async (index) => {
      const outcome = await outcomeOf(index, query, target);
      tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
    });
    return tally;
  }

  /** Asks until a whole answer comes back: the circuit closes by itself once the upstream is back. */
  async function recovered(): Promise<number> {
    for (let attempt = 1; attempt <= 100; attempt++) {
      if ((await outcomeOf(attempt)) === 'ok') return attempt;
      await new Promise((resolve) => setTimeout(resolve, BREAKER_COOLDOWN_MS / 4));
    }
    throw new Error('the gateway did not recover');
  }

  const withFault = async (spec: FaultSpec | null, latencyMs: number, count = PHASE_REQUESTS) => {
    const id = spec ? simulator.faults.add(spec) : undefined;
    simulator.setLatency(latencyMs);
    try {
      return await phase(count);
    } finally {
      if (id) simulator.faults.remove(id);
      simulator.setLatency(0);
      simulator.resetRequests();
    }
  };
  const RUNNERS = /^\/runners\/\d+$/;
  /** The runner field, or both fields, failed because the upstream is unavailable. */
  const UNAVAILABLE = /^(?:currentUser:UPSTREAM_UNAVAILABLE|runner:UPSTREAM_UNAVAILABLE|currentUser:UPSTREAM_UNAVAILABLE runner:UPSTREAM_UNAVAILABLE)$/;

  it(
    'keeps answering through slow, erroring, rate-limiting and connection-closing upstreams, with the right codes',
    async () => {
      expect(await withFault(null, 0)).toEqual(new Map([['ok', PHASE_REQUESTS]]));
      // Slow, within the timeout: answers as usual.
      expect(await withFault(null, 40)).toEqual(new Map([['ok', PHASE_REQUESTS]]));
      // Erroring and rate limiting: the runner field fails, the caller's name stands; neither opens the circuit.
      expect(await withFault({ method: 'GET', path: RUNNERS, kind: 'status', status: 500 }, 0)).toEqual(new Map([['runner:UPSTREAM_ERROR', PHASE_REQUESTS]]));
      expect(await withFault({ method: 'GET', path: RUNNERS, kind: 'status', status: 429, headers: { 'retry-after': '30' }, body: 'Retry later' }, 0)).toEqual(
        new Map([['runner:RATE_LIMITED', PHASE_REQUESTS]]),
      );
      expect(await recovered()).toBe(1);

      // Closed connections and no answer in time: faults of the upstream, which open the circuit, so
      // the caller's name fails too once it is open.
      for (const kind of ['close', 'timeout'] as const) {
        const tally = await withFault({ method: 'GET', path: RUNNERS, kind }, 0, PHASE_REQUESTS / 2);
        expect([...tally.keys()].filter((outcome) => !UNAVAILABLE.test(outcome))).toEqual([]);
        expect(tally.get('currentUser:UPSTREAM_UNAVAILABLE runner:UPSTREAM_UNAVAILABLE')).toBeGreaterThan(0);
        expect([...tally.values()].reduce((sum, n) => sum + n, 0)).toBe(PHASE_REQUESTS / 2);
        expect(await recovered()).toBeGreaterThanOrEqual(1);
      }
    },
    FILE_TIMEOUT_MS,
  );

  it(
    'answers while the upstream is killed mid-query, and recovers when it is back on its port',
    async () => {
      simulator.setLatency(50);
      const outcomes = new Map<Outcome, number>();
      let killed: Promise<void> | undefined;
      await runBounded(PHASE_REQUESTS, IN_FLIGHT, async (index) => {
        // A quarter of the way in, with requests on the wire, the upstream goes away.
        if (index === PHASE_REQUESTS / 4) killed = simulator.close();
        const outcome = await outcomeOf(index);
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      });
      await killed;
      expect(outcomes.get('ok')).toBeGreaterThan(0);
      const failed = [...outcomes.keys()].filter((outcome) => outcome !== 'ok');
      expect(failed.length).toBeGreaterThan(0);
      expect(failed.filter((outcome) => !UNAVAILABLE.test(outcome))).toEqual([]);

      // Down: every answer says so, fast, without waiting for timeouts (the circuit is open).
      expect(await phase(PHASE_REQUESTS / 2)).toEqual(new Map([['currentUser:UPSTREAM_UNAVAILABLE runner:UPSTREAM_UNAVAILABLE', PHASE_REQUESTS / 2]]));

      simulator = await startSimulator({ port });
      expect(await recovered()).toBeGreaterThanOrEqual(1);
      expect(await phase(PHASE_REQUESTS)).toEqual(new Map([['ok', PHASE_REQUESTS]]));
    },
    FILE_TIMEOUT_MS,
  );

  it(
    `lets its memory settle after ${FAILED_REQUESTS} failed requests`,
    async () => {
      // The gateway alone in a child process with --expose-gc, so the heap measured is its own,
      // not the load client's or the v4 server's.
      const child = fork(new URL('./gateway-process.ts', import.meta.url), [simulator.url], {
        execArgv: ['--expose-gc', '--import', 'tsx'],
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      const childClient = loadClient((await nextMessage<{ url: string }>(child)).url, IN_FLIGHT);
      const settledHeap = async () => {
        child.send('heap');
        return (await nextMessage<{ heapUsed: number }>(child)).heapUsed;
      };
      try {
        // 500s on half the runners, 429s on the other half: failures that never open the circuit,
        // so each request goes all the way to REST and back. The REST log is emptied as it goes.
        simulator.faults.add({ method: 'GET', path: /^\/runners\/\d*[13579]$/, kind: 'status', status: 500 });
        simulator.faults.add({ method: 'GET', path: /^\/runners\/\d*[02468]$/, kind: 'status', status: 429, headers: { 'retry-after': '30' }, body: 'Retry later' });
        const failures = async (count: number) => {
          let restCalls = 0;
          for (let done = 0; done < count; done += 1_000) {
            const tally = await phase(1_000, RUNNER_ONLY, childClient);
            expect([...tally.keys()].sort()).toEqual(['runner:RATE_LIMITED', 'runner:UPSTREAM_ERROR']);
            restCalls += simulator.requests.length;
            simulator.resetRequests();
          }
          return restCalls;
        };

        await failures(WARM_UP_REQUESTS);
        const baseline = await settledHeap();
        // One REST call each: none answered from a cache, none retried.
        expect(await failures(FAILED_REQUESTS)).toBe(FAILED_REQUESTS);
        const growth = (await settledHeap()) - baseline;
        console.info(`gateway heap: ${(baseline / 2 ** 20).toFixed(1)} MB after the warm-up, ${(growth / 2 ** 20).toFixed(2)} MB more after ${FAILED_REQUESTS} failed requests`);
        expect(growth).toBeLessThan(MAX_HEAP_GROWTH_BYTES);
      } finally {
        await childClient.close();
        child.send('close');
        await once(child, 'exit');
      }
    },
    FILE_TIMEOUT_MS,
  );
});
