// The control API under /__simulator, so that a separately started simulator can be driven
// (bench, manual use). It is outside /api/v4: never recorded, delayed or faulted.
import type { FaultRegistry, FaultSpec } from './faults.js';
import type { RateLimiter } from './rate-limits.js';
import type { ApiResponse } from './response.js';

export interface RecordedRequest {
  method: string;
  /** Raw (encoded) path after /api/v4, e.g. `/projects/gitlab-org%2Fgitlab/runners`. */
  path: string;
  /** The query as sent: repeated keys become arrays, keys keep their brackets (`tag_list[]`). */
  query: Record<string, string | string[]>;
}

/**
 * When an /api/v4 request arrived and when its answer was sent, in the order they happened, with
 * the caller's X-Request-Id: from it a test works out how many calls each of the gateway's
 * operations had in flight at every moment, by counting, without reading a clock.
 */
export interface TrafficEvent {
  event: 'arrived' | 'answered';
  /** The X-Request-Id the caller sent, or undefined. */
  requestId: string | undefined;
  method: string;
  path: string;
  /** `1.1` or `2.0`, as the request came. */
  httpVersion: string;
  /**
   * Which connection (TCP or TLS) the request came over, numbered from 1 as they open: the calls
   * of one HTTP/2 connection share it, each HTTP/1.1 connection has its own.
   */
  connection: number;
}

/**
 * The most entries each log keeps: `npm start` runs the embedded server for days, and a log that
 * only grows would be a leak. Past it the older half goes; a test or bench run resets long before.
 */
const MAX_LOG_ENTRIES = 100_000;

export function appendToLog<T>(log: T[], entry: T): void {
  if (log.length >= MAX_LOG_ENTRIES) log.splice(0, MAX_LOG_ENTRIES / 2);
  log.push(entry);
}

export interface ControlTarget {
  requests: RecordedRequest[];
  traffic: TrafficEvent[];
  faults: FaultRegistry;
  /** GitLab's user and IP throttles (off unless set). */
  rateLimits: RateLimiter;
  latencyMs(): number;
  setLatency(ms: number): void;
}

const KINDS = new Set(['status', 'timeout', 'malformed', 'close']);

function bad(message: string): ApiResponse {
  return { status: 400, json: { error: message } };
}

function parseJson(body: Buffer): unknown {
  if (body.length === 0) return {};
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

function faultFromJson(input: unknown): FaultSpec | string {
  if (typeof input !== 'object' || input === null) return 'body must be a JSON object';
  const o = input as Record<string, unknown>;
  if (typeof o['kind'] !== 'string' || !KINDS.has(o['kind'])) return 'kind must be status, timeout, malformed or close';
  let path: string | RegExp;
  const rawPath = o['path'];
  if (typeof rawPath === 'string') path = rawPath;
  else if (typeof rawPath === 'object' && rawPath !== null && typeof (rawPath as Record<string, unknown>)['regex'] === 'string') {
    const { regex, flags } = rawPath as { regex: string; flags?: unknown };
    try {
      path = new RegExp(regex, typeof flags === 'string' ? flags : undefined);
    } catch {
      return 'path.regex is not a valid regular expression';
    }
  } else return 'path must be a string or {"regex": "..."}';
  const spec: FaultSpec = { kind: o['kind'] as FaultSpec['kind'], path };
  if (typeof o['method'] === 'string') spec.method = o['method'];
  if (typeof o['status'] === 'number') spec.status = o['status'];
  if ('body' in o) spec.body = o['body'];
  if (typeof o['headers'] === 'object' && o['headers'] !== null) spec.headers = o['headers'] as Record<string, string>;
  if (typeof o['times'] === 'number') spec.times = o['times'];
  return spec;
}

/** `{"authenticated": {"requests": 7200, "periodSeconds": 3600}, "unauthenticated": {...}}`, or `null` for off. */
function putRateLimits(target: ControlTarget, input: unknown): ApiResponse {
  if (input !== null && (typeof input !== 'object' || Array.isArray(input))) return bad('body must be a JSON object or null');
  try {
    target.rateLimits.set(input ?? undefined);
  } catch (error) {
    if (error instanceof RangeError) return bad(error.message);
    throw error;
  }
  return { status: 200, json: target.rateLimits.limits() ?? null };
}

export function handleControl(target: ControlTarget, method: string, path: string, body: Buffer): ApiResponse {
  const route = `${method} ${path.replace(/\/+$/, '')}`;
  if (route === 'GET /__simulator/requests') return { status: 200, json: target.requests };
  if (route === 'POST /__simulator/reset') {
    target.requests.length = 0;
    target.traffic.length = 0;
    return { status: 204 };
  }
  if (route === 'GET /__simulator/latency') return { status: 200, json: { ms: target.latencyMs() } };
  if (route === 'PUT /__simulator/latency') {
    const input = parseJson(body) as { ms?: unknown } | undefined;
    const ms = input?.ms;
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return bad('ms must be a number >= 0');
    target.setLatency(ms);
    return { status: 200, json: { ms } };
  }
  if (route === 'GET /__simulator/rate-limits') return { status: 200, json: target.rateLimits.limits() ?? null };
  if (route === 'PUT /__simulator/rate-limits') return putRateLimits(target, parseJson(body));
  if (route === 'GET /__simulator/faults') {
    return {
      status: 200,
      json: target.faults.list().map((f) => ({
        ...f,
        path: typeof f.path === 'string' ? f.path : { regex: f.path.source, flags: f.path.flags },
        remaining: Number.isFinite(f.remaining) ? f.remaining : null,
      })),
    };
  }
  if (route === 'POST /__simulator/faults') {
    const spec = faultFromJson(parseJson(body));
    if (typeof spec === 'string') return bad(spec);
    return { status: 201, json: { id: target.faults.add(spec) } };
  }
  if (route === 'DELETE /__simulator/faults') {
    target.faults.clear();
    return { status: 204 };
  }
  const single = /^DELETE \/__simulator\/faults\/([^/]+)$/.exec(route);
  if (single?.[1]) {
    return target.faults.remove(decodeURIComponent(single[1])) ? { status: 204 } : { status: 404, json: { error: '404 Not Found' } };
  }
  return { status: 404, json: { error: '404 Not Found' } };
}
