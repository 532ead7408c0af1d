import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateGateway, scenarioContext } from '../../bench/lib/context.js';
import { startDriver, type Driver } from '../../bench/lib/driver/handle.js';
import type { SimulatorInfo } from '../../bench/lib/driver/protocol.js';
import { benchDefaults, type BenchOptions, type ScenarioReport } from '../../bench/lib/scenario.js';
import { subscriptions } from '../../bench/scenarios/subscriptions.js';

// `npm run bench -- --scenario subscriptions --replicas 3`, small: a few hundred subscribers over 5
// runners on three gateway processes that share one redis-server, over the driver's embedded v4
// server, as the bench runs it (the gateway from src/ through tsx). Counted, never timed: the v4
// server sees about one poll per runner and interval, not three; each replica's /metrics says which
// runners it polls, and together they poll each once; every subscriber gets both changes; and the
// replicas and Redis are gone once the scenario's context is closed.
const REPLICAS = 3;
const RUNNERS = 5;
const SUBSCRIBERS = 300;
const INTERVAL_MS = 250;

interface Details {
  subscribers: number;
  runners: number;
  replicas: Array<{
    name: string;
    pid: number;
    pollsPerInterval: number;
    runnersPolled: number;
    runnersWatched: number;
    subscriptions: number;
  }>;
  redis: { url: string; pid: number };
  polls: { count: number; windowMs: number; runnersPolled: number; mostForOneRunner: number; maxAllowed: number };
  delivery: { count: number; missing: number; rounds: Array<{ runners: number; missing: number; delayMs: { count: number } }> };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

let driver: Driver;
let simulator: SimulatorInfo;

beforeAll(async () => {
  driver = await startDriver();
  simulator = await driver.call('startSimulator', { latencyMs: 0, fleetSize: RUNNERS, restConnections: 8, compiled: false, tls: false });
}, 60_000);
afterAll(async () => {
  await driver?.stop();
});

describe('the subscriptions scenario over three replicas sharing one Redis', () => {
  let report: ScenarioReport;
  let details: Details;

  beforeAll(async () => {
    const options: BenchOptions = {
      ...benchDefaults(false),
      latencyMs: 0,
      subscribers: SUBSCRIBERS,
      subscribedRunners: RUNNERS,
      wsConnections: 12,
      subscribeBatch: 100,
      pollIntervalMs: INTERVAL_MS,
      replicas: REPLICAS,
      upstreamConnections: 8,
    };
    const { context, close } = scenarioContext({ options, driver, simulator, progress: () => {} }, locateGateway(true));
    try {
      report = await subscriptions.run(context);
    } finally {
      await close();
    }
    details = report.details as unknown as Details;
  }, 120_000);

  it('finishes without a failure, every subscription active on its replica', () => {
    expect(report.failures).toEqual([]);
    expect(details.replicas.map((replica) => replica.name)).toEqual(['replica 1', 'replica 2', 'replica 3']);
    expect(details.replicas.reduce((total, replica) => total + replica.subscriptions, 0)).toBe(SUBSCRIBERS);
    // Every runner is watched on every replica: each replica competes for every lease.
    for (const replica of details.replicas) expect(replica.runnersWatched).toBe(RUNNERS);
  });

  it('polls each watched runner once per interval across the replicas, not once per replica', () => {
    const { polls } = details;
    expect(polls.runnersPolled).toBe(RUNNERS);
    // One poller per runner makes at most one poll per elapsed interval (+1); three would make about three times as many.
    expect(polls.mostForOneRunner).toBeLessThanOrEqual(polls.maxAllowed);
    expect(polls.count).toBeLessThanOrEqual(RUNNERS * polls.maxAllowed);
    // Each replica's /metrics: the leases it holds, one holder per runner in all.
    expect(details.replicas.reduce((total, replica) => total + replica.runnersPolled, 0)).toBe(RUNNERS);
    const pollsRow = report.rows.find((row) => row.metric === 'REST polls / interval');
    expect(pollsRow?.budget?.pass).toBe(true);
    expect(report.rows.filter((row) => row.metric.endsWith('runners polled')).map((row) => row.gateway)).toEqual(
      details.replicas.map((replica) => replica.runnersPolled),
    );
  });

  it('tells every subscriber on every replica about both changes', () => {
    expect(details.delivery.missing).toBe(0);
    expect(details.delivery.rounds).toHaveLength(2);
    for (const round of details.delivery.rounds) {
      expect(round).toMatchObject({ runners: RUNNERS, missing: 0 });
      expect(round.delayMs.count).toBe(SUBSCRIBERS);
    }
  });

  it('leaves no replica process and no redis-server behind', () => {
    const pids = [...details.replicas.map((replica) => replica.pid), details.redis.pid];
    expect(pids.every((pid) => Number.isInteger(pid))).toBe(true);
    expect(pids.filter(alive)).toEqual([]);
  });
});
