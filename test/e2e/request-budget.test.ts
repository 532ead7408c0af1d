import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/** An upstream that answers runner look-ups slowly and remembers how many it served at once. */
async function slowUpstream(delayFor: (url: string) => number) {
  let inFlight = 0;
  const stats = { maxInFlight: 0, requests: 0 };
  const server: Server = createServer((req, res) => {
    inFlight += 1;
    stats.requests += 1;
    stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
    const id = Number(/\/runners\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
    const body = req.url?.includes('/jobs') ? [] : { id, status: 'online', active: true, paused: false, description: `runner ${id}` };
    setTimeout(() => {
      inFlight -= 1;
      res.writeHead(200, { 'content-type': 'application/json', 'x-next-page': '', 'x-total': '0' });
      res.end(JSON.stringify(body));
    }, delayFor(req.url ?? ''));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v4`,
    stats,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('what one operation may ask of REST', () => {
  let upstream: Awaited<ReturnType<typeof slowUpstream>>;
  let capped: TestGateway;
  let hurried: TestGateway;

  beforeAll(async () => {
    upstream = await slowUpstream((url) => (url.includes('/jobs') ? 1_000 : 150));
    capped = await startTestGateway(upstream.url, { maxConcurrentRestCalls: 3 });
    hurried = await startTestGateway(upstream.url, { requestDeadlineMs: 400 });
  });

  afterAll(async () => {
    await capped?.close();
    await hurried?.close();
    await upstream?.close();
  });

  it('has at most the configured number of REST calls in flight, and still answers everything', async () => {
    upstream.stats.maxInFlight = 0;
    const ids = Array.from({ length: 8 }, (_, index) => `"gid://gitlab/Ci::Runner/${index + 1}"`).join(', ');
    const result = await capped.query<{ nodes: Array<{ id: string }> }>(`{ nodes(ids: [${ids}]) { id } }`, {}, 'glpat-caller');
    expect(result.errors).toBeUndefined();
    expect(result.data?.nodes).toHaveLength(8);
    expect(upstream.stats.maxInFlight).toBe(3);
  });

  it('gives up on REST calls that would end after the deadline, keeping what arrived in time', async () => {
    // The runners arrive at ~150 ms; the jobs would take until ~1,150 ms, past the 400 ms deadline.
    const started = Date.now();
    const result = await hurried.query<{ a: { id: string; jobs: unknown } | null; b: { id: string } | null }>(
      `{ a: runner(id: "gid://gitlab/Ci::Runner/1") { id jobs { nodes { id } } }
         b: runner(id: "gid://gitlab/Ci::Runner/2") { id } }`,
      {},
      'glpat-caller',
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(result.data?.b).toEqual({ id: 'gid://gitlab/Ci::Runner/2' });
    expect(result.errors?.[0]).toMatchObject({ path: ['a', 'jobs'], extensions: { code: 'UPSTREAM_UNAVAILABLE', restStatus: 0 } });
    expect(result.errors?.[0]?.message).toContain('deadline');
  });
});
