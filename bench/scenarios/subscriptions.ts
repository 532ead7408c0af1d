// Scenario "subscriptions": N subscribers of ciRunnerStatusUpdated over M runners on one gateway,
// sharing a few WebSocket connections; with --replicas, on several gateway processes that share one
// Redis. Measures the REST polls per interval (one per runner, however many subscribers and
// replicas), the gateways' memory per subscription, and the time from a status change in REST to
// the last subscriber's message.
import { randomBytes } from 'node:crypto';
import { DEMO_TOKENS } from '../../simulator/index.js';
import type { ChangeRound } from '../lib/driver/protocol.js';
import { allOf, measureServer, sleep, type MemorySnapshot, type Meter } from '../lib/measure.js';
import { sampleSum, scrapeMetrics } from '../lib/metrics.js';
import { emptyReport, type Row, type Scenario, type ScenarioContext, type ScenarioReport } from '../lib/scenario.js';
import { summarize } from '../lib/stats.js';

const TOKEN = DEMO_TOKENS.admin;
const SUBSCRIPTION = 'subscription RunnerStatus($id: CiRunnerID!) { ciRunnerStatusUpdated(runnerId: $id) { id status paused } }';
const MEMORY_BUDGET_KB = 20;
const DELIVERY_SLACK_MS = 100;
/**
 * With --replicas, a change reaches most subscribers through Redis from the replica that polled:
 * one more hop, so issue 17 allows interval + 150 ms.
 */
const REPLICATED_DELIVERY_SLACK_MS = 150;
/** Time allowed for every subscription to become active. */
const SUBSCRIBE_LIMIT_MS = 120_000;
/** The endpoint label of a runner poll in gateway_rest_calls_total. */
const POLL_ENDPOINT = 'GET /runners/:id';

/** One gateway under test, in a server process of its own: the only one, or one of the replicas. */
interface GatewayReplica {
  name: string;
  pid: number | undefined;
  /** Its GraphQL endpoint (its /metrics is next to it) and WebSocket URL. */
  url: string;
  wsUrl: string;
  /** Heap used and RSS of its process after a full GC there. */
  memory(): Promise<MemorySnapshot>;
  meter: Meter;
}

/** What a replica's /metrics says about its subscriptions. */
interface ReplicaCounts {
  /** gateway_active_subscriptions */
  subscriptions: number;
  /** gateway_active_pollers: runners watched there (one per credential and runner). */
  pollers: number;
  /** gateway_runners_polled: those it polls itself (with Redis, the leases it holds). */
  polling: number;
  /** gateway_rest_calls_total for GET /runners/:id, whatever the status: its runner polls so far. */
  runnerPolls: number;
}

async function countsOf(replica: GatewayReplica): Promise<ReplicaCounts> {
  const exposition = await scrapeMetrics(replica.url);
  return {
    subscriptions: sampleSum(exposition, 'gateway_active_subscriptions'),
    pollers: sampleSum(exposition, 'gateway_active_pollers'),
    polling: sampleSum(exposition, 'gateway_runners_polled'),
    runnerPolls: sampleSum(exposition, 'gateway_rest_calls_total', { endpoint: POLL_ENDPOINT }),
  };
}

const countsOfAll = (replicas: readonly GatewayReplica[]) => Promise.all(replicas.map(countsOf));
const sum = (counts: readonly ReplicaCounts[], key: keyof ReplicaCounts) => counts.reduce((total, count) => total + count[key], 0);

async function memoryOfAll(replicas: readonly GatewayReplica[]): Promise<MemorySnapshot> {
  const snapshots = await Promise.all(replicas.map((replica) => replica.memory()));
  return {
    rssBytes: snapshots.reduce((total, snapshot) => total + snapshot.rssBytes, 0),
    heapUsedBytes: snapshots.reduce((total, snapshot) => total + snapshot.heapUsedBytes, 0),
  };
}

/**
 * The gateways to subscribe to: one server process (no Redis), or with --replicas N, N server
 * processes given the same Redis URL and key secret (what REDIS_URL and REDIS_KEY_SECRET set on the
 * command line) and a redis-server of the scenario's own.
 */
async function startReplicas(context: ScenarioContext, overrides: { runnerPollIntervalMs: number; maxSubscriptionsPerConnection: number }): Promise<{ replicas: GatewayReplica[]; redis?: { url: string; pid: number | undefined } }> {
  const count = context.options.replicas;
  if (count === 0) {
    const gateway = await context.startServerProcess('gateway', overrides);
    return { replicas: [{ name: 'gateway', pid: gateway.pid, url: gateway.url, wsUrl: gateway.url.replace(/^http/, 'ws'), memory: () => gateway.memory(), meter: gateway.meter }] };
  }
  const redis = await context.startRedis();
  const keySecret = randomBytes(24).toString('base64url');
  context.progress(`subscriptions: ${count} gateway replicas sharing redis-server ${redis.url} (pid ${redis.pid})`);
  const servers = await Promise.all(Array.from({ length: count }, () => context.startServerProcess('gateway', { ...overrides, redis: { url: redis.url, keySecret } })));
  const replicas = servers.map((server, index) => ({
    name: `replica ${index + 1}`,
    pid: server.pid,
    url: server.url,
    wsUrl: server.url.replace(/^http/, 'ws'),
    memory: () => server.memory(),
    meter: server.meter,
  }));
  return { replicas, redis: { url: redis.url, pid: redis.pid } };
}

/**
 * Waits until the gateways show the subscriptions active; returns why not when a subscription
 * failed (the driver saw an error) or the time ran out.
 */
async function untilActive(context: ScenarioContext, active: () => Promise<boolean>, timeoutMs: number): Promise<string | undefined> {
  const deadline = performance.now() + timeoutMs;
  while (!(await active())) {
    const stats = await context.driver.call('subscriberStats', null);
    if (stats.errors > 0) return `${stats.errors} subscription errors, first: ${stats.firstError}`;
    if (performance.now() > deadline) return `not all active in time (${SUBSCRIBE_LIMIT_MS / 1000} s for all)`;
    await sleep(20);
  }
  return undefined;
}

/** Waits until the gateways' counts satisfy `condition`, checking every 50 ms; the last counts, and whether it held. */
async function countsWhen(replicas: readonly GatewayReplica[], condition: (counts: ReplicaCounts[]) => boolean, timeoutMs: number): Promise<{ counts: ReplicaCounts[]; held: boolean }> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const counts = await countsOfAll(replicas);
    if (condition(counts)) return { counts, held: true };
    if (performance.now() > deadline) return { counts, held: false };
    await sleep(50);
  }
}

export const subscriptions: Scenario = {
  name: 'subscriptions',
  title: 'Subscriptions: ciRunnerStatusUpdated, N subscribers over M runners',
  baseline: '-',
  async run(context: ScenarioContext): Promise<ScenarioReport> {
    const { driver, options, simulator } = context;
    const report = emptyReport();
    const interval = options.pollIntervalMs;
    const subscribers = options.subscribers;
    const runnerIds = simulator.runnerIds.slice(0, options.subscribedRunners);
    const runners = runnerIds.length;
    const connections = Math.min(options.wsConnections, subscribers);
    const pollWindows = options.quick ? 3 : 5;
    if (runners < options.subscribedRunners) report.notes.push(`Only ${runners} runners exist; watching those.`);

    await driver.call('setLatency', { ms: options.latencyMs });
    // The gateway refuses more than `maxSubscriptionsPerConnection` operations on one socket
    // (default 100): a policy, not a cost. Raised with room to spare so that the bench's
    // N / C per connection always fit.
    const perConnection = Math.ceil(subscribers / connections);
    const { replicas, redis } = await startReplicas(context, { runnerPollIntervalMs: interval, maxSubscriptionsPerConnection: Math.max(100, 2 * perConnection) });
    const meter = replicas.length === 1 ? replicas[0]!.meter : allOf(replicas.map((replica) => replica.meter));
    try {
      // Connections first, so the memory delta below is the subscriptions' alone.
      context.progress(`subscriptions: opening ${connections} WebSocket connections${replicas.length > 1 ? `, round-robin over ${replicas.length} replicas` : ''}`);
      const opened = await driver.call('openSubscribers', { wsUrls: replicas.map((replica) => replica.wsUrl), token: TOKEN, connections, timeoutMs: 30_000 });
      if (opened.connections < connections) {
        const stats = await driver.call('subscriberStats', null);
        report.failures.push(`only ${opened.connections} of ${connections} connections were acknowledged: ${stats.firstError ?? 'timeout'}`);
        return report;
      }
      await countsOfAll(replicas); // the first scrape's allocations (fetch's pool) are not the subscriptions'
      const before = await memoryOfAll(replicas);

      // Subscribers arrive in batches, each acknowledged by the gateways before the next: the figures
      // are of a steady state. (--subscribe-batch N with N = subscribers sends one burst instead.)
      const batch = Math.min(options.subscribeBatch, subscribers);
      context.progress(`subscriptions: ${subscribers} subscriptions over ${runners} runners, in batches of ${batch}`);
      const subscribeStart = performance.now();
      const subscribeDeadline = subscribeStart + SUBSCRIBE_LIMIT_MS;
      let active = 0;
      for (let done = 0; done < subscribers; ) {
        const count = Math.min(batch, subscribers - done);
        await driver.call('subscribe', { query: SUBSCRIPTION, runnerIds, offset: done, count });
        done += count;
        const target = done;
        const problem = await untilActive(
          context,
          async () => (active = sum(await countsOfAll(replicas), 'subscriptions')) >= target,
          subscribeDeadline - performance.now(),
        );
        if (problem) {
          report.failures.push(`${active} of ${done} subscriptions active: ${problem}`);
          return report;
        }
      }
      const subscribeMs = performance.now() - subscribeStart;
      // Every runner watched, and polled by one replica: with Redis, every lease taken.
      const watching = await countsWhen(replicas, (counts) => sum(counts, 'pollers') >= runners && sum(counts, 'polling') >= runners, 10_000);
      if (!watching.held) {
        report.failures.push(`${sum(watching.counts, 'pollers')} pollers, ${sum(watching.counts, 'polling')} polling, for ${runners} watched runners`);
        return report;
      }
      // Let the first polls (the subscriptions' baselines) finish before weighing.
      await sleep(Math.min(interval, 1_000));
      const after = await memoryOfAll(replicas);
      const rssPerSubKb = (after.rssBytes - before.rssBytes) / subscribers / 1024;
      const heapPerSubKb = (after.heapUsedBytes - before.heapUsedBytes) / subscribers / 1024;

      // Polls while nothing changes: one poller per runner, one poll per interval each. The v4
      // server counts them all; each replica's /metrics, its own.
      context.progress(`subscriptions: counting polls over ${pollWindows} intervals of ${interval} ms`);
      const countsBefore = await countsOfAll(replicas);
      const countedFrom = performance.now();
      await driver.call('resetRequests', null);
      const idle = await measureServer(() => sleep(pollWindows * interval), meter);
      const polls = (await driver.call('requests', null)).filter((request) => request.method === 'GET' && /^\/runners\/\d+$/.test(request.path));
      const countsAfter = await countsOfAll(replicas);
      const countedMs = performance.now() - countedFrom;
      const perRunner = new Map<string, number>();
      for (const poll of polls) perRunner.set(poll.path, (perRunner.get(poll.path) ?? 0) + 1);
      const pollsPerInterval = (polls.length * interval) / idle.wallMs;
      // A poller polls at most once per interval: more than that for any runner means two pollers.
      const mostPerRunner = Math.max(0, ...perRunner.values());
      const maxAllowed = Math.floor(idle.wallMs / interval) + 1;
      const onePollerEach = perRunner.size === runners && mostPerRunner <= maxAllowed;
      const pollsByReplica = replicas.map((replica, index) => ({
        name: replica.name,
        pid: replica.pid,
        pollsPerInterval: ((countsAfter[index]!.runnerPolls - countsBefore[index]!.runnerPolls) * interval) / countedMs,
        runnersPolled: countsAfter[index]!.polling,
        runnersWatched: countsAfter[index]!.pollers,
        subscriptions: countsAfter[index]!.subscriptions,
      }));

      // Status changes: flip every watched runner's paused state over REST, then flip it back.
      const changing = await measureServer(async () => {
        const rounds: ChangeRound[] = [];
        for (const round of [1, 2]) {
          context.progress(`subscriptions: status change round ${round}, ${runners} runners, ${subscribers} subscribers to tell`);
          rounds.push(await driver.call('changeRunners', { runnerIds, token: TOKEN, timeoutMs: 3 * interval + 5_000 }));
        }
        return rounds;
      }, meter);
      const rounds = changing.result;
      const delays = rounds.flatMap((round) => round.delaysMs);
      const missing = rounds.reduce((total, round) => total + round.missing, 0);
      if (missing > 0) report.failures.push(`${missing} subscriber messages never arrived (waited ${3 * interval + 5_000} ms per round)`);
      const delivery = summarize(delays);
      const lastSubscriber = Math.max(...rounds.map((round) => (round.delaysMs.length ? Math.max(...round.delaysMs) : Number.NaN)));
      const slack = context.options.replicas ? REPLICATED_DELIVERY_SLACK_MS : DELIVERY_SLACK_MS;
      const deliveryLimit = interval + slack;
      const byReplica = pollsByReplica.map((replica, index) => ({
        ...replica,
        lastSubscriberMs: Math.max(...rounds.map((round) => round.maxDelayMsByGateway[index] ?? Number.NaN)),
      }));
      // The gateways' CPU per message told: CPU while changes fanned out, less what idle polling
      // costs over the same time.
      const idleCpuRate = idle.cpuMs / idle.wallMs;
      const cpuPerMessage = delays.length > 0 ? (changing.cpuMs - idleCpuRate * changing.wallMs) / delays.length : Number.NaN;

      const stats = await driver.call('subscriberStats', null);
      if (stats.errors > 0) report.failures.push(`${stats.errors} subscription errors: ${stats.firstError}`);

      // Leaving: the pollers must stop with the last subscriber.
      await driver.call('closeSubscribers', null);
      const left = await countsWhen(replicas, (counts) => sum(counts, 'pollers') === 0, 10_000);
      if (!left.held) report.failures.push(`${sum(left.counts, 'pollers')} pollers still running 10 s after every subscriber left`);

      // With replicas, each one's share under the figure of them all.
      const several = options.replicas > 0;
      const perReplica = (rows: (replica: (typeof byReplica)[number]) => Row[]) => (several ? byReplica.flatMap(rows) : []);
      report.rows.push(
        {
          metric: 'REST polls / interval',
          unit: 'polls',
          gateway: pollsPerInterval,
          floor: runners,
          budget: { text: `= runners (${runners}), 1 poller each`, pass: onePollerEach },
        },
        ...perReplica((replica) => [
          { metric: `  ${replica.name}: polls / interval`, unit: 'polls', gateway: replica.pollsPerInterval },
          { metric: `  ${replica.name}: runners polled`, unit: 'runners', gateway: replica.runnersPolled },
        ]),
        {
          metric: 'heap / subscription',
          unit: 'KB',
          gateway: heapPerSubKb,
          budget: { text: `< ${MEMORY_BUDGET_KB}`, pass: heapPerSubKb < MEMORY_BUDGET_KB },
        },
        { metric: 'RSS / subscription', unit: 'KB', gateway: rssPerSubKb },
        {
          metric: 'change -> last subscriber',
          unit: 'ms',
          gateway: lastSubscriber,
          budget: { text: `<= interval + ${slack} (${deliveryLimit})`, pass: missing === 0 && lastSubscriber <= deliveryLimit },
        },
        ...perReplica((replica) => [{ metric: `  ${replica.name}: change -> last`, unit: 'ms', gateway: replica.lastSubscriberMs }]),
        { metric: 'change -> subscriber p50', unit: 'ms', gateway: delivery.p50 },
        { metric: 'gateway CPU / message', unit: 'ms', gateway: cpuPerMessage },
        { metric: 'gateway CPU / interval', unit: 'ms', gateway: (idle.cpuMs * interval) / idle.wallMs },
        { metric: 'subscribe all', unit: 'ms', gateway: subscribeMs },
      );
      report.notes.push(
        `${subscribers} subscriptions over ${runners} runners on ${connections} WebSocket connections (${perConnection} each), one credential, subscribed in batches of ${batch}; poll interval ${interval} ms; REST latency ${options.latencyMs} ms.`,
        `Polls counted by the v4 server over ${(idle.wallMs / 1000).toFixed(1)} s (GET /runners/:id); most for one runner ${mostPerRunner}, at most ${maxAllowed} allowed for one poller.`,
        `Memory per subscription = (heap used, or RSS, after subscribing - after opening the connections, both after a full GC) / ${subscribers}; the clients live in the driver process and do not count. The budget is on the heap: the RSS delta also holds V8's young generation and allocator slack, which do not grow with N and swing by several KB per subscription between runs.`,
        `Change: PUT /runners/:id flips paused on all ${runners} runners at once (2 rounds); delay counted from each PUT's response to each subscriber's message.`,
      );
      if (several) {
        report.notes.push(
          `${replicas.length} gateway replicas, each in a server process of its own with the same Redis URL and key secret (REDIS_URL, REDIS_KEY_SECRET), over one redis-server on loopback; connection i goes to replica i % ${replicas.length}, and the k-th subscriber of the runner at index r to replica (r + k) % ${replicas.length}, so that every runner is watched on every replica (${byReplica.map((replica) => replica.runnersWatched).join(', ')} runners watched; ${byReplica.map((replica) => replica.subscriptions).join(', ')} subscriptions).`,
          `Per replica, from its /metrics: polls / interval = the increase of gateway_rest_calls_total{endpoint="${POLL_ENDPOINT}"} over ${(countedMs / 1000).toFixed(1)} s; runners polled = gateway_runners_polled (the runner leases it holds) at the end; change -> last, the last of its own subscribers (told from its own poll for the runners it holds, through Redis for the others). Memory and CPU are the replicas' summed.`,
        );
      }
      report.details = {
        subscribers,
        runners,
        connections,
        pollIntervalMs: interval,
        subscribeBatch: batch,
        subscribeMs,
        replicas: byReplica,
        ...(redis ? { redis } : {}),
        memory: { before, after, rssPerSubscriptionKb: rssPerSubKb, heapPerSubscriptionKb: heapPerSubKb },
        polls: { count: polls.length, windowMs: idle.wallMs, perInterval: pollsPerInterval, runnersPolled: perRunner.size, mostForOneRunner: mostPerRunner, maxAllowed },
        idleCpuMs: idle.cpuMs,
        changeCpuMs: changing.cpuMs,
        cpuMsPerMessage: cpuPerMessage,
        delivery: { ...delivery, lastSubscriberMs: lastSubscriber, missing, rounds: rounds.map((round) => ({ runners: round.runners, missing: round.missing, delayMs: summarize(round.delaysMs), putMs: summarize(round.putMs) })) },
        events: stats.events,
      };
      return report;
    } finally {
      await driver.call('closeSubscribers', null);
    }
  },
};
