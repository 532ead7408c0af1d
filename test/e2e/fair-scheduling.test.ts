import { describe, expect, it } from 'vitest';
import type { TrafficEvent } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';

// Issue 16: the REST calls of all operations share the upstream pool through a work-conserving fair
// scheduler. Shown by counting, from the embedded server's log of arrivals and answers, how many
// calls each operation had in flight at every moment; no clock is read.

/** More than the fixed per-operation cap of 16 the gateway had before, so an operation alone shows it is gone. */
const CONNECTIONS = 20;
const admin = 'glpat-demo-admin';
/** 1 call for the page and 1 per runner for its detail field: 41 calls. */
const WIDE_PAGE = '{ runners(first: 40) { nodes { id tagList } } }';

interface Moment {
  event: TrafficEvent;
  /** Calls in flight per operation (by X-Request-Id) after this event. */
  byOperation: Map<string, number>;
  total: number;
  /** Arrivals so far, this one included. */
  arrivals: number;
}

function inFlightOverTime(traffic: readonly TrafficEvent[]): Moment[] {
  const byOperation = new Map<string, number>();
  let total = 0;
  let arrivals = 0;
  return traffic.map((event) => {
    const id = event.requestId ?? '';
    const change = event.event === 'arrived' ? 1 : -1;
    if (change > 0) arrivals += 1;
    byOperation.set(id, (byOperation.get(id) ?? 0) + change);
    total += change;
    return { event, byOperation: new Map(byOperation), total, arrivals };
  });
}

describe('REST calls scheduled fairly across operations', () => {
  const harness = gatewayOverSimulator({ upstreamConnections: CONNECTIONS });

  async function ask(query: string, requestId: string): Promise<{ errors?: unknown[]; data?: unknown }> {
    const response = await fetch(harness.gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'private-token': admin, 'x-request-id': requestId },
      body: JSON.stringify({ query }),
    });
    return (await response.json()) as { errors?: unknown[]; data?: unknown };
  }

  it('lets an operation alone use every connection, with no per-operation cap below it', async () => {
    // Long enough that the page's 20 detail calls are all sent before the first is answered, even
    // on a machine the other test files load (with 20 ms, a loaded run saw 7 to 18 at once).
    harness.simulator.setLatency(200);
    try {
      const result = await ask(WIDE_PAGE, 'alone');
      expect(result.errors).toBeUndefined();
      const timeline = inFlightOverTime(harness.simulator.traffic);
      expect(timeline.filter((moment) => moment.event.event === 'arrived')).toHaveLength(41);
      expect(Math.max(...timeline.map((moment) => moment.byOperation.get('alone') ?? 0))).toBe(CONNECTIONS);
      expect(Math.max(...timeline.map((moment) => moment.total))).toBe(CONNECTIONS);
    } finally {
      harness.simulator.setLatency(0);
    }
  });

  it('gives two wide pages an equal share of the connections while both are waiting', async () => {
    harness.simulator.setLatency(20);
    try {
      const [first, second] = await Promise.all([ask(WIDE_PAGE, 'first'), ask(WIDE_PAGE, 'second')]);
      expect(first.errors).toBeUndefined();
      expect(second.errors).toBeUndefined();
      const timeline = inFlightOverTime(harness.simulator.traffic);
      expect(Math.max(...timeline.map((moment) => moment.total))).toBeLessThanOrEqual(CONNECTIONS);
      // While both pages still have detail calls to send (from when the first freed slots changed
      // hands to the last arrival of the page that finished sending first), neither holds more than
      // its half plus the one slot that is changing hands.
      const arrivals = harness.simulator.traffic.filter((event) => event.event === 'arrived');
      const lastArrivalOf = (id: string) => arrivals.findLastIndex((event) => event.requestId === id) + 1;
      const bothWaitingUntil = Math.min(lastArrivalOf('first'), lastArrivalOf('second'));
      const shared = timeline.filter((moment) => moment.arrivals > 2 * CONNECTIONS && moment.arrivals <= bothWaitingUntil);
      expect(shared.length).toBeGreaterThan(10);
      for (const moment of shared) {
        expect(moment.byOperation.get('first') ?? 0).toBeLessThanOrEqual(CONNECTIONS / 2 + 1);
        expect(moment.byOperation.get('second') ?? 0).toBeLessThanOrEqual(CONNECTIONS / 2 + 1);
      }
    } finally {
      harness.simulator.setLatency(0);
    }
  });

  it('does not let a wide page starve a small query started after it', async () => {
    harness.simulator.setLatency(20);
    try {
      const wide = ask(WIDE_PAGE, 'wide');
      // Wait until the wide page holds every connection and has its detail calls queued.
      while (harness.simulator.traffic.filter((event) => event.event === 'arrived' && event.requestId === 'wide').length < CONNECTIONS) {
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      const wideBefore = harness.simulator.traffic.filter((event) => event.event === 'arrived' && event.requestId === 'wide').length;
      const small = await ask('{ runner(id: "gid://gitlab/Ci::Runner/1") { id } }', 'small');
      expect(small.errors).toBeUndefined();
      await wide;
      const arrivals = harness.simulator.traffic.filter((event) => event.event === 'arrived');
      const smallAt = arrivals.findIndex((event) => event.requestId === 'small');
      const wideBeforeSmall = arrivals.slice(0, smallAt).filter((event) => event.requestId === 'wide').length;
      // The small query's call goes out at the next freed slot: a pool queue in arrival order would
      // have sent the wide page's other 20 calls first.
      expect(wideBeforeSmall - wideBefore).toBeLessThanOrEqual(2);
      expect(arrivals.filter((event) => event.requestId === 'wide')).toHaveLength(41);
    } finally {
      harness.simulator.setLatency(0);
    }
  });
});
