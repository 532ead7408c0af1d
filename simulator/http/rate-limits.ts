// GitLab's user and IP rate limits (rest-conventions §9; GitLab's lib/gitlab/rack_attack.rb and
// rack_attack/request_throttle_data.rb): the Rack::Attack throttles `throttle_authenticated_api`
// (per user) and `throttle_unauthenticated_api` (per client IP), off unless set. Like Rack::Attack,
// a throttle counts every request in a fixed window aligned to its period (429'd ones too) and
// refuses the ones past its limit, before any routing.

export interface RateLimit {
  /** Requests allowed per window. */
  requests: number;
  /** Window length in seconds; windows start at multiples of it (Unix time). */
  periodSeconds: number;
}

export interface SimulatorRateLimits {
  /** `throttle_authenticated_api`: per user, for requests whose credentials resolve to one. */
  authenticated?: RateLimit;
  /** `throttle_unauthenticated_api`: per client IP, for the others (no token, or one that resolves to nobody). */
  unauthenticated?: RateLimit;
}

export type ThrottleName = 'throttle_authenticated_api' | 'throttle_unauthenticated_api';

/** Who a request counts against: the user its credentials resolve to, or else its client IP. */
export interface Requester {
  userId: number | null;
  ip: string;
}

export interface ThrottleVerdict {
  /** Past the limit: answer 429 without routing. */
  throttled: boolean;
  /** RateLimit-* headers for every answer; on a 429 also Retry-After and RateLimit-ResetTime. */
  headers: Record<string, string>;
}

/** GitLab's default text for a throttled request (admins may change it; the simulator does not). */
export const THROTTLED_BODY = 'Retry later';

interface Throttle {
  name: ThrottleName;
  limit: RateLimit;
  /** The window the counts belong to: floor(now / period). */
  window: number;
  /** Requests per discriminator (user id or IP) in that window. */
  counts: Map<string, number>;
}

function throttleOf(name: ThrottleName, limit: RateLimit | undefined): Throttle | undefined {
  return limit ? { name, limit: { requests: limit.requests, periodSeconds: limit.periodSeconds }, window: -1, counts: new Map() } : undefined;
}

function checkLimit(limit: RateLimit, which: string): void {
  if (!Number.isSafeInteger(limit.requests) || limit.requests < 1) {
    throw new RangeError(`rate limit ${which}: requests must be a positive integer, got ${limit.requests}`);
  }
  if (!Number.isSafeInteger(limit.periodSeconds) || limit.periodSeconds < 1) {
    throw new RangeError(`rate limit ${which}: periodSeconds must be a positive integer, got ${limit.periodSeconds}`);
  }
}

/**
 * The headers of RequestThrottleData. `RateLimit-Limit` is GitLab's `rounded_limit`, the quota
 * normalised to a 60-second period and rounded up (`(limit * 60 / period).ceil`: 7200 per 3600 s
 * reads 120), because the docs call it "the request quota for the client each minute" and that is
 * the figure GitLab sends (HAProxy's convention). `RateLimit-Remaining`, though, is the configured
 * limit minus Observed, never below 0, as GitLab computes it: so with a period other than a minute
 * Remaining can exceed Limit, and a client must pace on Remaining and Reset, not on Limit.
 */
function headersOf(throttle: Throttle, observed: number, nowSeconds: number, throttled: boolean): Record<string, string> {
  const { requests, periodSeconds } = throttle.limit;
  const retryAfter = periodSeconds - (nowSeconds % periodSeconds);
  const reset = nowSeconds + retryAfter;
  const headers: Record<string, string> = {
    'RateLimit-Name': throttle.name,
    'RateLimit-Limit': String(Math.ceil((requests * 60) / periodSeconds)),
    'RateLimit-Observed': String(observed),
    'RateLimit-Remaining': String(Math.max(0, requests - observed)),
    'RateLimit-Reset': String(reset),
  };
  if (!throttled) return headers;
  return { ...headers, 'Retry-After': String(retryAfter), 'RateLimit-ResetTime': new Date(reset * 1000).toUTCString() };
}

export class RateLimiter {
  private authenticated: Throttle | undefined;
  private unauthenticated: Throttle | undefined;

  constructor(limits?: SimulatorRateLimits) {
    this.set(limits);
  }

  /** Replaces the limits (undefined: off) and forgets every count. */
  set(limits: SimulatorRateLimits | undefined): void {
    if (limits?.authenticated) checkLimit(limits.authenticated, 'authenticated');
    if (limits?.unauthenticated) checkLimit(limits.unauthenticated, 'unauthenticated');
    this.authenticated = throttleOf('throttle_authenticated_api', limits?.authenticated);
    this.unauthenticated = throttleOf('throttle_unauthenticated_api', limits?.unauthenticated);
  }

  /** The limits in force; undefined when both are off. */
  limits(): SimulatorRateLimits | undefined {
    if (!this.authenticated && !this.unauthenticated) return undefined;
    const limits: SimulatorRateLimits = {};
    if (this.authenticated) limits.authenticated = { ...this.authenticated.limit };
    if (this.unauthenticated) limits.unauthenticated = { ...this.unauthenticated.limit };
    return limits;
  }

  /** How many users and IPs the counts remember (only those seen in the current windows). */
  trackedKeys(): number {
    return (this.authenticated?.counts.size ?? 0) + (this.unauthenticated?.counts.size ?? 0);
  }

  /**
   * Counts the request against the throttle that applies to it, as Rack::Attack does: the user
   * throttle keys on the user id when the credentials resolve to a user, else the IP throttle keys
   * on the client address. Undefined when no throttle applies (that one is off).
   */
  check(requester: Requester): ThrottleVerdict | undefined {
    const throttle = requester.userId !== null ? this.authenticated : this.unauthenticated;
    if (!throttle) return undefined;
    const discriminator = requester.userId !== null ? `user:${requester.userId}` : `ip:${requester.ip}`;
    const nowSeconds = Math.floor(Date.now() / 1000);
    const window = Math.floor(nowSeconds / throttle.limit.periodSeconds);
    // A new window starts every count from zero, so the old window's keys all go at once: the
    // memory held is the users and IPs seen in one window, however long the server runs.
    if (window !== throttle.window) {
      throttle.window = window;
      throttle.counts = new Map();
    }
    const observed = (throttle.counts.get(discriminator) ?? 0) + 1;
    throttle.counts.set(discriminator, observed);
    const throttled = observed > throttle.limit.requests;
    return { throttled, headers: headersOf(throttle, observed, nowSeconds, throttled) };
  }
}

/**
 * `7200/3600` (requests/periodSeconds), as SIMULATOR_RATE_LIMIT_AUTHENTICATED and
 * SIMULATOR_RATE_LIMIT_UNAUTHENTICATED take it; undefined for an empty value. Throws on anything else.
 */
export function parseRateLimit(text: string | undefined): RateLimit | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!match) throw new RangeError(`a rate limit is written requests/periodSeconds (e.g. 7200/3600), got "${text}"`);
  const limit = { requests: Number(match[1]), periodSeconds: Number(match[2]) };
  checkLimit(limit, `"${text}"`);
  return limit;
}
