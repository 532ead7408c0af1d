// The one table on stdout and the JSON report in bench/results/.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import type { BenchOptions, Figure, Row, Scenario, ScenarioReport, Unit } from './scenario.js';

export type ScenarioStatus = 'OK' | 'FAILED';

export interface ScenarioOutcome extends ScenarioReport {
  name: string;
  title: string;
  baseline: string;
  status: ScenarioStatus;
  durationMs: number;
  /** The bench process after the scenario and a full GC (its servers ran in processes of their own). */
  memoryAfter?: { rssBytes: number; heapUsedBytes: number };
}

export interface BenchReport {
  startedAt: string;
  finishedAt: string;
  options: BenchOptions;
  machine: { node: string; platform: string; cpus: number; cpuModel: string; memoryBytes: number; loadAverageAtStart: number[]; loadAverageAtEnd?: number[] };
  /** How the figures were taken; the same text as under the table. */
  method: string[];
  scenarios: ScenarioOutcome[];
}

export function machine(): BenchReport['machine'] {
  const list = cpus();
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: list.length,
    cpuModel: list[0]?.model ?? 'unknown',
    memoryBytes: totalmem(),
    loadAverageAtStart: loadavg(),
  };
}

/**
 * A warning when other work shared the machine: the bench's timings assume the gateway and the
 * driver have a core each. The 1-minute load average counts the bench's own two processes too.
 */
export function loadWarning(cpuCount: number): string | undefined {
  const [oneMinute = 0] = loadavg();
  return oneMinute > cpuCount + 0.5
    ? `WARNING: load average ${oneMinute.toFixed(1)} on ${cpuCount} CPUs: other processes competed for the CPU, timings are pessimistic and noisy.`
    : undefined;
}

function format(value: Figure | undefined, unit: Unit): string {
  if (value === 'refused') return value;
  if (value === null || value === undefined || !Number.isFinite(value)) return '-';
  switch (unit) {
    case 'calls':
    case 'polls':
    case 'runners':
      return Number.isInteger(value) ? String(value) : value.toFixed(1);
    case 'ops/s':
      return value.toFixed(0);
    case 'ms':
      return value < 10 ? value.toFixed(2) : value.toFixed(1);
    case 'x':
      return value.toFixed(2);
    case 'KB':
    case 'MB':
      return value.toFixed(1);
  }
}

export const LEGEND = [
  'Gateway: through the gateway, in a process of its own, with the --gateway-settings (default: as it ships). Batching off: the same with `batching: false`. refused: the gateway refused the query (LIMIT_EXCEEDED) with those settings.',
  'Naive BFF: Apollo Server 5 + @apollo/datasource-rest with hand-written resolvers, no DataLoader (bench/lib/naive-bff/), in a process of its own.',
  'Waterfall server (page scenarios): the REST client\'s calls served by a plain node:http server in a process of its own, no GraphQL (bench/lib/rest-waterfall-server.ts); its p50 is the Baseline figure of the row "waterfall server p50", and "p50 - waterfall server" is what each GraphQL server adds to it.',
  'Baseline: per scenario, below. Floor/min: the fewest REST calls the query needs, or the latency floor (dependent REST waves x added latency).',
].join('\n');

const HEADER = ['Scenario', 'Metric', 'Unit', 'Gateway', 'Batching off', 'Naive BFF', 'Baseline', 'Floor/min', 'Budget', 'Result'];
const NUMERIC = new Set([3, 4, 5, 6, 7]);
/** The Tailcall column goes after the naive BFF's, only when a row has it (--peers tailcall). */
const TAILCALL_COLUMN = 6;
const TAILCALL_LEGEND =
  "Tailcall (--peers tailcall): Tailcall's prebuilt Rust binary (bench/lib/tailcall.ts) serving bench/peers/tailcall/gitlab.graphql (its own schema: REST's fields, dedupe on, no cache, the caller's PRIVATE-TOKEN forwarded), in a process of its own; CPU time and RSS from /proc; its data mapped to the same rows and checked against REST.";

function cells(scenario: string, row: Row, withTailcall: boolean): string[] {
  const line = [
    scenario,
    row.metric,
    row.unit,
    format(row.gateway, row.unit),
    format(row.batchingOff, row.unit),
    format(row.naiveBff, row.unit),
    format(row.baseline, row.unit),
    format(row.floor, row.unit),
    row.budget?.text ?? '',
    row.budget ? (row.budget.pass ? 'PASS' : 'MISS') : '',
  ];
  if (withTailcall) line.splice(TAILCALL_COLUMN, 0, format(row.tailcall, row.unit));
  return line;
}

/** The table as plain text, with the scenarios' status and the legend under it. */
export function renderTable(outcomes: readonly ScenarioOutcome[]): string {
  const withTailcall = outcomes.some((outcome) => outcome.rows.some((row) => row.tailcall !== undefined));
  const header = withTailcall ? HEADER.toSpliced(TAILCALL_COLUMN, 0, 'Tailcall') : HEADER;
  const numeric = withTailcall ? new Set([...NUMERIC, Math.max(...NUMERIC) + 1]) : NUMERIC;
  const lines: string[][] = [header];
  for (const outcome of outcomes) {
    if (outcome.rows.length === 0) lines.push([outcome.name, '(no figures)', ...header.slice(2, -1).map(() => ''), outcome.status]);
    for (const row of outcome.rows) lines.push(cells(outcome.name, row, withTailcall));
  }
  const widths = header.map((_, column) => Math.max(...lines.map((line) => (line[column] ?? '').length)));
  const render = (line: string[]) =>
    line
      .map((cell, column) => (numeric.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  const out = [render(header), rule, ...lines.slice(1).map(render), '', LEGEND, ...(withTailcall ? [TAILCALL_LEGEND] : []), ''];
  for (const outcome of outcomes) {
    out.push(`${outcome.name}: ${outcome.status} in ${(outcome.durationMs / 1000).toFixed(1)} s. ${outcome.title}.`);
    if (outcome.baseline !== '-') out.push(`  Baseline: ${outcome.baseline}.`);
    for (const failure of outcome.failures) out.push(`  FAILED: ${failure}`);
    for (const note of outcome.notes) out.push(`  ${note}`);
  }
  return out.join('\n');
}

/** Writes bench/results/<timestamp>.json and bench/results/latest.json; returns the first path. */
export async function writeReport(report: BenchReport): Promise<string> {
  const directory = new URL('../results/', import.meta.url);
  await mkdir(directory, { recursive: true });
  const stamp = report.startedAt.replace(/[:.]/g, '-');
  const text = `${JSON.stringify(report, null, 2)}\n`;
  const file = new URL(`${stamp}.json`, directory);
  await writeFile(file, text);
  await writeFile(new URL('latest.json', directory), text);
  return file.pathname;
}

export function outcomeOf(scenario: Scenario, status: ScenarioStatus, report: ScenarioReport, durationMs: number): ScenarioOutcome {
  return { name: scenario.name, title: scenario.title, baseline: scenario.baseline, status, durationMs, ...report };
}
