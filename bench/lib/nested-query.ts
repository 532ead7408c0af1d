// The shape shared by every "nested query" scenario (dashboard, runner fleet, wide page): one
// GraphQL query measured four ways in the same run (the gateway, the gateway with batching off,
// the naive BFF, a plain REST client fetching the same data), held against the fewest REST calls
// the query needs, the latency floor and the other columns. A scenario supplies the query, its
// REST baseline and how to count the minimum from the data; this runs the loops and builds the rows.
import type { LoopResult, ProtocolTally, RecordedRequest, Target } from './driver/protocol.js';
import { combineMeasured, measureServer, type Meter, type Measured } from './measure.js';
import { emptyReport, type Figure, type Row, type ScenarioContext, type ScenarioReport } from './scenario.js';
import { summarize, type Summary } from './stats.js';
import { tailcallPeer } from './tailcall.js';
import { protocolNote, STREAMS_PER_CONNECTION } from './upstream.js';

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
  /** Why a server's data and the REST baseline's result disagree, or undefined when they agree. */
  difference(data: TData, rest: unknown): string | undefined;
  /** How the minimum is counted, for the notes under the table. */
  minimumRule: string;
  /**
   * What the gateway's p50 is held to: within 10% of the latency floor (`floor`, the default),
   * within `withinWaterfall` of the REST waterfall server's p50 measured in the same rounds (what
   * any server process in front of REST takes for the page), or nothing.
   */
  p50Budget?: 'floor' | { withinWaterfall: number } | 'none';
  /** When set, the gateway's p50 must be at most this fraction of the naive BFF's. */
  naiveBffRatio?: number;
  /**
   * When set, the REST client's p50 over the gateway's must be at least `ofWaterfall` times the REST
   * client's p50 over the REST waterfall server's (the most a server in front of REST can gain a far
   * client), held only when the client's round trip is at least `clientRttMs` and REST's added
   * latency at most `latencyMs` (on loopback both need the same dependent waves).
   */
  fasterThanRest?: { ofWaterfall: number; clientRttMs: number; latencyMs: number };
  /**
   * The same page in the Tailcall peer's schema (--peers tailcall, bench/peers/tailcall/): its query,
   * and why its data and the REST baseline's result disagree (undefined when they agree).
   */
  tailcall?: { query: string; variables: Record<string, unknown>; difference(data: unknown, rest: unknown): string | undefined };
}

/** The far client's budget: the REST client's gain over the gateway, at least `share` of its gain over the waterfall server. */
function fasterThanRestBudget(share: number, waterfallGain: number, options: { clientRttMs: number; latencyMs: number }, pass: (ratio: number) => boolean) {
  const ratio = share * waterfallGain;
  return { text: `>= ${share} x waterfall server's (${ratio.toFixed(2)}; --client-rtt ${options.clientRttMs} --latency ${options.latencyMs})`, pass: pass(ratio) };
}

/**
 * Why two renderings of the same page differ, or undefined when they agree: the first row that
 * differs, or the row counts. Each scenario maps both sides to the same row shape first.
 */
export function firstDifference<TRow>(gateway: TRow[], rest: unknown, noun: string): string | undefined {
  const theirs = Array.isArray(rest) ? (rest as TRow[]) : [];
  if (gateway.length !== theirs.length) return `${gateway.length} ${noun} through GraphQL, ${theirs.length} over REST`;
  const index = gateway.findIndex((row, at) => JSON.stringify(row) !== JSON.stringify(theirs[at]));
  return index < 0 ? undefined : `${noun} #${index}: GraphQL ${JSON.stringify(gateway[index])}, REST ${JSON.stringify(theirs[index])}`;
}

/** A gateway's LIMIT_EXCEEDED answer, from the loop's first failure. */
interface Refusal {
  message: string;
  estimate: number | null;
  limit: number | null;
}

/** The refusal when every operation of a loop was refused for LIMIT_EXCEEDED; undefined otherwise. */
function refusalOf(loop: LoopResult): Refusal | undefined {
  const failure = loop.firstFailure;
  if (loop.ops === 0 || loop.failures < loop.ops || !failure?.includes('"LIMIT_EXCEEDED"')) return undefined;
  const number = (pattern: RegExp) => {
    const found = pattern.exec(failure)?.[1];
    return found === undefined ? null : Number(found);
  };
  return {
    message: /"message":"([^"]*)"/.exec(failure)?.[1] ?? failure,
    estimate: number(/"estimate":(\d+)/),
    limit: number(/"maxRestCalls":(\d+)/),
  };
}

interface Column {
  label: string;
  target: Target;
  /** How the server's process is measured; none for the REST client, which runs in the driver. */
  meter?: Meter;
  /** A gateway column, which its settings may refuse the query. */
  gateway: boolean;
}

interface Phase {
  label: string;
  loop: LoopResult;
  measured?: Measured<LoopResult>;
  calls: RecordedRequest[];
  callsPerOp: number;
  latency: Summary;
  refusal?: Refusal;
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

  // Each server in a fresh process of its own, measured there: what ran before in the bench process
  // (the other scenarios, the bench itself) weighs on none of them.
  const batched = await context.startServerProcess('gateway');
  const unbatched = await context.startServerProcess('gateway', { batching: false });
  const naive = await context.startServerProcess('naive-bff');
  const waterfall = await context.startRestWaterfall(spec.restBaseline);
  const tailcall = spec.tailcall && (await tailcallPeer(context, report.notes));
  const graphql = (url: string): Target => ({ kind: 'graphql', url, token: spec.token, query: spec.query, variables: [spec.variables] });
  const columns: Column[] = [
    { label: 'gateway', target: graphql(batched.url), meter: batched.meter, gateway: true },
    { label: 'batching off', target: graphql(unbatched.url), meter: unbatched.meter, gateway: true },
    { label: 'naive BFF', target: graphql(naive.url), meter: naive.meter, gateway: false },
    { label: 'REST waterfall server', target: graphql(waterfall.url), meter: waterfall.meter, gateway: false },
    { label: 'REST client', target: { kind: 'function', ...spec.restBaseline }, gateway: false },
    ...(tailcall && spec.tailcall
      ? [{ label: 'Tailcall', target: { kind: 'graphql', url: tailcall.url, token: spec.token, query: spec.tailcall.query, variables: [spec.tailcall.variables] } as Target, meter: tailcall.meter, gateway: false }]
      : []),
  ];

  // Every column warms up before any is measured, and the measured operations are taken in rounds
  // that go through the columns in turn. Measured one after the other, the first column paid for
  // what ran before it (the JIT's work on the code both gateways share, the warm-ups' garbage): up
  // to 50% more CPU per operation on the wide page, whichever gateway came first. A gateway that
  // refuses the query with its settings (LIMIT_EXCEEDED) is reported as such and not measured.
  const refusals = new Map<Column, Refusal>();
  for (const column of columns) {
    context.progress(`${spec.name}: ${column.label}, ${warmupOps} warm-up operations`);
    const warmup = await driver.call('loop', { target: column.target, options: loopOptions(warmupOps) });
    const refusal = column.gateway ? refusalOf(warmup) : undefined;
    if (refusal) refusals.set(column, refusal);
    else if (warmup.failures > 0) report.failures.push(`${column.label}: ${warmup.failures} failed warm-up operations: ${warmup.firstFailure}`);
  }
  const measuredColumns = columns.filter((column) => !refusals.has(column));
  const parts = new Map(columns.map((column) => [column, { measured: [] as Array<Measured<LoopResult>>, calls: [] as RecordedRequest[], protocols: [] as ProtocolTally[] }]));
  for (let round = 1; round <= MEASURED_ROUNDS; round++) {
    context.progress(`${spec.name}: round ${round} of ${MEASURED_ROUNDS}, ${measuredOps / MEASURED_ROUNDS} operations per column`);
    for (const column of measuredColumns) {
      const part = parts.get(column)!;
      await driver.call('resetRequests', null);
      part.measured.push(await measureServer(() => driver.call('loop', { target: column.target, options: loopOptions(measuredOps / MEASURED_ROUNDS) }), column.meter));
      part.calls.push(...(await driver.call('requests', null)));
      part.protocols.push(await driver.call('protocols', null));
    }
  }
  const phases: Phase[] = columns.map((column) => {
    const { measured: measuredParts, calls } = parts.get(column)!;
    const measured = combineMeasured(measuredParts);
    const { result: loop } = measured;
    const refusal = refusals.get(column);
    if (loop.failures > 0) report.failures.push(`${column.label}: ${loop.failures} of ${loop.ops} operations failed: ${loop.firstFailure}`);
    return {
      label: column.label,
      loop,
      // The REST client runs in the driver: the bench process's CPU meanwhile is not its.
      ...(column.target.kind === 'graphql' && !refusal ? { measured } : {}),
      calls,
      callsPerOp: loop.ops > 0 ? calls.length / loop.ops : Number.NaN,
      latency: summarize(loop.latenciesMs),
      ...(refusal ? { refusal } : {}),
    };
  });
  await driver.call('resetRequests', null);
  const [gateway, off, naiveBff, waterfallServer, rest, tailcallPhase] = phases as [Phase, Phase, Phase, Phase, Phase, Phase | undefined];
  if (options.trace && !gateway.refusal) {
    const traced = () => driver.call('loop', { target: columns[0]!.target, options: loopOptions(1) });
    // One operation first, untraced, so that the traced one finds what the measured ones found:
    // its upstream connections open and its code warm after the other columns' rounds.
    await traced();
    report.notes.push(...(await batched.trace(context.simulator.origin, options.latencyMs, traced)));
  }

  // Each GraphQL column's data must be REST's; the minimum is counted from whichever answered.
  const dataOf = (phase: Phase) => (phase.loop.sample as { data?: TData } | undefined)?.data;
  for (const phase of [gateway, off, naiveBff]) {
    const data = dataOf(phase);
    const difference = data === undefined ? undefined : spec.difference(data, rest.loop.sample);
    if (difference) report.failures.push(`the ${phase.label}'s data differs from REST's: ${difference}`);
  }
  const tailcallData = tailcallPhase && (tailcallPhase.loop.sample as { data?: unknown } | undefined)?.data;
  const tailcallDifference = tailcallData === undefined ? undefined : spec.tailcall?.difference(tailcallData, rest.loop.sample);
  if (tailcallDifference) report.failures.push(`Tailcall's data differs from REST's: ${tailcallDifference}`);
  const data = dataOf(gateway) ?? dataOf(naiveBff);
  if (data === undefined) {
    report.failures.push('no successful GraphQL response to check');
    return report;
  }
  const minimum = spec.minimumResources(data).size;

  // Through a GraphQL server, one client round trip on top of the REST waves.
  const floor = spec.waves * options.latencyMs + options.clientRttMs;
  const figure = (phase: Phase, value: (phase: Phase) => number | null): Figure => (phase.refusal ? 'refused' : value(phase));
  const each = (value: (phase: Phase) => number | null) => ({
    gateway: figure(gateway, value),
    batchingOff: figure(off, value),
    naiveBff: value(naiveBff),
    ...(tailcallPhase ? { tailcall: value(tailcallPhase) } : {}),
  });
  const passes = (test: (phase: Phase) => boolean) => !gateway.refusal && test(gateway);
  const cpuPerOp = (phase: Phase) => (phase.measured && phase.loop.ops > 0 ? phase.measured.cpuMs / phase.loop.ops : null);
  const peakMb = (phase: Phase) => (phase.measured ? phase.measured.peakRssBytes / 2 ** 20 : null);
  const p50 = (phase: Phase) => phase.latency.p50;

  const p50Budget = spec.p50Budget ?? 'floor';
  const waterfallMargin = typeof p50Budget === 'object' ? p50Budget.withinWaterfall : undefined;
  const p50Limit = waterfallMargin === undefined ? floor * (1 + FLOOR_MARGIN) : p50(waterfallServer) * (1 + waterfallMargin);
  const p50Text =
    waterfallMargin === undefined ? `<= floor +${FLOOR_MARGIN * 100}% (${p50Limit.toFixed(0)})` : `<= waterfall server +${waterfallMargin * 100}% (${p50Limit.toFixed(1)})`;
  // With no added latency the floor is 0, and a margin of 0 means nothing.
  const holdsP50 = waterfallMargin !== undefined || (p50Budget === 'floor' && floor > 0);
  const fasterThanRest = spec.fasterThanRest;
  const holdsFasterThanRest = fasterThanRest && options.clientRttMs >= fasterThanRest.clientRttMs && options.latencyMs <= fasterThanRest.latencyMs;

  const settingsName = options.gatewaySettings === 'defaults' ? 'the shipped defaults' : 'the bench settings';
  const rows: Row[] = [];
  if (gateway.refusal) {
    rows.push({
      metric: 'REST-call estimate',
      unit: 'calls',
      gateway: gateway.refusal.estimate,
      batchingOff: off.refusal?.estimate ?? null,
      floor: minimum,
      budget: { text: `<= MAX_REST_CALLS (${gateway.refusal.limit ?? '?'}): refused by ${settingsName}`, pass: false },
    });
  }
  rows.push(
    { metric: 'REST calls / op', unit: 'calls', ...each((phase) => phase.callsPerOp), baseline: rest.callsPerOp, floor: minimum, budget: { text: `= min (${minimum})`, pass: passes((phase) => phase.callsPerOp === minimum) } },
    {
      metric: 'latency p50',
      unit: 'ms',
      ...each(p50),
      baseline: rest.latency.p50,
      floor,
      ...(holdsP50 ? { budget: { text: p50Text, pass: passes((phase) => phase.latency.p50 <= p50Limit) } } : {}),
    },
    { metric: 'latency p99', unit: 'ms', ...each((phase) => phase.latency.p99), baseline: rest.latency.p99, floor },
    // The least a server process does for the page here (../rest-waterfall-server.ts), and what the
    // GraphQL servers take above it.
    { metric: 'waterfall server p50', unit: 'ms', gateway: null, baseline: p50(waterfallServer), floor },
    { metric: 'p50 - waterfall server', unit: 'ms', ...each((phase) => p50(phase) - p50(waterfallServer)) },
  );
  if (spec.naiveBffRatio !== undefined) {
    const ratio = spec.naiveBffRatio;
    rows.push({
      metric: 'p50 / naive BFF p50',
      unit: 'x',
      gateway: figure(gateway, (phase) => p50(phase) / p50(naiveBff)),
      batchingOff: figure(off, (phase) => p50(phase) / p50(naiveBff)),
      ...(tailcallPhase ? { tailcall: p50(tailcallPhase) / p50(naiveBff) } : {}),
      budget: { text: `<= ${ratio}`, pass: passes((phase) => p50(phase) / p50(naiveBff) <= ratio) },
    });
  }
  if (fasterThanRest) {
    rows.push({
      metric: 'REST client p50 / p50',
      unit: 'x',
      ...each((phase) => p50(rest) / p50(phase)),
      ...(holdsFasterThanRest
        ? { budget: fasterThanRestBudget(fasterThanRest.ofWaterfall, p50(rest) / p50(waterfallServer), options, (ratio) => passes((phase) => p50(rest) / p50(phase) >= ratio)) }
        : {}),
    });
  }
  rows.push({ metric: 'CPU / op', unit: 'ms', ...each(cpuPerOp) }, { metric: 'peak RSS', unit: 'MB', ...each(peakMb) });
  report.rows.push(...rows);

  const refused = phases.filter((phase) => phase.refusal);
  report.notes.push(
    ...(refused.length
      ? [
          `${refused.map((phase) => phase.label).join(', ')}: refused by ${settingsName}: ${gateway.refusal?.message ?? off.refusal?.message} (LIMIT_EXCEEDED).` +
            (options.gatewaySettings === 'defaults' ? ' --gateway-settings bench measures it with the limits raised.' : ''),
        ]
      : []),
    `Minimum REST calls: ${spec.minimumRule}`,
    `${measuredOps} sequential operations per column after ${warmupOps} warm-up ones, in ${MEASURED_ROUNDS} rounds through the columns in turn; ${options.latencyMs} ms added to each REST call; floor = ${spec.waves} dependent REST waves x ${options.latencyMs} ms${options.clientRttMs ? ` + one client round trip of ${options.clientRttMs} ms` : ''}.`,
    ...(options.clientRttMs ? [`Client round trip: ${options.clientRttMs} ms before each request the client sends, one per operation through a GraphQL server, one per REST call for the REST client.`] : []),
    ...(fasterThanRest && !holdsFasterThanRest
      ? [`REST client p50 / p50 is held to >= ${fasterThanRest.ofWaterfall} x the REST waterfall server's only with --client-rtt ${fasterThanRest.clientRttMs} --latency ${fasterThanRest.latencyMs} (or more round trip, less latency): on loopback both need the same dependent waves.`]
      : []),
    options.upstreamH2
      ? `Upstream pool: ${options.upstreamConnections} connections for every column alike, over TLS offering h2 (--upstream-h2), up to ${STREAMS_PER_CONNECTION} streams each; the naive BFF through undici's fetch (RESTDataSource's default, node-fetch, speaks HTTP/1.1 only).`
      : `Upstream pool: ${options.upstreamConnections} connections for every column alike, plain HTTP/1.1.`,
    protocolNote(measuredColumns.map((column) => ({ label: column.label, tallies: parts.get(column)!.protocols }))),
    `REST waterfall server: the REST client's function (the baseline's level-by-level calls) served over HTTP by a plain node:http server in a process of its own, no GraphQL: what any server process in front of REST takes for this page on this machine (p50 ${p50(waterfallServer).toFixed(1)} ms, p99 ${waterfallServer.latency.p99.toFixed(1)} ms, CPU / op ${cpuPerOp(waterfallServer)?.toFixed(1) ?? '-'} ms). Its p50 above the floor is the process hop's and the v4 server's; the GraphQL servers' p50 above its, the row "p50 - waterfall server", is what GraphQL and each server add.`,
    `CPU / op and peak RSS: each GraphQL server's own process's (the gateway, the gateway with batching off and the naive BFF, each started fresh for this scenario), measured there the same way${tailcallPhase ? "; Tailcall's from /proc/<pid>/stat" : ''}.`,
    `Driver process CPU (v4 server + client), in cores: ${phases
      .filter((phase) => !phase.refusal)
      .map((phase) => `${phase.label} ${(phase.loop.driverCpuMs / phase.loop.elapsedMs).toFixed(2)}`)
      .join(', ')}.`,
  );
  report.details = {
    minimumRestCalls: minimum,
    waves: spec.waves,
    floorMs: floor,
    gatewaySettings: options.gatewaySettings,
    phases: phases.map((phase) => ({
      label: phase.label,
      ...(phase.refusal ? { refused: phase.refusal } : {}),
      ops: phase.loop.ops,
      failures: phase.loop.failures,
      restCallsPerOp: phase.callsPerOp,
      distinctRestResources: new Set(phase.calls.map((call) => `${call.method} ${call.path}`)).size,
      latencyMs: phase.latency,
      cpuMsPerOp: cpuPerOp(phase),
      driverLoad: phase.loop.driverCpuMs / phase.loop.elapsedMs,
      peakRssBytes: phase.measured?.peakRssBytes ?? null,
    })),
  };
  return report;
}
