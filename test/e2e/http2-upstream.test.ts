import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ARTIFACTS_DEMO_PROJECT_ID, DEMO_TOKENS, startSimulator, type Simulator, type TrafficEvent } from '../../simulator/index.js';
import type { LogFields } from '../../src/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

// Issue 16: over an https upstream that offers HTTP/2, the REST client multiplexes a wave of calls
// on one connection, and the fair scheduler lets the wave have more calls in flight than there are
// connections; over HTTP/1.1 each connection carries one call, as before. Shown by counting, from
// the embedded server's traffic log (HTTP version and connection of every request, arrivals and
// answers in order), never by timing.

const CONNECTIONS = 4;
const { admin, developer } = DEMO_TOKENS;
/** 1 call for the page, then a wave of 1 call per runner for its detail field: 41 calls. */
const WIDE_PAGE = '{ runners(first: 40) { nodes { id tagList } } }';
const ONE_RUNNER = '{ runner(id: "gid://gitlab/Ci::Runner/1") { id } }';

async function ask(
  gateway: TestGateway,
  query: string,
  requestId: string,
  token = admin,
): Promise<{ status: number; body: { errors?: Array<{ extensions?: Record<string, unknown> }>; data?: unknown } }> {
  const response = await fetch(gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'private-token': token, 'x-request-id': requestId },
    body: JSON.stringify({ query }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { errors?: Array<{ extensions?: Record<string, unknown> }>; data?: unknown },
  };
}

/** The most calls of `requestId` in flight at once, from arrivals and answers in the order they happened. */
function mostInFlight(traffic: readonly TrafficEvent[], requestId: string): number {
  let inFlight = 0;
  let most = 0;
  for (const event of traffic) {
    if (event.requestId !== requestId) continue;
    inFlight += event.event === 'arrived' ? 1 : -1;
    most = Math.max(most, inFlight);
  }
  return most;
}

const arrivalsOf = (traffic: readonly TrafficEvent[], requestId: string) =>
  traffic.filter((event) => event.event === 'arrived' && event.requestId === requestId);

/** The embedded server, and a gateway with `CONNECTIONS` upstream connections in front of it. */
function upstreamAndGateway(tls: boolean): { simulator: Simulator; gateway: TestGateway } {
  const pair = {} as { simulator: Simulator; gateway: TestGateway };
  beforeAll(async () => {
    pair.simulator = await startSimulator({ tls });
    pair.gateway = await startTestGateway(pair.simulator.url, {
      upstreamConnections: CONNECTIONS,
      ...(tls ? { upstreamCa: pair.simulator.ca! } : {}),
    });
    // The first call opens a connection and tells the client the protocol; the tests count what follows.
    expect((await ask(pair.gateway, ONE_RUNNER, 'warm-up')).body.errors).toBeUndefined();
  });
  afterAll(async () => {
    await pair.gateway?.close();
    await pair.simulator?.close();
  });
  beforeEach(() => pair.simulator.resetRequests());
  return pair;
}

describe('an upstream that speaks HTTP/2 over TLS', () => {
  const upstream = upstreamAndGateway(true);

  it('serves a page with a detail field, a mutation and an artifact download, every call over HTTP/2', async () => {
    const page = await ask(upstream.gateway, WIDE_PAGE, 'page');
    expect(page.body.errors).toBeUndefined();
    expect((page.body.data as { runners: { nodes: unknown[] } }).runners.nodes).toHaveLength(40);

    const mutation = await ask(
      upstream.gateway,
      'mutation { runnerUpdate(input: { id: "gid://gitlab/Ci::Runner/1", description: "over h2" }) { errors runner { description } } }',
      'mutation',
    );
    expect(mutation.body).toEqual({ data: { runnerUpdate: { errors: [], runner: { description: 'over h2' } } } });

    const job = [...upstream.simulator.state.jobs.values()].find(
      (candidate) => candidate.projectId === ARTIFACTS_DEMO_PROJECT_ID && candidate.name === 'build-docs',
    )!;
    const readme = upstream.simulator.state.jobArtifacts.get(job.id)!.files.find((file) => file.path === 'notes/readme.txt')!;
    const download = await fetch(
      upstream.gateway.url.replace(/\/graphql$/, `/artifacts/projects/1/jobs/${job.id}/artifacts/notes/readme.txt`),
      {
        headers: { 'private-token': developer, 'x-request-id': 'download' },
      },
    );
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(Buffer.from(readme.bytes));

    const traffic = upstream.simulator.traffic;
    expect(arrivalsOf(traffic, 'page')).toHaveLength(41);
    expect(arrivalsOf(traffic, 'mutation').map((event) => event.method)).toContain('PUT');
    expect(arrivalsOf(traffic, 'download')).toHaveLength(1);
    expect(new Set(traffic.map((event) => event.httpVersion))).toEqual(new Set(['2.0']));
  });

  it('sends a wave over one connection, with more calls in flight than there are connections', async () => {
    upstream.simulator.setLatency(20);
    try {
      const page = await ask(upstream.gateway, WIDE_PAGE, 'wave');
      expect(page.body.errors).toBeUndefined();
    } finally {
      upstream.simulator.setLatency(0);
    }
    const arrivals = arrivalsOf(upstream.simulator.traffic, 'wave');
    expect(arrivals).toHaveLength(41);
    expect(new Set(arrivals.map((event) => event.connection)).size).toBe(1);
    expect(mostInFlight(upstream.simulator.traffic, 'wave')).toBeGreaterThan(CONNECTIONS);
  });

  it('starts the calls that waited while the protocol was unknown as soon as the first connection says h2', async () => {
    const cold = await startTestGateway(upstream.simulator.url, { upstreamConnections: CONNECTIONS, upstreamCa: upstream.simulator.ca! });
    const eightRunners = `{ ${[1, 2, 3, 4, 5, 6, 7, 8].map((id) => `r${id}: runner(id: "gid://gitlab/Ci::Runner/${id}") { id }`).join(' ')} }`;
    // Long enough that the eight sends never race the first answer on a busy 2-core machine
    // (at 20 ms one run in four saw an answer before the eighth arrival).
    upstream.simulator.setLatency(200);
    try {
      expect((await ask(cold, eightRunners, 'cold')).body.errors).toBeUndefined();
    } finally {
      upstream.simulator.setLatency(0);
      await cold.close();
    }
    // Over HTTP/1.1 four would have waited for one of the first four to end: here they all went
    // out before any answer came, on the word of the first connection.
    const traffic = upstream.simulator.traffic.filter((event) => event.requestId === 'cold');
    expect(traffic.filter((event) => event.event === 'arrived')).toHaveLength(8);
    expect(traffic.findIndex((event) => event.event === 'answered')).toBe(8);
  });

  it('is refused by a gateway that does not trust its certificate: UPSTREAM_UNAVAILABLE, HTTP 200, and no retry', async () => {
    const warned: LogFields[] = [];
    const untrusting = await startTestGateway(upstream.simulator.url, {
      logger: { error: () => undefined, warn: (fields) => warned.push(fields) },
    });
    try {
      const refused = await ask(untrusting, ONE_RUNNER, 'untrusted');
      expect(refused.status).toBe(200);
      expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', restStatus: 0 });
      // One attempt: a certificate refused in the handshake is no passing fault a retry would heal.
      expect(warned).toEqual([expect.objectContaining({ requestId: 'untrusted', kind: 'connection' })]);
      expect(arrivalsOf(upstream.simulator.traffic, 'untrusted')).toHaveLength(0);
    } finally {
      await untrusting.close();
    }
  });
});

describe('an upstream that speaks HTTP/1.1', () => {
  const upstream = upstreamAndGateway(false);

  it('spreads the same wave over every connection, one call on each at a time', async () => {
    upstream.simulator.setLatency(20);
    try {
      const page = await ask(upstream.gateway, WIDE_PAGE, 'wave');
      expect(page.body.errors).toBeUndefined();
    } finally {
      upstream.simulator.setLatency(0);
    }
    const arrivals = arrivalsOf(upstream.simulator.traffic, 'wave');
    expect(arrivals).toHaveLength(41);
    expect(new Set(arrivals.map((event) => event.connection)).size).toBe(CONNECTIONS);
    expect(new Set(arrivals.map((event) => event.httpVersion))).toEqual(new Set(['1.1']));
    expect(mostInFlight(upstream.simulator.traffic, 'wave')).toBe(CONNECTIONS);
  });
});
