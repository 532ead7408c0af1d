// Scenario "startup": what the gateway and the naive BFF hold once they listen, before any request.
// Each starts in a fresh process of its own (../lib/server-process/), the same way, and measures
// itself there after a full GC: in the bench process the gateway's RSS would count the bench too.
import { emptyReport, type Scenario, type ScenarioContext, type ScenarioReport } from '../lib/scenario.js';
import type { ServerStarted } from '../lib/server-process/protocol.js';
import { summarize } from '../lib/stats.js';

/** RSS at start at most this many times the naive BFF's. */
const RSS_BUDGET = 1.25;

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
    );
    report.details = { starts };
    return report;
  },
};
