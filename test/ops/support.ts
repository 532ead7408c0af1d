import { createLogger, type LogLevel } from '../../src/observability/logger.js';
import type { GraphQLResponse } from '../support/gateway.js';

/** A log line as pino writes it. */
export type LogLine = Record<string, unknown> & { level: number; msg: string };

/** The real pino logger of the gateway, writing into memory instead of stdout. */
export function logCollector(level: LogLevel = 'debug') {
  const chunks: string[] = [];
  const logger = createLogger({ level, destination: { write: (line: string) => void chunks.push(line) } });
  return {
    logger,
    /** Everything written, as it would have reached stdout. */
    text: () => chunks.join(''),
    lines: (): LogLine[] =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as LogLine),
    clear: () => void chunks.splice(0),
  };
}

/** A GraphQL POST with headers of the test's choosing; the answer with its status and headers. */
export async function postGraphQL<TData = Record<string, unknown>>(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as GraphQLResponse<TData> };
}

/**
 * One sample of the Prometheus text exposition: the value of `name` with exactly these labels (in
 * any order), or undefined when there is no such sample.
 */
export function metricSample(exposition: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .sort()
    .join(',');
  for (const line of exposition.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ?? '')
      .split(/,(?=\w+=")/)
      .filter(Boolean)
      .sort()
      .join(',');
    if (have === wanted) return Number(match[3]);
  }
  return undefined;
}
