// Scenario "startup": what the gateway and the naive BFF hold once they listen, before any request.
// Each starts in a fresh process of its own (../lib/server-process/), the same way, and measures
// itself there after a full GC: in the bench process the gateway's RSS would count the bench too.
import { emptyReport, type Scenario, type ScenarioContext, type ScenarioReport } from '../lib/scenario.js';
import type { ServerStarted } from '../lib/server-process/protocol.js';
import { summarize } from '../lib/stats.js';

/** RSS at start at most this many times the naive BFF's. */
const RSS_BUDGET = 1.25;
/**
 * How long both stay idle before their RSS is read again. Right after start V8's young generation
 * is still at the size module loading grew it to (32 MB of the gateway's RSS); its memory reducer
 * gives that back once the process has been idle for some seconds (about 10 to 20 here).
 */
const IDLE_MS = 25_000;

type Kind = 'gateway' | 'naive-bff';

export const startup: Scenario = {
  name: 'startup',
  title: 'Startup: the gateway and the naive BFF, each in a fresh process, listening, before any request',
  baseline: '-',
  async run(context: ScenarioContext): Promise<ScenarioReport> {
    const report = emptyReport();
    const rounds = context.options.quick ? 1 : 3;
    const starts: Record<Kind, ServerStarted[]> = { gateway: [], 'naive-bff': [] };
    // One process at a time, in turns, so that neither starts while the other loads the machine.
    for (let round = 1; round <= rounds; round++) {
      for (const kind of ['gateway', 'naive-bff'] as const) {
        context.progress(`startup: ${kind}, round ${round} of ${rounds}`);
        const server = await context.startServerProcess(kind);
        const { url, rssAtStartBytes, heapAtStartBytes, readyMs } = server;
        starts[kind].push({ url, rssAtStartBytes, heapAtStartBytes, readyMs });
        await server.close();
      }
    }
    const idle = context.options.quick ? undefined : await idleRss(context);
    const median = (kind: Kind, value: (start: ServerStarted) => number) => summarize(starts[kind].map(value)).p50;
    const mb = (bytes: number) => bytes / 2 ** 20;
    const rss = {
      gateway: mb(median('gateway', (start) => start.rssAtStartBytes)),
      naive: mb(median('naive-bff', (start) => start.rssAtStartBytes)),
    };
    report.rows.push(
      {
        metric: 'RSS at start',
        unit: 'MB',
        gateway: rss.gateway,
        naiveBff: rss.naive,
        budget: {
          text: `<= ${RSS_BUDGET} x naive BFF (${(rss.naive * RSS_BUDGET).toFixed(0)})`,
          pass: rss.gateway <= rss.naive * RSS_BUDGET,
        },
      },
      ...(idle ? [{ metric: `RSS idle ${IDLE_MS / 1000} s after start`, unit: 'MB', gateway: mb(idle.gateway), naiveBff: mb(idle['naive-bff']) } as const] : []),
      {
        metric: 'heap at start',
        unit: 'MB',
        gateway: mb(median('gateway', (start) => start.heapAtStartBytes)),
        naiveBff: mb(median('naive-bff', (start) => start.heapAtStartBytes)),
      },
      {
        metric: 'process start to listening',
        unit: 'ms',
        gateway: median('gateway', (start) => start.readyMs),
        naiveBff: median('naive-bff', (start) => start.readyMs),
      },
    );
    report.notes.push(
      `Each server alone in a fresh process (plain node on compiled JavaScript, or tsx with --source), measured once it listens, after a full GC, before any request; the median of ${rounds} start(s) each, in turns.`,
      'The gateway with the --gateway-settings; the naive BFF with its data sources and Apollo Server, nothing else.',
      ...(idle ? [`RSS idle: one more start of each, then ${IDLE_MS / 1000} s with no request (both idle at once), measured the same way: V8 has given back the young generation that module loading grew.`] : []),
    );
    report.details = { starts, ...(idle ? { idle } : {}) };
    return report;
  },
};

/** RSS of each after IDLE_MS with no request: started in turns, then left idle together. */
async function idleRss(context: ScenarioContext): Promise<Record<Kind, number>> {
  context.progress(`startup: both idle for ${IDLE_MS / 1000} s`);
  const gateway = await context.startServerProcess('gateway');
  try {
    const naive = await context.startServerProcess('naive-bff');
    try {
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      const [ofGateway, ofNaive] = await Promise.all([gateway.memory(), naive.memory()]);
      return { gateway: ofGateway.rssBytes, 'naive-bff': ofNaive.rssBytes };
    } finally {
      await naive.close();
    }
  } finally {
    await gateway.close();
  }
}
