// Issue 27, item 6: subscription events had no REST budget. A long-lived context was given an
// unlimited one, so a field that follows an upstream announcing page after page made 1,500 REST
// calls for one event (over HTTP the same field stops at the budget with LIMIT_EXCEEDED). Each
// event of a subscription is now held to the budget of calls made an HTTP operation has, counted
// from the start of that event: the fields past it fail, the rest of the event stands, and the
// next event has a budget of its own.
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { connect } from '../support/runner-watch.js';
import { until } from '../support/wait.js';

const token = DEMO_TOKENS.admin;
const BUDGET = 4;
// Runner 1's ten latest jobs belong to nine projects, and a project's visibility is not embedded
// in the job: one call for the jobs, then one per project, ten in all for each event.
const RUNNER = 1;
const gid = `gid://gitlab/Ci::Runner/${RUNNER}`;
const WITH_PROJECTS = `subscription($id: CiRunnerID!) { ciRunnerStatusUpdated(runnerId: $id) { id paused jobs(first: 10) { nodes { id project { visibility } } } } }`;

interface RunnerEvent {
  data?: { ciRunnerStatusUpdated: { paused: boolean; jobs: { nodes: Array<{ project: { visibility: string | null } | null }> } | null } } | null;
  errors?: Array<{ path?: Array<string | number>; extensions?: Record<string, unknown> }>;
}

describe('the REST budget of a subscription event', () => {
  const harness = gatewayOverSimulator({ runnerPollIntervalMs: 50, limits: { maxRestCallsMade: BUDGET } });

  it('holds each event to the budget an HTTP operation has, and starts it again for the next event', async () => {
    const { gateway, simulator } = harness;
    const client = connect(gateway, { 'PRIVATE-TOKEN': token });
    const events: RunnerEvent[] = [];
    const dispose = client.subscribe<RunnerEvent['data']>({ query: WITH_PROJECTS, variables: { id: gid } }, { next: (event) => void events.push(event as RunnerEvent), error: () => undefined, complete: () => undefined });
    try {
      await until(() => gateway.gateway.pollers.activeSubscriptions === 1);
      const eventCalls: number[] = [];
      for (const paused of [true, false]) {
        simulator.resetRequests();
        const seen = events.length;
        const flipped = await gateway.query(`mutation { runnerUpdate(input: { id: "${gid}", paused: ${paused} }) { runner { paused } } }`, {}, token);
        expect(flipped.errors).toBeUndefined();
        await until(() => events.length > seen);
        // The event's own calls: its jobs page and the projects, not the poll of the runner or the mutation's.
        eventCalls.push(simulator.requests.filter((request) => request.method === 'GET' && (request.path === `/runners/${RUNNER}/jobs` || request.path.startsWith('/projects/'))).length);
      }
      expect(eventCalls).toEqual([BUDGET, BUDGET]);
      for (const event of events) {
        const runner = event.data?.ciRunnerStatusUpdated;
        const jobs = runner?.jobs?.nodes ?? [];
        expect(jobs).toHaveLength(10);
        // One call for the jobs, the three others for three projects (a project may have several of
        // the jobs); the visibility of the others fails, one error for each of their jobs.
        const read = jobs.filter((job) => job.project?.visibility != null).length;
        expect(read).toBeGreaterThanOrEqual(BUDGET - 1);
        expect(event.errors).toHaveLength(jobs.length - read);
        for (const error of event.errors ?? []) {
          expect(error.path?.at(-1)).toBe('visibility');
          expect(error.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'calls', maxRestCallsMade: BUDGET });
        }
      }
      expect(events.map((event) => event.data?.ciRunnerStatusUpdated.paused)).toEqual([true, false]);
      dispose();
    } finally {
      await client.dispose();
    }
  });
});
