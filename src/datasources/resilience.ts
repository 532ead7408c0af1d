/**
 * How the REST transport rides out a failing upstream (issue "Hardening"): reads are retried a
 * few times with jittered backoff, and a circuit breaker stops sending to an upstream that keeps
 * failing, so callers fail fast instead of queueing behind timeouts, and it heals by itself.
 */

export interface RetryPolicy {
  /** Attempts in all, the first included (1 = no retry). */
  attempts: number;
  /** Backoff before the second attempt; doubled after each further one, with ±50% jitter. */
  baseDelayMs: number;
  /** The longest wait the client will accept, whether from backoff or from Retry-After. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 3, baseDelayMs: 100, maxDelayMs: 2_000 };

/** Statuses that say "try again later": rate limits and an overloaded or restarting upstream. */
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/** Only reads are retried: a write that timed out may have happened, and must not happen twice. */
export function isRetryableMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

export function isRetryableStatus(status: number): boolean {
  return status === 0 || RETRYABLE_STATUSES.has(status);
}

/**
 * How long to wait before attempt `attempt + 1` (attempt counts from 1), or null when waiting
 * would exceed the policy: a Retry-After longer than `maxDelayMs` is reported, not slept through.
 */
export function retryDelayMs(policy: RetryPolicy, attempt: number, retryAfterSeconds: number | undefined, random: () => number = Math.random): number | null {
  if (retryAfterSeconds !== undefined) {
    const wait = retryAfterSeconds * 1000;
    return wait <= policy.maxDelayMs ? wait : null;
  }
  const exponential = policy.baseDelayMs * 2 ** (attempt - 1);
  return Math.min(policy.maxDelayMs, Math.round(exponential * (0.5 + random())));
}

export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. */
  failureThreshold: number;
  /** How long an open circuit refuses calls before it lets one trial call through. */
  cooldownMs: number;
}

export const DEFAULT_CIRCUIT_BREAKER: CircuitBreakerOptions = { failureThreshold: 5, cooldownMs: 5_000 };

/**
 * One breaker per upstream. Closed: calls pass, failures are counted. Open: calls are refused
 * until the cooldown ends. Half-open: one trial call passes; its success closes the circuit, its
 * failure opens it again. Only upstream faults count (no answer, 502-504), never a 4xx.
 */
export class CircuitBreaker {
  private failures = 0;
  private openedAt: number | null = null;
  private trialInFlight = false;

  constructor(
    private readonly options: CircuitBreakerOptions,
    private readonly now: () => number = () => Date.now(),
  ) {}

  get state(): 'closed' | 'open' | 'half-open' {
    if (this.openedAt === null) return 'closed';
    return this.now() - this.openedAt >= this.options.cooldownMs ? 'half-open' : 'open';
  }

  /** Whether a call may go out now; in half-open state only one trial at a time. */
  allow(): boolean {
    const state = this.state;
    if (state === 'closed') return true;
    if (state === 'open' || this.trialInFlight) return false;
    this.trialInFlight = true;
    return true;
  }

  recordSuccess(): void {
    this.failures = 0;
    this.openedAt = null;
    this.trialInFlight = false;
  }

  recordFailure(): void {
    this.trialInFlight = false;
    this.failures += 1;
    if (this.openedAt !== null || this.failures >= this.options.failureThreshold) this.openedAt = this.now();
  }

  /** The outcome of a call that says nothing about the upstream's health (a 4xx, for instance). */
  recordNeutral(): void {
    this.trialInFlight = false;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
