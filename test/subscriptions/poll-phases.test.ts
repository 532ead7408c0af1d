// Pollers started together (a page subscribing to many runners at once) poll at phases spread over
// the interval (src/subscriptions/record-pollers.ts, `pollPhase`), not in one burst each interval:
// each poller's second poll comes at its own phase of the first interval. The phases are given
// here; the gateway draws them at random. Checked in the order the v4 server received the polls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { RestClient } from '../../src/datasources/rest-client.js';
import { watchRunnerStatus } from '../../src/subscriptions/runner-status.js';
import { RecordPollers } from '../../src/subscriptions/record-pollers.js';
import { restOracle } from '../support/rest-oracle.js';
import { until } from '../support/wait.js';

const credential = { kind: 'private-token', value: DEMO_TOKENS.admin } as const;
const INTERVAL_MS = 1_000;
/** One per poller, in the order they start: second polls 100, 300, 500, 700 and 900 ms after the first. */
const PHASES = [0.9, 0.3, 0.5, 0.1, 0.7];

describe('poll phases', () => {
  let simulator: Simulator;
  beforeAll(async () => {
    simulator = await startSimulator();
  });
  afterAll(() => simulator.close());

  it('spreads the polls of pollers started together over the interval', async () => {
    const runners = (await restOracle(simulator).all<{ id: number }>('/runners/all', DEMO_TOKENS.admin)).slice(0, PHASES.length).map((runner) => runner.id);
    expect(runners).toHaveLength(PHASES.length);
    const phases = [...PHASES];
    const pollers = new RecordPollers({ restClient: new RestClient({ baseUrl: simulator.url }), intervalMs: INTERVAL_MS, pollPhase: () => phases.shift()! });
    simulator.resetRequests();
    const polls = () => simulator.requests.filter((request) => request.method === 'GET' && /^\/runners\/\d+$/.test(request.path)).map((request) => Number(request.path.split('/')[2]));
    const pollsOf = (runner: number) => polls().filter((id) => id === runner).length;
    try {
      // One after the other, so that the pollers take the phases in the runners' order.
      for (const runner of runners) await watchRunnerStatus(pollers, credential, runner);
      expect(polls()).toEqual(runners); // the baselines
      await until(() => runners.every((runner) => pollsOf(runner) >= 2), 5_000);

      const secondPolls = polls().slice(runners.length, runners.length * 2);
      const byPhase = runners.map((runner, index) => ({ runner, phase: PHASES[index]! })).sort((a, b) => b.phase - a.phase);
      expect(secondPolls).toEqual(byPhase.map(({ runner }) => runner));
    } finally {
      await pollers.close();
    }
  });
});
