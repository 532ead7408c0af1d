import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { DASHBOARD_QUERY, DASHBOARD_VARIABLES, dashboardMinimum, type DashboardData } from '../../bench/scenarios/dashboard.js';
import { FLEET_QUERY, fleetMinimum, type FleetData } from '../../bench/scenarios/runner-fleet.js';
import { WIDE_PAGE_QUERY, WIDE_PAGE_VARIABLES, widePageMinimum, type WideData } from '../../bench/scenarios/wide-page.js';
import { gatewayOverSimulator, type Harness } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

// The bench's nested-query scenarios, run once each: the REST calls they cost are deterministic, so
// they are asserted here (the bench itself measures time). The bench counts the minimum from the
// query and the data, never from the gateway; the gateway must meet it exactly with batching on.
const { admin } = DEMO_TOKENS;
// The shipped limits (MAX_REST_CALLS, MAX_REST_CALLS_MADE) are in force: realistic pages run
// unmodified at the defaults a deployment starts with (issue 16).

async function callsOf<T>(harness: Harness, query: string, variables: Record<string, unknown>) {
  harness.simulator.resetRequests();
  const result = await harness.gateway.query<T>(query, variables, admin);
  expect(result.errors).toBeUndefined();
  return { data: result.data!, calls: restCalls(harness.simulator) };
}

describe.each([
  ['batching on', true],
  ['batching off', false],
])('bench scenario queries, %s', (_label, batching) => {
  const harness = gatewayOverSimulator({ batching });

  it('dashboard: the group, its subgroups, one project page per subgroup, runners and open issues per project', async () => {
    const { data, calls } = await callsOf<DashboardData>(harness, DASHBOARD_QUERY, DASHBOARD_VARIABLES);
    const subgroups = data.group.subgroups.nodes;
    const projects = subgroups.flatMap((subgroup) => subgroup.projects.nodes);
    expect(subgroups.length).toBeGreaterThan(1);
    expect(projects.length).toBeGreaterThan(3);
    // Each list is read once: no record re-read per node, no per-person call for the assignees.
    expect(calls).toHaveLength(dashboardMinimum(data).size);
    expect(calls).toHaveLength(2 + subgroups.length + 2 * projects.length);
    expect(new Set(calls).size).toBe(calls.length);
    expect(calls.filter((call) => /^GET \/projects\/\d+\/runners$/.test(call))).toHaveLength(projects.length);
    expect(calls.filter((call) => /^GET \/projects\/\d+\/issues$/.test(call))).toHaveLength(projects.length);
    expect(calls.filter((call) => call.startsWith('GET /users'))).toEqual([]);
  });

  it('wide page: 100 issues with author and assignees in one call', async () => {
    const { data, calls } = await callsOf<WideData>(harness, WIDE_PAGE_QUERY, WIDE_PAGE_VARIABLES);
    expect(data.issues.nodes).toHaveLength(100);
    expect(data.issues.nodes.some((issue) => issue.assignees.nodes.length > 0)).toBe(true);
    expect(calls).toEqual(['GET /issues']);
    expect(calls).toHaveLength(widePageMinimum().size);
  });

  it(`runner fleet: the list, then per runner its record and last job${batching ? '' : ' (record re-read per detail field)'}`, async () => {
    const { data, calls } = await callsOf<FleetData>(harness, FLEET_QUERY, { first: 100 });
    const runners = data.runners.nodes.length;
    expect(runners).toBeGreaterThan(50);
    const detailReads = calls.filter((call) => /^GET \/runners\/\d+$/.test(call)).length;
    expect(calls.filter((call) => /^GET \/runners\/\d+\/jobs$/.test(call))).toHaveLength(runners);
    if (batching) {
      expect(calls).toHaveLength(fleetMinimum(data).size);
      expect(detailReads).toBe(runners);
    } else {
      // version, tagList and contactedAt each read GET /runners/:id again without the loader, and
      // projects too for project runners (the others have none, as in GitLab).
      const projectRunners = data.runners.nodes.filter((node) => node.projects !== null).length;
      expect(detailReads).toBe(3 * runners + projectRunners);
    }
  });
});
