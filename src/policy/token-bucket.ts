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
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) * this.perSecond) / 1000);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
