// The shape shared by every "nested query" scenario (runner fleet now; groups and issues later):
// one GraphQL query measured three ways in the same run (the gateway, the gateway with batching
// off, a plain REST client fetching the same data), held against the fewest REST calls the query
// needs and against the latency floor. A scenario supplies the query, its REST baseline and how to
// count the minimum from the data; this runs the loops and builds the rows.
import type { LoopResult, RecordedRequest, Target } from './driver/protocol.js';
import { combineMeasured, measureGateway, type Measured } from './measure.js';
import { emptyReport, type ScenarioContext, type ScenarioReport } from './scenario.js';
import { summarize } from './stats.js';
import { traceOperation } from './trace.js';

export interface NestedQuerySpec<TData> {
  /** Short name for progress lines. */
  name: string;
  token: string;
  query: string;
  variables: Record<string, unknown>;
  /** The scenario's REST baseline: an exported `BaselineFunction` of the scenario module. */
  restBaseline: { module: string; name: string; args: unknown };
  /** Dependent REST waves of the query: the floor is waves x added latency. */
  waves: number;
  /**
   * The distinct REST resources the query needs, from the query and the data returned (never from
   * the gateway's calls), as `METHOD /path` strings.
   */
  minimumResources(data: TData): Set<string>;
  /** Why the gateway's data and the REST baseline's result disagree, or undefined when they agree. */
  difference(data: TData, rest: unknown): string | undefined;
  /** How the minimum is counted, for the notes under the table. */
  minimumRule: string;
  /** Whether p50 is held within 10% of the latency floor (default true; the issue sets it for some scenarios only). */
  floorBudget?: boolean;
  /** When set, p50 through the gateway must be at least this many times lower than the REST client's. */
  fasterThanRestBy?: number;
}

/**
 * Why two renderings of the same page differ, or undefined when they agree: the first row that
 * differs, or the row counts. Each scenario maps both sides to the same row shape first.
 */
export function firstDifference<TRow>(gateway: TRow[], rest: unknown, noun: string): string | undefined {
  const theirs = Array.isArray(rest) ? (rest as TRow[]) : [];
  if (gateway.length !== theirs.length) return `${gateway.length} ${noun} through the gateway, ${theirs.length} over REST`;
  const index = gateway.findIndex((row, at) => JSON.stringify(row) !== JSON.stringify(theirs[at]));
  return index < 0 ? undefined : `${noun} #${index}: gateway ${JSON.stringify(gateway[index])}, REST ${JSON.stringify(theirs[index])}`;
}

interface Phase {
  label: string;
  loop: LoopResult;
  measured?: Measured<LoopResult>;
  calls: RecordedRequest[];
  callsPerOp: number;
}

/** The measured operations of each column are taken in this many rounds, the columns in turn. */
const MEASURED_ROUNDS = 4;

/** p50 within this much of the floor is the budget. */
const FLOOR_MARGIN = 0.1;

export async function runNestedQuery<TData>(context: ScenarioContext, spec: NestedQuerySpec<TData>): Promise<ScenarioReport> {
  const { driver, options } = context;
  const report = emptyReport();
  const warmupOps = options.quick ? 3 : 10;
  const measuredOps = options.quick ? 12 : 40; // a multiple of MEASURED_ROUNDS
  // Sequential operations on one connection: this measures the latency of one page view, not
  // throughput. Bounded by count and by a minute each.
  const loopOptions = (ops: number) => ({ concurrency: 1, maxOps: ops, maxMs: 60_000, connections: 1, clientRttMs: options.clientRttMs });
  await driver.call('setLatency', { ms: options.latencyMs });

  const batched = await context.startGateway();
  const unbatched = await context.startGateway({ batching: false });
  const graphql = (url: string): Target => ({ kind: 'graphql', url, token: spec.token, query: spec.query, variables: [spec.variables] });
  const targets: Array<{ label: string; target: Target; inGateway: boolean }> = [
    { label: 'gateway', target: graphql(batched.url), inGateway: true },
    { label: 'batching off', target: graphql(unbatched.url), inGateway: true },
    { label: 'REST client', target: { kind: 'function', ...spec.restBaseline }, inGateway: false },
  ];

  // Every column warms up before any is measured, and the measured operations are taken in rounds
  // that go through the columns in turn. Measured one after the other, the first column paid for
  // what ran before it (the JIT's work on the code both gateways share, the warm-ups' garbage): up
  // to 50% more CPU per operation on the wide page, whichever gateway came first.
  for (const { label, target } of targets) {
    context.progress(`${spec.name}: ${label}, ${warmupOps} warm-up operations`);
    const warmup = await driver.call('loop', { target, options: loopOptions(warmupOps) });
    if (warmup.failures > 0) report.failures.push(`${label}: ${warmup.failures} failed warm-up operations: ${warmup.firstFailure}`);
  }
  const parts = targets.map(() => ({ measured: [] as Array<Measured<LoopResult>>, calls: [] as RecordedRequest[] }));
  for (let round = 1; round <= MEASURED_ROUNDS; round++) {
    context.progress(`${spec.name}: round ${round} of ${MEASURED_ROUNDS}, ${measuredOps / MEASURED_ROUNDS} operations per column`);
    for (const [index, { target }] of targets.entries()) {
      await driver.call('resetRequests', null);
      parts[index]!.measured.push(await measureGateway(() => driver.call('loop', { target, options: loopOptions(measuredOps / MEASURED_ROUNDS) })));
      parts[index]!.calls.push(...(await driver.call('requests', null)));
    }
  }
  const phases: Phase[] = targets.map(({ label, inGateway }, index) => {
    const measured = combineMeasured(parts[index]!.measured);
    const { result: loop } = measured;
    const { calls } = parts[index]!;
    if (loop.failures > 0) report.failures.push(`${label}: ${loop.failures} of ${loop.ops} operations failed: ${loop.firstFailure}`);
    // The REST client runs in the driver: the bench process's CPU meanwhile is not its.
    return { label, loop, ...(inGateway ? { measured } : {}), calls, callsPerOp: loop.ops > 0 ? calls.length / loop.ops : Number.NaN };
  });
  await driver.call('resetRequests', null);
  const [gateway, off, rest] = phases as [Phase, Phase, Phase];
  if (options.trace) {
    const traced = () => driver.call('loop', { target: targets[0]!.target, options: loopOptions(1) });
    report.notes.push(...(await traceOperation(context.simulator.origin, options.latencyMs, traced)));
  }

  const data = (gateway.loop.sample as { data?: TData } | undefined)?.data;
  if (data === undefined) {
    report.failures.push('no successful gateway response to check');
    return report;
  }
  const minimum = spec.minimumResources(data).size;
  const difference = spec.difference(data, rest.loop.sample);
  if (difference) report.failures.push(`the gateway's data differs from REST's: ${difference}`);

  // Through the gateway, one client round trip on top of the REST waves.
  const floor = spec.waves * options.latencyMs + options.clientRttMs;
  const p50Limit = floor * (1 + FLOOR_MARGIN);
  const [g, o, r] = [gateway, off, rest].map((phase) => summarize(phase.loop.latenciesMs)) as [ReturnType<typeof summarize>, ReturnType<typeof summarize>, ReturnType<typeof summarize>];
  const cpuPerOp = (phase: Phase) => (phase.measured && phase.loop.ops > 0 ? phase.measured.cpuMs / phase.loop.ops : null);
  const peakMb = (phase: Phase) => (phase.measured ? phase.measured.peakRssBytes / 2 ** 20 : null);

  report.rows.push(
    {
      metric: 'REST calls / op',
      unit: 'calls',
      gateway: gateway.callsPerOp,
      batchingOff: off.callsPerOp,
      baseline: rest.callsPerOp,
      floor: minimum,
      budget: { text: `= min (${minimum})`, pass: gateway.callsPerOp === minimum },
    },
    {
      metric: 'latency p50',
      unit: 'ms',
      gateway: g.p50,
      batchingOff: o.p50,
      baseline: r.p50,
      floor,
      // With no added latency the floor is 0, and a margin of 0 means nothing.
      ...(floor > 0 && spec.floorBudget !== false ? { budget: { text: `<= floor +${FLOOR_MARGIN * 100}% (${p50Limit.toFixed(0)})`, pass: g.p50 <= p50Limit } } : {}),
    },
    { metric: 'latency p99', unit: 'ms', gateway: g.p99, batchingOff: o.p99, baseline: r.p99, floor },
    ...(spec.fasterThanRestBy
      ? [
          {
            metric: 'REST client p50 / gateway p50',
            unit: 'x' as const,
            gateway: r.p50 / g.p50,
            batchingOff: r.p50 / o.p50,
            budget: { text: `>= ${spec.fasterThanRestBy}`, pass: r.p50 / g.p50 >= spec.fasterThanRestBy },
          },
        ]
      : []),
    { metric: 'gateway CPU / op', unit: 'ms', gateway: cpuPerOp(gateway), batchingOff: cpuPerOp(off) },
    { metric: 'gateway peak RSS', unit: 'MB', gateway: peakMb(gateway), batchingOff: peakMb(off) },
  );
  report.notes.push(
    `Minimum REST calls: ${spec.minimumRule}`,
    `${measuredOps} sequential operations per column after ${warmupOps} warm-up ones, in ${MEASURED_ROUNDS} rounds through the columns in turn; ${options.latencyMs} ms added to each REST call; floor = ${spec.waves} dependent REST waves x ${options.latencyMs} ms${options.clientRttMs ? ` + one client round trip of ${options.clientRttMs} ms` : ''}.`,
    ...(options.clientRttMs ? [`Client round trip: ${options.clientRttMs} ms before each request the client sends, one per operation through the gateway, one per REST call for the REST client.`] : []),
    `Upstream pool: ${options.upstreamConnections} connections for the gateway and for the REST client alike.`,
    `Driver process CPU (v4 server + client), in cores: ${phases.map((phase) => `${phase.label} ${(phase.loop.driverCpuMs / phase.loop.elapsedMs).toFixed(2)}`).join(', ')}.`,
  );
  report.details = {
    minimumRestCalls: minimum,
    waves: spec.waves,
    floorMs: floor,
    phases: phases.map((phase) => ({
      label: phase.label,
      ops: phase.loop.ops,
      failures: phase.loop.failures,
      restCallsPerOp: phase.callsPerOp,
      distinctRestResources: new Set(phase.calls.map((call) => `${call.method} ${call.path}`)).size,
      latencyMs: summarize(phase.loop.latenciesMs),
      cpuMsPerOp: cpuPerOp(phase),
      driverLoad: phase.loop.driverCpuMs / phase.loop.elapsedMs,
      peakRssBytes: phase.measured?.peakRssBytes ?? null,
    })),
  };
  return report;
}
