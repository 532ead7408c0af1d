import type { GraphQLError } from 'graphql';
import type { Credential } from '../datasources/credentials.js';
import { rateLimited } from '../errors/graphql-errors.js';
import type { CredentialDigest } from '../shared-state/credential-digest.js';
import { sharedOrLocal } from '../shared-state/fallback.js';
import type { RedisLink } from '../shared-state/redis-link.js';
import { RedisCallerBuckets } from '../shared-state/caller-bucket-store.js';
import { MemoryCallerBuckets, type BucketFigures, type BucketRefusal, type CallerBucketStore, type CallerLimitKind } from './caller-buckets.js';

/**
 * The gateway's own limits on each caller (createGateway's `callerLimits`, the CALLER_* and
 * ANONYMOUS_* settings): operations per second and REST calls per minute, per credential, and per
 * address for callers without a credential of their own. Off unless a figure is given.
 */
export interface CallerLimitOptions {
  /** Operations a caller with a credential may send per second on average; 0 or absent: no limit. */
  operationsPerSecond?: number;
  /** Operations such a caller may send at once before its rate holds it (default: one second's worth). */
  operationBurst?: number;
  /** REST calls such a caller's operations may really make per minute; 0 or absent: no limit. */
  restCallsPerMinute?: number;
  /**
   * Callers without a credential of their own, counted per address: figures of their own (one
   * address may be many people behind a NAT, or an attacker's one of many), each absent or 0
   * meaning the same as with a credential. Their burst is one second's worth of their rate.
   */
  anonymous?: { operationsPerSecond?: number; restCallsPerMinute?: number };
}

/** Who sent an operation, as the transports know it: the credential it carries of its own (not the service token), and the socket's address. */
export interface CallerIdentity {
  credential: Credential | null;
  address?: string | undefined;
}

export interface CallerLimitDependencies {
  /** Names a credential without holding it (the digest shared by replicas when there is Redis). */
  digest: CredentialDigest;
  /** Redis shared by the replicas: one bucket per caller for all of them; memory while it is down. */
  link?: RedisLink | undefined;
  onFallback?: (() => void) | undefined;
  /** Told of each refusal, for the metrics. */
  onRefusal?: (limit: CallerLimitKind, anonymous: boolean) => void;
  /** A store of the test's own (a clock of its own, a small bound). */
  memory?: MemoryCallerBuckets;
}

/**
 * The limits in force, or undefined when every figure is 0: then no step is added to the
 * admission and no REST call is counted for them.
 */
export function createCallerLimits(options: CallerLimitOptions | undefined, dependencies: CallerLimitDependencies): CallerLimits | undefined {
  const credential = figuresOf(options?.operationsPerSecond, options?.operationBurst, options?.restCallsPerMinute);
  const anonymousRate = options?.anonymous?.operationsPerSecond;
  const anonymous = figuresOf(
    anonymousRate || credential.operationsPerSecond,
    anonymousRate ? anonymousRate : credential.operationBurst,
    options?.anonymous?.restCallsPerMinute || credential.restCallsPerMinute,
  );
  const off = (figures: BucketFigures) => figures.operationsPerSecond === 0 && figures.restCallsPerMinute === 0;
  return off(credential) && off(anonymous) ? undefined : new CallerLimits({ credential, anonymous }, dependencies);
}

function figuresOf(perSecond = 0, burst = 0, perMinute = 0): BucketFigures {
  return { operationsPerSecond: perSecond, operationBurst: perSecond === 0 ? 0 : Math.max(1, burst || Math.ceil(perSecond)), restCallsPerMinute: perMinute };
}

/**
 * The admission's caller step (admission.ts) and the REST calls' debit (server/context.ts).
 *
 * An operation is admitted while its caller has an operation left and at least one REST call: the
 * REST calls it then makes are taken as they are made, which may overdraw the bucket (the
 * estimate is a ceiling most operations stay far below, and would refuse callers whose real use
 * fits); an overdrawn caller waits until the bucket has refilled past the overdraft, and
 * `retryAfter` says how long.
 */
export class CallerLimits {
  private readonly memory: MemoryCallerBuckets;
  private readonly shared: CallerBucketStore | undefined;
  /** REST calls made but not yet sent to Redis, by key: one script per caller per turn of the event loop, not one per call. */
  private readonly unsent = new Map<string, { figures: BucketFigures; calls: number }>();

  constructor(
    private readonly figures: { credential: BucketFigures; anonymous: BucketFigures },
    private readonly dependencies: CallerLimitDependencies,
  ) {
    this.memory = dependencies.memory ?? new MemoryCallerBuckets();
    this.shared = dependencies.link ? new RedisCallerBuckets(dependencies.link) : undefined;
  }

  /** Takes an operation for `caller`, or throws RATE_LIMITED; at once in memory, after Redis answers with Redis. */
  admit(caller: CallerIdentity): void | Promise<void> {
    const { key, figures, anonymous } = this.bucketOf(caller);
    const refused = (refusal: BucketRefusal | undefined) => {
      if (!refusal) return;
      this.dependencies.onRefusal?.(refusal.limit, anonymous);
      throw callerRateLimited(refusal, figures, anonymous);
    };
    const { link, onFallback = () => undefined } = this.dependencies;
    if (!this.shared || !link) return refused(this.memory.take(key, figures));
    const shared = this.shared;
    return sharedOrLocal(link, async () => shared.take(key, figures), () => this.memory.take(key, figures), onFallback).then(refused);
  }

  /** REST calls `caller`'s operation made: taken from its bucket (never refused: the calls are made). */
  spent(caller: CallerIdentity, restCalls: number): void {
    const { key, figures } = this.bucketOf(caller);
    if (figures.restCallsPerMinute === 0) return;
    if (!this.shared) {
      this.memory.spend(key, figures, restCalls);
      return;
    }
    const unsent = this.unsent.get(key);
    if (unsent) {
      unsent.calls += restCalls;
      return;
    }
    if (this.unsent.size === 0) setImmediate(() => this.sendSpent());
    this.unsent.set(key, { figures, calls: restCalls });
  }

  private sendSpent(): void {
    const { link, onFallback = () => undefined } = this.dependencies;
    const shared = this.shared!;
    for (const [key, { figures, calls }] of this.unsent) {
      void sharedOrLocal(link!, async () => shared.spend(key, figures, calls), () => this.memory.spend(key, figures, calls), onFallback);
    }
    this.unsent.clear();
  }

  private bucketOf({ credential, address }: CallerIdentity): { key: string; figures: BucketFigures; anonymous: boolean } {
    if (credential) return { key: `credential:${this.dependencies.digest(credential)}`, figures: this.figures.credential, anonymous: false };
    return { key: `address:${addressKey(address)}`, figures: this.figures.anonymous, anonymous: true };
  }
}

/** RATE_LIMITED, with the seconds to wait in `retryAfter` and, over HTTP, 429 and a Retry-After header. */
export function callerRateLimited({ limit, retryAfter }: BucketRefusal, figures: BucketFigures, anonymous: boolean): GraphQLError {
  const who = anonymous ? 'address (no credential)' : 'credential';
  const message =
    limit === 'operations'
      ? `Too many operations from this ${who}: at most ${figures.operationsPerSecond} per second (${figures.operationBurst} at once); retry after ${retryAfter} s.`
      : `This ${who}'s operations made more REST calls than the ${figures.restCallsPerMinute} a minute allowed; retry after ${retryAfter} s.`;
  return rateLimited(message, retryAfter, { refusesOperation: true, limit });
}

/**
 * The key of an anonymous caller's address: IPv4 as is (an IPv4-mapped IPv6 address as its IPv4),
 * IPv6 by its /64, the block one subscriber is given, so that rotating addresses within it gains
 * nothing. No address (an embedder's context without a request): one shared key.
 */
export function addressKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const plain = address.split('%')[0]!;
  if (!plain.includes(':')) return plain;
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(plain)) return plain.slice(7);
  const [head = '', tail] = plain.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => (Number.parseInt(group, 16) || 0).toString(16))
    .join(':')}::/64`;
}
