/** A day: the longest wait a Retry-After is reported as. */
const MAX_RETRY_AFTER_SECONDS = 86_400;

/**
 * A `Retry-After` header's wait in whole seconds, from 0 to a day: seconds, or an HTTP date
 * (RFC 9110 allows both); undefined when it is neither. The header is text the upstream (or a proxy)
 * chose, and `99999999999999999999999` was once reported as `retryAfterSeconds: 1e+23`. Read by the
 * REST client (the retry's wait, the error's figure) and the rate-limit ledger (upstream-quota.ts).
 */
export function retryAfterSeconds(value: string | undefined, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return reportableWait(seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : reportableWait((date - now) / 1000);
}

function reportableWait(seconds: number): number {
  return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(0, Math.ceil(seconds)));
}
