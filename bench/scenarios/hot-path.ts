// Scenario "hot-path": the cheapest query, `runner(id:) { id status }` (one GET /runners/:id), at
// saturation with no added REST latency: N workers in a closed loop for a fixed time. Holds the
// gateway's throughput and CPU time per operation against a raw pass-through of the same REST call
// and against the naive BFF (Apollo Server + RESTDataSource) answering the same query.
import { DEMO_TOKENS } from '../../simulator/index.js';
import type { LoopResult, ProtocolTally, Target } from '../lib/driver/protocol.js';
import { combineMeasured, measureServer, type Measured, type Meter } from '../lib/measure.js';
import { startPassThrough } from '../lib/pass-through.js';
import { emptyReport, type Scenario, type ScenarioContext, type ScenarioReport } from '../lib/scenario.js';
import { summarize, type Summary } from '../lib/stats.js';
import { tailcallPeer } from '../lib/tailcall.js';
import { protocolNote } from '../lib/upstream.js';

const TOKEN = DEMO_TOKENS.admin;
export const HOT_PATH_QUERY = 'query HotPath($id: CiRunnerID!) { runner(id: $id) { id status } }';
/** The same query in the Tailcall peer's schema (bench/peers/tailcall/): REST's numeric id and status. */
export const TAILCALL_HOT_PATH_QUERY = 'query HotPath($id: Int!) { runner(id: $id) { id status } }';
const CPU_BUDGET_MS = 0.25;
/** Throughput at least this share of the raw pass-through's... */
const THROUGHPUT_BUDGET = 0.5;
/** ...and at least this many times the naive BFF's. */
const NAIVE_BFF_BUDGET = 1.5;

type Label = 'gateway' | 'naiveBff' | 'passThrough' | 'direct' | 'tailcall';
const LABELS: Record<Label, string> = { gateway: 'gateway', naiveBff: 'naive BFF', passThrough: 'pass-through', direct: 'direct', tailcall: 'Tailcall' };

/** The measured loops of one target, taken together. */
interface Run {
  ops: number;
  failures: number;
  elapsedMs: number;
  latenciesMs: number[];
  sample: unknown;
  throughput: number;
  cpuPerOp: number;
  /** Share of one core the driver (v4 server and clients) used meanwhile. */
  driverLoad: number;
  peakRssBytes: number;
  /** REST calls the v4 server saw per operation. */
  callsPerOp: number;
}

function combine(parts: Array<Measured<LoopResult>>, calls: number): Run {
  const { result: loop, cpuMs, peakRssBytes } = combineMeasured(parts);
  const { ops, elapsedMs } = loop;
  return {
    ops,
    failures: loop.failures,
    elapsedMs,
    latenciesMs: loop.latenciesMs,
    sample: loop.sample,
    throughput: elapsedMs > 0 ? (ops / elapsedMs) * 1000 : Number.NaN,
    cpuPerOp: ops > 0 ? cpuMs / ops : Number.NaN,
    driverLoad: elapsedMs > 0 ? loop.driverCpuMs / elapsedMs : Number.NaN,
    peakRssBytes,
    callsPerOp: ops > 0 ? calls / ops : Number.NaN,
  };
}

/** Why Tailcall's answer for runner `id` differs from REST's `{ id, status }`, or undefined when they agree. */
async function tailcallAgainstRest(tailcallUrl: string, restUrl: string, id: number): Promise<string | undefined> {
  const headers = { 'content-type': 'application/json', 'private-token': TOKEN };
  const response = await fetch(tailcallUrl, { method: 'POST', headers, body: JSON.stringify({ query: TAILCALL_HOT_PATH_QUERY, variables: { id } }) });
  const answer = (await response.json()) as { data?: { runner?: unknown } };
  const rest = (await (await fetch(`${restUrl}/runners/${id}`, { headers })).json()) as { id: number; status: string };
  const [mine, theirs] = [JSON.stringify(answer.data?.runner), JSON.stringify({ id: rest.id, status: rest.status })];
  return mine === theirs ? undefined : `runner ${id}: Tailcall ${mine}, REST ${theirs}`;
}

export const hotPath: Scenario = {
  name: 'hot-path',
  title: 'Hot path: runner(id:) { id status } at saturation, no added latency',
  baseline: 'a raw pass-through (node:http + undici, in this process) of the same GET /runners/:id',
  async run(context: ScenarioContext): Promise<ScenarioReport> {
    const { driver, options, simulator } = context;
    const report = emptyReport();
    // This machine's JIT takes seconds of load to settle the whole stack (Apollo, graphql-js,
    // undici); shorter warm-ups measured up to twice the steady CPU time per operation.
    const warmupMs = options.quick ? 1_000 : 3_000;
    const measuredMs = options.quick ? 2_000 : 4_000;
    // Gateway, naive BFF and pass-through are measured in alternation, so that a drift of the
    // machine (other load, CPU frequency) weighs on all alike.
    const rounds = options.quick ? 1 : 2;
    // Rotate over the seeded runners so that no answer is the same twice in a row.
    const runnerIds = simulator.runnerIds.slice(0, 70);
    const loopOptions = (maxMs: number) => ({ concurrency: options.concurrency, maxOps: 5_000_000, maxMs });

    // Saturation measures the gateway's own work: REST answers as fast as the simulator can.
    await driver.call('setLatency', { ms: 0 });
    // The gateway in a fresh process of its own, as the naive BFF: in the bench process, after the
    // scenarios before it had run their own gateways there, it measured 0.28-0.35 ms of CPU per
    // operation against 0.23-0.26 alone (JIT and heap state from the page scenarios, and the bench's
    // own work in the same process); the naive BFF never carried that.
    const gateway = await context.startServerProcess('gateway');
    const naive = await context.startServerProcess('naive-bff');
    const passThrough = await startPassThrough(simulator.url, options.upstreamConnections, simulator.ca);
    const tailcall = await tailcallPeer(context, report.notes);
    try {
      const graphql = (url: string): Target => ({ kind: 'graphql', url, token: TOKEN, query: HOT_PATH_QUERY, variables: runnerIds.map((id) => ({ id: `gid://gitlab/Ci::Runner/${id}` })) });
      const targets = {
        gateway: graphql(gateway.url),
        naiveBff: graphql(naive.url),
        passThrough: { kind: 'get', baseUrl: passThrough.url, token: TOKEN, paths: runnerIds.map((id) => `/runners/${id}`) },
        // Straight to the v4 server: what the driver alone can push, the ceiling of both others.
        direct: { kind: 'get', baseUrl: simulator.url, token: TOKEN, paths: runnerIds.map((id) => `/runners/${id}`) },
        // Tailcall's schema takes REST's numeric id.
        ...(tailcall ? { tailcall: { kind: 'graphql', url: tailcall.url, token: TOKEN, query: TAILCALL_HOT_PATH_QUERY, variables: runnerIds.map((id) => ({ id })) } } : {}),
      } as Record<Label, Target>;
      const labels = Object.keys(targets) as Label[];
      for (const label of labels) {
        context.progress(`hot-path: ${label}, ${options.concurrency} workers, ${warmupMs} ms warm-up`);
        const warmup = await driver.call('loop', { target: targets[label], options: loopOptions(warmupMs) });
        if (warmup.failures > 0) report.failures.push(`${label}: ${warmup.failures} failed warm-up operations: ${warmup.firstFailure}`);
      }
      // The gateway and the naive BFF measure their own processes, Tailcall's is read from /proc; the
      // pass-through runs in this one.
      const meters: Partial<Record<Label, Meter>> = { gateway: gateway.meter, naiveBff: naive.meter, ...(tailcall ? { tailcall: tailcall.meter } : {}) };
      const each = <T>(initial: () => T) => Object.fromEntries(labels.map((label) => [label, initial()])) as Record<Label, T>;
      const parts = each<Array<Measured<LoopResult>>>(() => []);
      const calls = each(() => 0);
      const protocols = each<ProtocolTally[]>(() => []);
      for (let round = 1; round <= rounds; round++) {
        // The direct run is for information; once is enough.
        for (const label of round === 1 ? labels : labels.filter((name) => name !== 'direct')) {
          context.progress(`hot-path: ${label}, round ${round} of ${rounds}, ${measuredMs} ms`);
          await driver.call('resetRequests', null);
          const measured = await measureServer(() => driver.call('loop', { target: targets[label], options: loopOptions(measuredMs) }), meters[label]);
          calls[label] += (await driver.call('requests', null)).length;
          protocols[label].push(await driver.call('protocols', null));
          const loop = measured.result;
          if (loop.failures > 0) report.failures.push(`${label}: ${loop.failures} of ${loop.ops} operations failed: ${loop.firstFailure}`);
          parts[label].push(measured);
        }
      }
      await driver.call('resetRequests', null);
      const runs = Object.fromEntries(labels.map((label) => [label, combine(parts[label], calls[label])])) as Record<Label, Run>;
      const { gateway: g, naiveBff: n, passThrough: p, direct: d } = runs;
      const t = runs.tailcall as Run | undefined;
      for (const [label, run] of [['gateway', g], ['naive BFF', n], ['Tailcall', t]] as const) {
        const sample = run?.sample as { data?: { runner?: { id?: string | number } | null } } | undefined;
        if (run && !sample?.data?.runner?.id) report.failures.push(`the ${label} answered no runner`);
      }
      const tailcallDifference = tailcall && (await tailcallAgainstRest(tailcall.url, simulator.url, runnerIds[0]!));
      if (tailcallDifference) report.failures.push(`Tailcall's data differs from REST's: ${tailcallDifference}`);

      const [gl, nl, pl] = [g, n, p].map((run) => summarize(run.latenciesMs)) as [Summary, Summary, Summary];
      const tl = t && summarize(t.latenciesMs);
      const ratio = g.throughput / p.throughput;
      const overNaive = g.throughput / n.throughput;
      report.rows.push(
        { metric: 'REST calls / op', unit: 'calls', gateway: g.callsPerOp, naiveBff: n.callsPerOp, tailcall: t?.callsPerOp, baseline: 1, floor: 1, budget: { text: '= min (1)', pass: g.callsPerOp === 1 } },
        {
          metric: 'throughput',
          unit: 'ops/s',
          gateway: g.throughput,
          naiveBff: n.throughput,
          tailcall: t?.throughput,
          baseline: p.throughput,
          budget: { text: `>= ${THROUGHPUT_BUDGET} x raw (${(p.throughput * THROUGHPUT_BUDGET).toFixed(0)})`, pass: ratio >= THROUGHPUT_BUDGET },
        },
        { metric: 'throughput / raw', unit: 'x', gateway: ratio, naiveBff: n.throughput / p.throughput, tailcall: t && t.throughput / p.throughput },
        { metric: 'throughput / naive BFF', unit: 'x', gateway: overNaive, budget: { text: `>= ${NAIVE_BFF_BUDGET}`, pass: overNaive >= NAIVE_BFF_BUDGET } },
        { metric: 'latency p50', unit: 'ms', gateway: gl.p50, naiveBff: nl.p50, tailcall: tl?.p50, baseline: pl.p50 },
        { metric: 'latency p99', unit: 'ms', gateway: gl.p99, naiveBff: nl.p99, tailcall: tl?.p99, baseline: pl.p99 },
        {
          metric: 'CPU / op',
          unit: 'ms',
          gateway: g.cpuPerOp,
          naiveBff: n.cpuPerOp,
          tailcall: t?.cpuPerOp,
          baseline: p.cpuPerOp,
          budget: { text: `<= ${CPU_BUDGET_MS}`, pass: g.cpuPerOp <= CPU_BUDGET_MS },
        },
        { metric: 'peak RSS', unit: 'MB', gateway: g.peakRssBytes / 2 ** 20, naiveBff: n.peakRssBytes / 2 ** 20, tailcall: t && t.peakRssBytes / 2 ** 20, baseline: p.peakRssBytes / 2 ** 20 },
      );
      report.notes.push(
        `${options.concurrency} concurrent workers (closed loop); after ${warmupMs} ms of warm-up each, ${rounds} round(s) of ${measuredMs} ms for gateway, naive BFF and pass-through in alternation; no added REST latency; runner ids rotate over ${runnerIds.length} runners.`,
        `CPU / op = process.cpuUsage() of the process hosting the server, over the measured loop / operations: the gateway's and the naive BFF's own processes (each fresh, started for this scenario), the bench process for the pass-through (alone there)${t ? "; Tailcall's process from /proc/<pid>/stat" : ''}. Peak RSS likewise (the bench process's counts the bench).`,
        `Direct REST from the driver, no hop: ${d.throughput.toFixed(0)} ops/s, p50 ${summarize(d.latenciesMs).p50.toFixed(2)} ms: the most the driver and simulator can serve, a ceiling for both.`,
        protocolNote(labels.map((label) => ({ label: LABELS[label], tallies: protocols[label] }))),
        `Driver process CPU (v4 server + clients), in cores: ${g.driverLoad.toFixed(2)} during the gateway runs, ${n.driverLoad.toFixed(2)} during the naive BFF's, ${p.driverLoad.toFixed(2)} during the pass-through, ${d.driverLoad.toFixed(2)} direct${t ? `, ${t.driverLoad.toFixed(2)} during Tailcall's` : ''}; near 1.0 the driver, not what it measures, set the pace.`,
      );
      report.details = Object.fromEntries(
        Object.entries(runs).map(([label, run]) => [
          label,
          { ops: run.ops, failures: run.failures, elapsedMs: run.elapsedMs, throughput: run.throughput, latencyMs: summarize(run.latenciesMs), cpuMsPerOp: run.cpuPerOp, driverLoad: run.driverLoad, peakRssBytes: run.peakRssBytes, restCallsPerOp: run.callsPerOp },
        ]),
      );
      return report;
    } finally {
      await passThrough.close();
      await driver.call('setLatency', { ms: options.latencyMs });
    }
  },
};
