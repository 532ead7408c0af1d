import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { startNaiveBff, type RunningNaiveBff } from '../../bench/lib/naive-bff/server.js';
import { DASHBOARD_QUERY, DASHBOARD_VARIABLES, type DashboardData } from '../../bench/scenarios/dashboard.js';
import { HOT_PATH_QUERY } from '../../bench/scenarios/hot-path.js';
import { FLEET_QUERY, type FleetData } from '../../bench/scenarios/runner-fleet.js';
import { WIDE_PAGE_QUERY, WIDE_PAGE_VARIABLES } from '../../bench/scenarios/wide-page.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

// The bench's naive BFF column (Apollo Server + RESTDataSource, hand-written resolvers, no
// DataLoader) must answer what the gateway answers, or its timings compare different work. Each of
// the bench's queries runs through both over HTTP on the same v4 server; the naive BFF's REST calls
// are those its design implies: one per list or record a resolver needs, identical GETs in flight
// at once sent once (RESTDataSource's deduplication), a child list only after its parent record.
const { admin } = DEMO_TOKENS;
// The gateway with the bench's raised settings: the fleet and dashboard exceed the shipped cost limit.
const harness = gatewayOverSimulator({ limits: { maxRestCalls: 1_000 } });
let naive: RunningNaiveBff;

beforeAll(async () => {
  naive = await startNaiveBff({ upstreamUrl: harness.simulator.url, connections: 64 });
});
afterAll(async () => {
  await naive?.close();
});

async function throughBoth<T>(query: string, variables: Record<string, unknown>) {
  const fromGateway = await harness.gateway.query<T>(query, variables, admin);
  expect(fromGateway.errors).toBeUndefined();
  harness.simulator.resetRequests();
  const response = await fetch(naive.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'private-token': admin },
    body: JSON.stringify({ query, variables }),
  });
  const fromNaive = (await response.json()) as { data?: T; errors?: unknown };
  expect(fromNaive.errors).toBeUndefined();
  expect(response.status).toBe(200);
  return { gateway: fromGateway.data!, naive: fromNaive.data!, calls: restCalls(harness.simulator) };
}

describe('the naive BFF answers the bench queries as the gateway does', () => {
  it('dashboard: the group, then its subgroups, then one project page per subgroup, then runners and open issues per project', async () => {
    const { gateway, naive: data, calls } = await throughBoth<DashboardData>(DASHBOARD_QUERY, DASHBOARD_VARIABLES);
    expect(data).toEqual(gateway);
    const subgroups = data.group.subgroups.nodes;
    const projects = subgroups.flatMap((subgroup) => subgroup.projects.nodes);
    expect(projects.length).toBeGreaterThan(3);
    // The same 14 calls as the gateway on the demo data; the subgroup list is asked by the group's id,
    // once the group has answered (4 dependent waves where the gateway needs 3).
    expect(calls).toHaveLength(2 + subgroups.length + 2 * projects.length);
    expect(calls.slice(0, 2)).toEqual(['GET /groups/gitlab-org', 'GET /groups/1/subgroups']);
  });

  it('runner fleet: the list, then per runner one detail record (four fields, deduplicated in flight) and one job page', async () => {
    const { gateway, naive: data, calls } = await throughBoth<FleetData>(FLEET_QUERY, { first: 100 });
    expect(data).toEqual(gateway);
    const runners = data.runners.nodes.length;
    expect(runners).toBeGreaterThan(50);
    expect(calls).toHaveLength(1 + 2 * runners);
    expect(calls.filter((call) => /^GET \/runners\/\d+$/.test(call))).toHaveLength(runners);
  });

  it('wide page: one page of issues; the people are embedded in it', async () => {
    const { gateway, naive: data, calls } = await throughBoth(WIDE_PAGE_QUERY, WIDE_PAGE_VARIABLES);
    expect(data).toEqual(gateway);
    expect(calls).toEqual(['GET /issues']);
  });

  it('hot path: one runner record', async () => {
    const { gateway, naive: data, calls } = await throughBoth(HOT_PATH_QUERY, { id: 'gid://gitlab/Ci::Runner/4' });
    expect(data).toEqual(gateway);
    expect(calls).toEqual(['GET /runners/4']);
  });
});
