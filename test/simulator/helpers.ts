// Small HTTP helpers for the simulator tests: real requests with global fetch.
import type { Simulator } from '../../simulator/index.js';

export interface CallOptions {
  method?: string;
  token?: string;
  headers?: Record<string, string>;
  json?: unknown;
  form?: string;
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed body; undefined for an empty body. */
  body: unknown;
}

/** Calls `${sim.url}${path}`; `path` is sent raw (keep `%2F` encoded yourself). */
export async function call(sim: Simulator, path: string, options: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers['PRIVATE-TOKEN'] = options.token;
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form !== undefined) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = options.form;
  }
  const response = await fetch(`${sim.url}${path}`, { method: options.method ?? 'GET', headers, body });
  const text = await response.text();
  let parsed: unknown;
  if (text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** The body as a list of records (fails the test if it is not an array). */
export function list(result: CallResult): Record<string, unknown>[] {
  if (!Array.isArray(result.body)) throw new Error(`expected an array, got ${result.text.slice(0, 200)}`);
  return result.body as Record<string, unknown>[];
}

/** The body as a record. */
export function record(result: CallResult): Record<string, unknown> {
  if (typeof result.body !== 'object' || result.body === null || Array.isArray(result.body)) {
    throw new Error(`expected an object, got ${result.text.slice(0, 200)}`);
  }
  return result.body as Record<string, unknown>;
}

export function ids(result: CallResult): number[] {
  return list(result).map((item) => item['id'] as number);
}
