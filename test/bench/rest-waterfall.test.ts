import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { startRestWaterfall, type RunningRestWaterfall } from '../../bench/lib/rest-waterfall-server.js';
import { DASHBOARD_QUERY, DASHBOARD_VARIABLES, fromGateway, type DashboardData } from '../../bench/scenarios/dashboard.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

// The bench's REST waterfall server stands for the least a server process can do for a page: it
// must serve the page the gateway serves, with the REST client's calls (the same 14 on the demo
// data), level by level, and nothing else. Started in the test's process here, over real HTTP.
const { admin } = DEMO_TOKENS;
// The gateway with the bench's raised settings: the dashboard exceeds the shipped cost limit.
const harness = gatewayOverSimulator({ limits: { maxRestCalls: 1_000 } });
let waterfall: RunningRestWaterfall;

beforeAll(async () => {
  const dashboardModule = new URL('../../bench/scenarios/dashboard.ts', import.meta.url).href;
  waterfall = await startRestWaterfall({
    upstreamUrl: harness.simulator.url,
    connections: 16,
    baseline: { module: dashboardModule, name: 'dashboardOverRest', args: null },
  });
});
afterAll(async () => {
  await waterfall?.close();
});

async function page(): Promise<{ status: number; body: { data?: unknown; errors?: Array<{ message: string }> } }> {
  const response = await fetch(waterfall.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  return { status: response.status, body: (await response.json()) as { data?: unknown; errors?: Array<{ message: string }> } };
}

describe("the REST waterfall server serves a scenario's REST baseline over HTTP", () => {
  it('dashboard: the page the gateway serves, from the REST client calls, one dependent level after another', async () => {
    const fromGraphql = await harness.gateway.query<DashboardData>(DASHBOARD_QUERY, DASHBOARD_VARIABLES, admin);
    expect(fromGraphql.errors).toBeUndefined();
    const gatewayCalls = restCalls(harness.simulator).length;
    harness.simulator.resetRequests();

    const { status, body } = await page();
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual(fromGateway(fromGraphql.data!));

    const calls = restCalls(harness.simulator);
    expect(calls).toHaveLength(gatewayCalls);
    const projects = fromGateway(fromGraphql.data!).length;
    // Level 1: the group and its subgroup list, at once; level 3: two lists per project.
    expect(calls.slice(0, 2).sort()).toEqual(['GET /groups/gitlab-org', 'GET /groups/gitlab-org/subgroups']);
    expect(calls.filter((call) => /^GET \/projects\/\d+\/(runners|issues)$/.test(call))).toHaveLength(2 * projects);
  });

  it('an upstream failure is a 502 with the reason, not a hang', async () => {
    const fault = harness.simulator.faults.add({ method: 'GET', path: '/groups/gitlab-org/subgroups', kind: 'status', status: 503 });
    try {
      const { status, body } = await page();
      expect(status).toBe(502);
      expect(body.errors?.[0]?.message).toMatch(/answered 503/);
    } finally {
      harness.simulator.faults.remove(fault);
    }
  });
});
