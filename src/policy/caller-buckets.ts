import { TokenBucket } from './token-bucket.js';

/**
 * What one kind of caller (with a credential, or anonymous) may spend: operations per second with
 * a burst, and REST calls per minute. A rate of 0 turns that limit off.
 */
export interface BucketFigures {
  operationsPerSecond: number;
  operationBurst: number;
  restCallsPerMinute: number;
}

/** Which limit refused an operation, as `extensions.limit` and the metric's label say it. */
export type CallerLimitKind = 'operations' | 'restCalls';

/** An operation refused: by which limit, and in how many whole seconds (at least 1) it would be admitted. */
export interface BucketRefusal {
  limit: CallerLimitKind;
  retryAfter: number;
}

/**
 * The two buckets of each caller, by key (a credential's digest, or an address): `take` admits an
 * operation while the caller has an operation and at least one REST call left, and takes the
 * operation; `spend` takes the REST calls it really made, which may overdraw the bucket. Either
 * may answer at once (memory) or later (Redis).
 */
export interface CallerBucketStore {
  take(key: string, figures: BucketFigures): BucketRefusal | undefined | Promise<BucketRefusal | undefined>;
  spend(key: string, figures: BucketFigures, restCalls: number): void | Promise<void>;
}

/** Keys held at most in memory: about 300 bytes each; past it the least recently used is dropped. */
export const DEFAULT_MAX_CALLER_KEYS = 100_000;

/** Idle keys looked at per operation: each key is looked at again after as many operations as there are keys. */
const SWEPT_PER_TAKE = 2;

interface CallerEntry {
  operations: TokenBucket | undefined;
  restCalls: TokenBucket | undefined;
}

/**
 * The buckets of one process. Memory stays bounded whoever calls: a key whose buckets have filled
 * up again is no different from a key never seen, so a sweep drops such idle keys as operations
 * come (a few per operation, round the map, no timer), and past `maxKeys` the least recently used
 * key goes (that caller starts afresh: a caller rotating addresses or tokens gains nothing a new
 * key would not give it anyway).
 */
export class MemoryCallerBuckets implements CallerBucketStore {
  private readonly entries = new Map<string, CallerEntry>();
  private sweep: Iterator<[string, CallerEntry]> | undefined;

  constructor(
    private readonly maxKeys: number = DEFAULT_MAX_CALLER_KEYS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Keys held now. */
  get size(): number {
    return this.entries.size;
  }

  take(key: string, figures: BucketFigures): BucketRefusal | undefined {
    const now = this.now();
    // Before the caller's own entry is looked up: a full bucket swept after it would be taken from, unheld.
    this.sweepIdle(now);
    const { operations, restCalls } = this.entryOf(key, figures, now);
    // Both are checked before either is taken from: a refused operation costs the caller nothing.
    const waits: BucketRefusal[] = [];
    if (restCalls && restCalls.level(now) < 1) waits.push({ limit: 'restCalls', retryAfter: restCalls.secondsUntilToken(now) });
    if (operations && operations.level(now) < 1) waits.push({ limit: 'operations', retryAfter: operations.secondsUntilToken(now) });
    if (waits.length > 0) return waits.reduce((longest, wait) => (wait.retryAfter > longest.retryAfter ? wait : longest));
    operations?.take(now);
    return undefined;
  }

  spend(key: string, figures: BucketFigures, restCalls: number): void {
    if (figures.restCallsPerMinute === 0) return;
    const now = this.now();
    this.entryOf(key, figures, now).restCalls?.spend(restCalls, now);
  }

  private entryOf(key: string, figures: BucketFigures, now: number): CallerEntry {
    let entry = this.entries.get(key);
    if (entry) {
      // Most recently used last: the first key is the one to drop past maxKeys.
      this.entries.delete(key);
    } else {
      entry = {
        operations: figures.operationsPerSecond > 0 ? new TokenBucket(figures.operationsPerSecond, figures.operationBurst, now) : undefined,
        restCalls: figures.restCallsPerMinute > 0 ? new TokenBucket(figures.restCallsPerMinute / 60, figures.restCallsPerMinute, now) : undefined,
      };
      if (this.entries.size >= this.maxKeys) this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(key, entry);
    return entry;
  }

  /** Drops the next few keys round the map whose buckets are full again. */
  private sweepIdle(now: number): void {
    for (let looked = 0; looked < SWEPT_PER_TAKE; looked++) {
      this.sweep ??= this.entries.entries();
      const next = this.sweep.next();
      if (next.done) {
        this.sweep = undefined;
        return;
      }
      const [key, { operations, restCalls }] = next.value;
      if ((operations?.isFull(now) ?? true) && (restCalls?.isFull(now) ?? true)) this.entries.delete(key);
    }
  }
}
