// Scenario "subscriptions": N subscribers of ciRunnerStatusUpdated over M runners on one gateway,
// sharing a few WebSocket connections. Measures the REST polls per interval (one per runner,
// however many subscribers), the gateway's memory per subscription, and the time from a status
// change in REST to the last subscriber's message.
import { DEMO_TOKENS } from '../../simulator/index.js';
import type { ChangeRound } from '../lib/driver/protocol.js';
import { measureServer, settledMemory, sleep, waitFor } from '../lib/measure.js';
import { emptyReport, type Scenario, type ScenarioContext, type ScenarioReport } from '../lib/scenario.js';
import { summarize } from '../lib/stats.js';

const TOKEN = DEMO_TOKENS.admin;
const SUBSCRIPTION = 'subscription RunnerStatus($id: ID!) { ciRunnerStatusUpdated(runnerId: $id) { id status paused } }';
const MEMORY_BUDGET_KB = 20;
const DELIVERY_SLACK_MS = 100;
/** Time allowed for every subscription to become active. */
const SUBSCRIBE_LIMIT_MS = 120_000;

/**
 * Waits until the gateway shows the subscriptions active; returns why not when a subscription
 * failed (the driver saw an error) or the time ran out.
 */
async function untilActive(context: ScenarioContext, active: () => boolean, timeoutMs: number): Promise<string | undefined> {
  const deadline = performance.now() + timeoutMs;
  while (!active()) {
    const stats = await context.driver.call('subscriberStats', null);
    if (stats.errors > 0) return `${stats.errors} subscription errors, first: ${stats.firstError}`;
    if (performance.now() > deadline) return `not all active in time (${SUBSCRIBE_LIMIT_MS / 1000} s for all)`;
    await sleep(20);
  }
  return undefined;
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
    const gateway = await context.startGateway({ runnerPollIntervalMs: interval, maxSubscriptionsPerConnection: Math.max(100, 2 * perConnection) });
    const { pollers } = gateway.gateway;
    try {
      // Connections first, so the memory delta below is the subscriptions' alone.
      context.progress(`subscriptions: opening ${connections} WebSocket connections`);
      const opened = await driver.call('openSubscribers', { wsUrl: gateway.wsUrl, token: TOKEN, connections, timeoutMs: 30_000 });
      if (opened.connections < connections) {
        const stats = await driver.call('subscriberStats', null);
        report.failures.push(`only ${opened.connections} of ${connections} connections were acknowledged: ${stats.firstError ?? 'timeout'}`);
        return report;
      }
      const before = settledMemory();

      // Subscribers arrive in batches, each acknowledged by the gateway before the next: the figures
      // are of a steady state. (--subscribe-batch N with N = subscribers sends one burst instead.)
      const batch = Math.min(options.subscribeBatch, subscribers);
      context.progress(`subscriptions: ${subscribers} subscriptions over ${runners} runners, in batches of ${batch}`);
      const subscribeStart = performance.now();
      const subscribeDeadline = subscribeStart + SUBSCRIBE_LIMIT_MS;
      for (let done = 0; done < subscribers; ) {
        const count = Math.min(batch, subscribers - done);
        await driver.call('subscribe', { query: SUBSCRIPTION, runnerIds, offset: done, count });
        done += count;
        const problem = await untilActive(context, () => pollers.activeSubscriptions >= done, subscribeDeadline - performance.now());
        if (problem) {
          report.failures.push(`${pollers.activeSubscriptions} of ${done} subscriptions active: ${problem}`);
          return report;
        }
      }
      const subscribeMs = performance.now() - subscribeStart;
      if (!(await waitFor(() => pollers.activePollers >= runners, 10_000))) {
        report.failures.push(`${pollers.activePollers} pollers for ${runners} watched runners`);
        return report;
      }
      // Let the first polls (the subscriptions' baselines) finish before weighing.
      await sleep(Math.min(interval, 1_000));
      const after = settledMemory();
      const rssPerSubKb = (after.rssBytes - before.rssBytes) / subscribers / 1024;
      const heapPerSubKb = (after.heapUsedBytes - before.heapUsedBytes) / subscribers / 1024;

      // Polls while nothing changes: one poller per runner, one poll per interval each.
      context.progress(`subscriptions: counting polls over ${pollWindows} intervals of ${interval} ms`);
      await driver.call('resetRequests', null);
      const idle = await measureServer(() => sleep(pollWindows * interval));
      const polls = (await driver.call('requests', null)).filter((request) => request.method === 'GET' && /^\/runners\/\d+$/.test(request.path));
      const perRunner = new Map<string, number>();
      for (const poll of polls) perRunner.set(poll.path, (perRunner.get(poll.path) ?? 0) + 1);
      const pollsPerInterval = (polls.length * interval) / idle.wallMs;
      // A poller polls at most once per interval: more than that for any runner means two pollers.
      const mostPerRunner = Math.max(0, ...perRunner.values());
      const maxAllowed = Math.floor(idle.wallMs / interval) + 1;
      const onePollerEach = perRunner.size === runners && mostPerRunner <= maxAllowed;

      // Status changes: flip every watched runner's paused state over REST, then flip it back.
      const changing = await measureServer(async () => {
        const rounds: ChangeRound[] = [];
        for (const round of [1, 2]) {
          context.progress(`subscriptions: status change round ${round}, ${runners} runners, ${subscribers} subscribers to tell`);
          rounds.push(await driver.call('changeRunners', { runnerIds, token: TOKEN, timeoutMs: 3 * interval + 5_000 }));
        }
        return rounds;
      });
      const rounds = changing.result;
      const delays = rounds.flatMap((round) => round.delaysMs);
      const missing = rounds.reduce((total, round) => total + round.missing, 0);
      if (missing > 0) report.failures.push(`${missing} subscriber messages never arrived (waited ${3 * interval + 5_000} ms per round)`);
      const delivery = summarize(delays);
      const lastSubscriber = Math.max(...rounds.map((round) => (round.delaysMs.length ? Math.max(...round.delaysMs) : Number.NaN)));
      const deliveryLimit = interval + DELIVERY_SLACK_MS;
      // The gateway's CPU per message told: CPU while changes fanned out, less what idle polling
      // costs over the same time.
      const idleCpuRate = idle.cpuMs / idle.wallMs;
      const cpuPerMessage = delays.length > 0 ? (changing.cpuMs - idleCpuRate * changing.wallMs) / delays.length : Number.NaN;

      const stats = await driver.call('subscriberStats', null);
      if (stats.errors > 0) report.failures.push(`${stats.errors} subscription errors: ${stats.firstError}`);

      // Leaving: the pollers must stop with the last subscriber.
      await driver.call('closeSubscribers', null);
      if (!(await waitFor(() => pollers.activePollers === 0, 10_000))) {
        report.failures.push(`${pollers.activePollers} pollers still running 10 s after every subscriber left`);
      }

      report.rows.push(
        {
          metric: 'REST polls / interval',
          unit: 'polls',
          gateway: pollsPerInterval,
          floor: runners,
          budget: { text: `= runners (${runners}), 1 poller each`, pass: onePollerEach },
        },
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
          budget: { text: `<= interval + ${DELIVERY_SLACK_MS} (${deliveryLimit})`, pass: missing === 0 && lastSubscriber <= deliveryLimit },
        },
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
      report.details = {
        subscribers,
        runners,
        connections,
        pollIntervalMs: interval,
        subscribeBatch: batch,
        subscribeMs,
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
