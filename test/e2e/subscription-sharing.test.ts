// Subscriptions that are the same (document, operation, variables) and watch the same runner as the
// same credential receive the same event object from their poller, and execute it once
// (src/transport/shared-subscribe.ts): a field that needs a REST call of its own, a runner's
// `jobs`, is fetched once per change, not once per subscriber. Different documents execute apart.
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { connect } from '../support/runner-watch.js';
import { until } from '../support/wait.js';

const token = DEMO_TOKENS.admin;
const gid = (id: number) => `gid://gitlab/Ci::Runner/${id}`;
const WITH_JOBS = (first: number) => `subscription($id: CiRunnerID!) { ciRunnerStatusUpdated(runnerId: $id) { id paused jobs(first: ${first}) { nodes { id } } } }`;

describe('subscriptions that are the same', () => {
  const harness = gatewayOverSimulator({ runnerPollIntervalMs: 50 });

  it('execute each change once, and different documents apart', async () => {
    const { gateway, simulator } = harness;
    const [runner] = await harness.oracle.all<{ id: number; paused: boolean }>('/runners/all?per_page=1', token);
    const runnerId = runner!.id;
    const client = connect(gateway, { 'PRIVATE-TOKEN': token });
    const received: Array<{ query: string; paused: boolean; jobs: number }> = [];
    const subscribe = (query: string) =>
      client.subscribe<{ ciRunnerStatusUpdated: { paused: boolean; jobs: { nodes: unknown[] } } }>(
        { query, variables: { id: gid(runnerId) } },
        {
          next: ({ data }) => received.push({ query, paused: data!.ciRunnerStatusUpdated.paused, jobs: data!.ciRunnerStatusUpdated.jobs.nodes.length }),
          error: () => undefined,
          complete: () => undefined,
        },
      );
    try {
      const disposers = [...Array.from({ length: 20 }, () => subscribe(WITH_JOBS(1))), subscribe(WITH_JOBS(2))];
      await until(() => gateway.gateway.pollers.activeSubscriptions === 21);
      simulator.resetRequests();

      const flipped = await gateway.query(`mutation { runnerUpdate(input: { id: "${gid(runnerId)}", paused: ${!runner!.paused} }) { runner { paused } } }`, {}, token);
      expect(flipped.errors).toBeUndefined();
      await until(() => received.length === 21);

      expect(received.every((event) => event.paused === !runner!.paused)).toBe(true);
      const jobCalls = simulator.requests.filter((request) => request.method === 'GET' && request.path === `/runners/${runnerId}/jobs`);
      // One for the 20 alike, one for the other document.
      expect(jobCalls.map((request) => request.query['per_page'])).toEqual(expect.arrayContaining(['1', '2']));
      expect(jobCalls).toHaveLength(2);
      disposers.forEach((dispose) => dispose());
    } finally {
      await client.dispose();
    }
  });
});
