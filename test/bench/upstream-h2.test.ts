import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from 'undici';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { runLoop } from '../../bench/lib/driver/load.js';
import { startNaiveBff, type RunningNaiveBff } from '../../bench/lib/naive-bff/server.js';
import { startPassThrough, type PassThrough } from '../../bench/lib/pass-through.js';
import { RestBaseline, type DriverTools } from '../../bench/lib/rest-baseline.js';
import { upstreamPool, type UpstreamTls } from '../../bench/lib/upstream.js';
import { DASHBOARD_QUERY, DASHBOARD_VARIABLES, dashboardOverRest, fromGateway, type DashboardData } from '../../bench/scenarios/dashboard.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

// `npm run bench -- --upstream-h2`: every column reaches the v4 server over HTTP/2 with TLS. One
// bench query through each column's own wiring (the gateway with `upstreamCa`, the REST client's,
// the naive BFF's and the pass-through's pools, the driver's load loop) must answer the same data,
// and the v4 server's traffic log must show every call over HTTP/2.0, a wave of calls sharing few
// connections. Counted, never timed.
const { admin } = DEMO_TOKENS;
const CONNECTIONS = 2;

let simulator: Simulator;
let tls: UpstreamTls;
let gateway: TestGateway;
let restPool: Pool;
let naive: RunningNaiveBff;
let passThrough: PassThrough;

beforeAll(async () => {
  simulator = await startSimulator({ tls: true });
  tls = { origin: simulator.origin, ca: simulator.ca! };
  gateway = await startTestGateway(simulator.url, { upstreamConnections: CONNECTIONS, upstreamCa: simulator.ca! });
  restPool = upstreamPool(simulator.origin, { connections: CONNECTIONS }, tls);
  naive = await startNaiveBff({ upstreamUrl: simulator.url, connections: CONNECTIONS, ca: simulator.ca! });
  passThrough = await startPassThrough(simulator.url, CONNECTIONS, simulator.ca);
});
afterAll(async () => {
  await gateway?.close();
  await naive?.close();
  await passThrough?.close();
  await restPool?.close();
  await simulator?.close();
});

/** The HTTP versions of the calls since the last reset, and the connections they came over. */
function protocols(): { versions: string[]; connections: number; calls: number } {
  const arrived = simulator.traffic.filter((event) => event.event === 'arrived');
  return {
    versions: [...new Set(arrived.map((event) => event.httpVersion))],
    connections: new Set(arrived.map((event) => event.connection)).size,
    calls: arrived.length,
  };
}

async function postGraphql<T>(url: string): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'private-token': admin },
    body: JSON.stringify({ query: DASHBOARD_QUERY, variables: DASHBOARD_VARIABLES }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data!;
}

describe('--upstream-h2: the dashboard over HTTP/2 through every column', () => {
  let expected: ReturnType<typeof fromGateway>;

  it('the REST client, over its h2 pool: 14 calls, all HTTP/2 on at most its connections', async () => {
    simulator.resetRequests();
    const tools: DriverTools = { rest: (token) => new RestBaseline(simulator.url, token, restPool) };
    expected = await dashboardOverRest(tools);
    expect(expected.length).toBeGreaterThan(3);
    const seen = protocols();
    expect(seen.versions).toEqual(['2.0']);
    expect(seen.calls).toBe(14);
    expect(seen.connections).toBeLessThanOrEqual(CONNECTIONS);
  });

  it('the gateway, with upstreamCa: the same data, all HTTP/2', async () => {
    simulator.resetRequests();
    const data = await postGraphql<DashboardData>(gateway.url);
    expect(fromGateway(data)).toEqual(expected);
    expect(protocols().versions).toEqual(['2.0']);
  });

  it("the naive BFF, through undici's fetch over its h2 pool: the same data, all HTTP/2", async () => {
    simulator.resetRequests();
    const data = await postGraphql<DashboardData>(naive.url);
    expect(fromGateway(data)).toEqual(expected);
    const seen = protocols();
    expect(seen.versions).toEqual(['2.0']);
    expect(seen.connections).toBeLessThanOrEqual(CONNECTIONS);
  });

  it("the pass-through and the driver's load loop straight to the v4 server: the same record, all HTTP/2", async () => {
    const tools: DriverTools = { rest: () => new RestBaseline(simulator.url, admin, restPool) };
    const options = { concurrency: 4, maxOps: 8, maxMs: 10_000 };
    simulator.resetRequests();
    const direct = await runLoop({ kind: 'get', baseUrl: simulator.url, token: admin, paths: ['/runners/4'] }, options, tools, tls);
    const through = await runLoop({ kind: 'get', baseUrl: passThrough.url, token: admin, paths: ['/runners/4'] }, options, tools, tls);
    expect([direct.failures, through.failures]).toEqual([0, 0]);
    expect(through.sample).toEqual(direct.sample);
    expect((direct.sample as { id: number }).id).toBe(4);
    const seen = protocols();
    expect(seen.versions).toEqual(['2.0']);
    expect(seen.calls).toBe(16);
  });
});
