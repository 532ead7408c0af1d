import type { GraphQLError } from 'graphql';
import type { Credential } from '../datasources/credentials.js';
import type { UpstreamQuota } from '../datasources/upstream-quota.js';
import { rateLimited } from '../errors/graphql-errors.js';

/**
 * The admission's upstream step (admission.ts): an operation whose REST-call estimate the calls
 * GitLab still allows its credential (known remaining, less the calls in flight) would not cover
 * before the window resets is refused at once, RATE_LIMITED with `retryAfter` (the seconds until the
 * reset), rather than sending calls GitLab would answer 429. Unknown figures (no answer with
 * GitLab's headers yet, or a reset already past) admit.
 */
export class UpstreamQuotaAdmission {
  constructor(
    private readonly quota: UpstreamQuota,
    /** The credential an operation without one of its own runs with (the service token), or null. */
    private readonly fallback: Credential | null,
  ) {}

  /**
   * Throws the refusal when the estimate does not fit. `own`: the caller's own credential, null
   * without one (its calls go with the fallback); undefined when the transport did not say, and then
   * nothing is checked (the calls' own pacing still applies).
   */
  check(own: Credential | null | undefined, estimate: number): void {
    if (own === undefined) return;
    const retryAfter = this.quota.refusal(own ?? this.fallback, estimate);
    if (retryAfter !== undefined) throw upstreamRateLimited(retryAfter, estimate);
  }
}

/**
 * The refusal, as GitLab answers past its limit: over HTTP a request of one operation is answered
 * 429 with a `Retry-After` header (Apollo takes both from `extensions.http`); in a batch, or over
 * WebSocket, the operation's error carries `retryAfter`.
 */
export function upstreamRateLimited(retryAfter: number, estimate: number): GraphQLError {
  return rateLimited(
    `GitLab's rate limit leaves this credential fewer calls than the operation may need (up to ${estimate}) before its window resets; nothing was sent. Retry after ${retryAfter} s.`,
    retryAfter,
    { refusesOperation: true },
  );
}
