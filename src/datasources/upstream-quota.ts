import type { Credential } from './credentials.js';
import type { CredentialDigest } from '../shared-state/credential-digest.js';
import { retryAfterSeconds } from './retry-after.js';

/**
 * GitLab's rate limits as the gateway has been told them (rest-conventions §9): for each credential,
 * the calls GitLab's throttle still allows (`RateLimit-Remaining`) until its window resets
 * (`RateLimit-Reset`), read from every REST answer and from a throttled 429. What uses it:
 * - the REST client (rest-client.ts): each call is counted in flight until its answer, and a call of
 *   a credential with nothing left before the reset is not sent (`UpstreamQuotaSpent`, paced);
 * - the admission (policy/upstream-quota-admission.ts): an operation whose estimate the remaining
 *   calls would not cover is refused before any REST call;
 * - the pollers (subscriptions/record-pollers.ts): a poller of a credential running low waits longer;
 * - the replicas (shared-state/upstream-quota-store.ts): figures that changed materially are
 *   published, and each replica merges what the others saw into its own copy;
 * - the metrics: remaining, paced and refused per credential digest.
 *
 * Figures are keyed by the keyed credential digest, never the token. Calls without a credential are
 * counted by GitLab per client IP, and every one of them leaves from the gateway's address: they
 * share the one `anonymous` entry. Two tokens of one user are two entries here though GitLab counts
 * them together (it throttles per user): each sees the other's calls in the figures GitLab sends.
 *
 * Nothing is known until GitLab sends the headers, and GitLab sends none while its throttles are off:
 * then nothing is ever refused or paced, and the hot path costs a size check (`entries.size`) per
 * call and one header lookup per answer: no digest, no allocation.
 */

/** The key of calls without a credential: GitLab counts them per IP, and the gateway has one. */
export const ANONYMOUS_QUOTA_KEY = 'anonymous';

/** What GitLab said of one credential's window: calls left, and when (epoch ms) the window resets. */
export interface QuotaFigures {
  remaining: number;
  resetAt: number;
}

/** What replicas share (shared-state/upstream-quota-store.ts): figures out, and figures asked for. */
export interface QuotaSharing {
  /** Tells the other replicas this credential's figures (they changed materially). */
  publish(digest: string, figures: QuotaFigures): void;
  /** Asks for figures another replica published; they come back through `UpstreamQuota.merge`. */
  lookUp(digest: string): void;
}

/** One credential's entry: the figures, the calls sent since that are still unanswered, and counts for the metrics. */
export interface QuotaEntry extends QuotaFigures {
  readonly digest: string;
  /** Calls sent and not yet answered: GitLab's figures do not show them yet. */
  inFlight: number;
  /** Calls not sent because nothing was left (counted for the metrics). */
  paced: number;
  /** Operations refused by the admission (counted for the metrics). */
  refused: number;
  /** Remaining when last published, and the window it belonged to: what "changed materially" is measured from. */
  published: number;
  publishedResetAt: number;
}

/** What the metrics read of one credential when scraped. */
export interface QuotaSnapshot {
  digest: string;
  remaining: number;
  paced: number;
  refused: number;
}

export interface UpstreamQuotaOptions {
  /** Names a credential without holding it (the replicas' shared digest when there is Redis). */
  digest: CredentialDigest;
  /** Credentials remembered at most; beyond, the one whose figures are oldest is dropped (default 10,000). */
  maxCredentials?: number;
  now?: () => number;
}

/** The most credentials the ledger remembers by default: about 200 bytes each. */
export const DEFAULT_MAX_QUOTA_CREDENTIALS = 10_000;

/** Polls of a credential with nothing left resume this long after its reset: GitLab's clock is not ours. */
export const RESET_MARGIN_MS = 250;

/** How long a replica waits before asking Redis again for a credential nobody had figures for. */
const LOOK_UP_AGAIN_MS = 10_000;

/**
 * A REST call not sent: its credential has no call left before GitLab's window resets. The error
 * table (errors/graphql-errors.ts) makes it a field error RATE_LIMITED with `retryAfter`; it is the
 * gateway's own refusal, never counted as an upstream fault.
 */
export class UpstreamQuotaSpent extends Error {
  constructor(readonly retryAfter: number) {
    super(`GitLab's rate limit for this credential is used up until its window resets; the call was not sent. Retry after ${retryAfter} s.`);
    this.name = 'UpstreamQuotaSpent';
  }
}

/** Whole seconds until `resetAt`, at least 1 (a Retry-After of 0 would invite a retry that is refused again). */
export function secondsUntil(resetAt: number, now: number): number {
  return Math.max(1, Math.ceil((resetAt - now) / 1000));
}

export class UpstreamQuota {
  /** By digest, least recently updated first (an update moves an entry to the end). */
  private readonly entries = new Map<string, QuotaEntry>();
  /** Digests asked of the other replicas with no answer, and when: asked again only after LOOK_UP_AGAIN_MS. */
  private readonly lookedUp = new Map<string, number>();
  /** Digests already made, so that the calls of one request's credential hash it once. */
  private readonly digests = new WeakMap<Credential, string>();
  private readonly maxCredentials: number;
  private readonly now: () => number;
  private sharing: QuotaSharing | undefined;

  constructor(private readonly options: UpstreamQuotaOptions) {
    this.maxCredentials = options.maxCredentials ?? DEFAULT_MAX_QUOTA_CREDENTIALS;
    this.now = options.now ?? Date.now;
  }

  /** Replicas share the figures from now on. */
  shareWith(sharing: QuotaSharing): void {
    this.sharing = sharing;
  }

  /** The ledger's key of a credential: its digest, or `anonymous`. */
  keyOf(credential: Credential | null): string {
    if (credential === null) return ANONYMOUS_QUOTA_KEY;
    let digest = this.digests.get(credential);
    if (digest === undefined) {
      digest = this.options.digest(credential);
      this.digests.set(credential, digest);
    }
    return digest;
  }

  /** The entry of a credential while its figures hold (before their reset); undefined when nothing is known. */
  private current(credential: Credential | null): QuotaEntry | undefined {
    if (this.entries.size === 0) return undefined;
    const entry = this.entries.get(this.keyOf(credential));
    return entry && this.now() < entry.resetAt ? entry : undefined;
  }

  /**
   * A REST call about to be sent. Returns its entry (to give back to `answered`), counted in flight;
   * undefined when nothing is known. Throws UpstreamQuotaSpent when nothing is left before the reset.
   */
  sending(credential: Credential | null): QuotaEntry | undefined {
    const entry = this.current(credential);
    if (!entry) return undefined;
    if (entry.remaining - entry.inFlight <= 0) this.pace(entry);
    entry.inFlight += 1;
    return entry;
  }

  /**
   * Throws UpstreamQuotaSpent when a call of this credential would find nothing left, before the
   * call is counted anywhere (an operation's budget, its caller's REST calls, EXPLAIN): a call not
   * sent was not made. Counts nothing in flight; `sending` does, as the call leaves.
   */
  check(credential: Credential | null): void {
    const entry = this.current(credential);
    if (entry && entry.remaining - entry.inFlight <= 0) this.pace(entry);
  }

  private pace(entry: QuotaEntry): never {
    entry.paced += 1;
    throw new UpstreamQuotaSpent(secondsUntil(entry.resetAt, this.now()));
  }

  /**
   * A REST answer (or none: status 0): the call is no longer in flight, and the figures it carries,
   * if any, are recorded. `header` reads the answer's headers; with none of GitLab's, nothing else runs.
   * So a 429 without `RateLimit-*` headers (an endpoint's own limit, issue creation say, which GitLab
   * does not show in them) leaves the credential's figures alone: its other endpoints stay usable.
   */
  answered(sent: QuotaEntry | undefined, credential: Credential | null, status: number, header: (name: string) => string | undefined): void {
    if (sent && sent.inFlight > 0) sent.inFlight -= 1;
    if (status === 0) return;
    const remainingText = header('ratelimit-remaining');
    if (remainingText === undefined) return;
    const figures = figuresOf(remainingText, header('ratelimit-reset'), status === 429 ? header('retry-after') : undefined, this.now());
    if (figures) this.record(this.keyOf(credential), figures, true);
  }

  /** Figures another replica published (or stored): merged as GitLab's own would be. */
  merge(digest: string, figures: QuotaFigures): void {
    this.lookedUp.delete(digest);
    if (figures.resetAt > this.now()) this.record(digest, figures, false);
  }

  /**
   * Whether an operation that may make `estimate` calls fits what is left: undefined when it does
   * (or nothing is known), else the seconds until the reset, and the refusal is counted.
   */
  refusal(credential: Credential | null, estimate: number): number | undefined {
    if (this.entries.size === 0 && !this.sharing) return undefined;
    const entry = this.current(credential);
    if (!entry) {
      // Any operation of a credential unknown here asks, one that costs nothing too: the next ones know.
      this.askOthers(this.keyOf(credential));
      return undefined;
    }
    if (estimate <= 0 || entry.remaining - entry.inFlight >= estimate) return undefined;
    entry.refused += 1;
    return secondsUntil(entry.resetAt, this.now());
  }

  /**
   * How long a poller of this credential waits before its next poll: its interval, or longer when
   * the calls left would run out before the reset at one poll per interval. A poller takes at most
   * half of what is left (its credential's own operations need the rest): one poll per
   * (time to the reset) / (remaining / 2). With nothing left, until just past the reset.
   */
  pollDelay(credential: Credential | null, intervalMs: number): number {
    const entry = this.current(credential);
    if (!entry) return intervalMs;
    const untilReset = entry.resetAt - this.now();
    const left = entry.remaining - entry.inFlight;
    if (left <= 0) return Math.max(intervalMs, untilReset + RESET_MARGIN_MS);
    return Math.max(intervalMs, Math.ceil((untilReset * 2) / left));
  }

  /** The figures of up to `max` credentials, most recently updated first, for the metrics (whose labels they bound). */
  snapshot(max: number): QuotaSnapshot[] {
    const now = this.now();
    const all = [...this.entries.values()];
    const shown: QuotaSnapshot[] = [];
    for (let index = all.length - 1; index >= 0 && shown.length < max; index--) {
      const entry = all[index]!;
      // Once its window is over an entry says nothing: its series go (GitLab's next answer brings it back).
      if (entry.resetAt <= now) continue;
      shown.push({ digest: entry.digest, remaining: Math.max(0, entry.remaining - entry.inFlight), paced: entry.paced, refused: entry.refused });
    }
    return shown;
  }

  /** Forgets every figure (tests; a gateway's close). */
  clear(): void {
    this.entries.clear();
    this.lookedUp.clear();
  }

  /**
   * Records figures. Within one window GitLab's count only grows, so answers arriving out of order
   * (or a replica's older news) never raise `remaining`: the lowest figure stands. A later window
   * replaces an earlier one; an earlier one is news of the past and ignored.
   */
  private record(digest: string, figures: QuotaFigures, fromGitLab: boolean): void {
    let entry = this.entries.get(digest);
    if (entry) {
      // Moved to the end: the least recently updated entry is the one dropped when full.
      this.entries.delete(digest);
    } else {
      if (this.entries.size >= this.maxCredentials) this.entries.delete(this.entries.keys().next().value!);
      entry = { digest, remaining: figures.remaining, resetAt: figures.resetAt, inFlight: 0, paced: 0, refused: 0, published: Number.POSITIVE_INFINITY, publishedResetAt: 0 };
    }
    this.entries.set(digest, entry);
    if (figures.resetAt > entry.resetAt || entry.resetAt <= this.now()) {
      entry.remaining = figures.remaining;
      entry.resetAt = figures.resetAt;
    } else if (figures.resetAt === entry.resetAt) {
      entry.remaining = Math.min(entry.remaining, figures.remaining);
    } else {
      return;
    }
    if (fromGitLab && this.sharing && this.changedMaterially(entry)) {
      entry.published = entry.remaining;
      entry.publishedResetAt = entry.resetAt;
      this.sharing.publish(digest, { remaining: entry.remaining, resetAt: entry.resetAt });
    }
  }

  /**
   * Worth telling the other replicas: a new window, or a tenth less than last told (at least one
   * call): a few dozen messages per credential and window, and every call once few are left, where
   * the figure decides refusals.
   */
  private changedMaterially(entry: QuotaEntry): boolean {
    if (entry.resetAt !== entry.publishedResetAt) return true;
    return entry.published - entry.remaining >= Math.max(1, Math.ceil(entry.published / 10));
  }

  /** Asks the other replicas' stored figures of a credential this one has none of, at most once per LOOK_UP_AGAIN_MS. */
  private askOthers(digest: string): void {
    if (!this.sharing) return;
    const now = this.now();
    const asked = this.lookedUp.get(digest);
    if (asked !== undefined && now - asked < LOOK_UP_AGAIN_MS) return;
    this.lookedUp.delete(digest);
    if (this.lookedUp.size >= this.maxCredentials) this.lookedUp.delete(this.lookedUp.keys().next().value!);
    this.lookedUp.set(digest, now);
    this.sharing.lookUp(digest);
  }
}

/**
 * The figures of an answer's headers: `RateLimit-Remaining` and `RateLimit-Reset` (Unix seconds).
 * A 429 of the throttle has nothing left, and a `Retry-After` may put the reset later. Anything
 * unreadable, or a reset already past, says nothing. `RateLimit-Limit` is not used: GitLab
 * normalises it to a minute whatever the period, so only Remaining and Reset say what is left.
 */
function figuresOf(remainingText: string, resetText: string | undefined, retryAfterText: string | undefined, now: number): QuotaFigures | undefined {
  let remaining = Number(remainingText);
  let resetAt = resetText === undefined ? Number.NaN : Number(resetText) * 1000;
  if (retryAfterText !== undefined) {
    remaining = 0;
    const retryAfter = retryAfterSeconds(retryAfterText, now);
    if (retryAfter !== undefined) resetAt = Math.max(Number.isFinite(resetAt) ? resetAt : 0, now + retryAfter * 1000);
  }
  if (!Number.isFinite(remaining) || remaining < 0 || !Number.isFinite(resetAt) || resetAt <= now) return undefined;
  return { remaining: Math.floor(remaining), resetAt };
}
