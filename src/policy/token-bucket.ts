/**
 * A token bucket: up to `burst` at once, refilled at `perSecond`. Constant work per take, whatever
 * came before, so a flood costs each message the same as the first.
 */
export class TokenBucket {
  private tokens: number;
  private refilledAt: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    now: number = performance.now(),
  ) {
    this.tokens = burst;
    this.refilledAt = now;
  }

  /** Takes one token if there is one; false when the bucket is empty. */
  take(now: number = performance.now()): boolean {
    if (this.level(now) < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** The tokens held now (refilled first); below zero after an overdraft (`spend`). */
  level(now: number = performance.now()): number {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) * this.perSecond) / 1000);
    this.refilledAt = now;
    return this.tokens;
  }

  /** Takes `amount` whatever is left: what was already spent is paid back by waiting for the refill. */
  spend(amount: number, now: number = performance.now()): void {
    this.tokens = this.level(now) - amount;
  }

  /** Whole seconds, at least 1, until the bucket holds one token again. */
  secondsUntilToken(now: number = performance.now()): number {
    return Math.max(1, Math.ceil((1 - this.level(now)) / this.perSecond));
  }

  /** Full again: no different from a new bucket, so one held for an idle key may be dropped. */
  isFull(now: number = performance.now()): boolean {
    return this.level(now) >= this.burst;
  }
}
