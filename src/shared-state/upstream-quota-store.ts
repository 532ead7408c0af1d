import type { QuotaFigures, QuotaSharing } from '../datasources/upstream-quota.js';
import type { RedisLink } from './redis-link.js';

/**
 * GitLab's rate-limit figures shared by the replicas (datasources/upstream-quota.ts), without a
 * Redis round trip on any operation's way:
 * - a replica whose figures of a credential changed materially (a new window, a tenth fewer calls
 *   left, every call once few are left) stores them under `upstream-quota:<digest>`, expiring at the
 *   reset, and publishes them on the `upstream-quota` channel;
 * - every replica listens on that channel and merges what it hears into its own copy, which is all
 *   the admission, the pacing and the pollers read;
 * - a replica that has no figures of a credential (it started later, or never served it) reads the
 *   stored key in the background, at most once per credential every ten seconds: the operation that
 *   asked is admitted as unknown figures are, the next ones see the figures.
 * Messages are `<digest> <remaining> <resetAt ms>`: a digest, never a token. With Redis down each
 * replica goes on with what it sees itself.
 */
export class RedisUpstreamQuotaSharing implements QuotaSharing {
  private readonly channel: string;

  constructor(
    private readonly link: RedisLink,
    private readonly merge: (digest: string, figures: QuotaFigures) => void,
  ) {
    this.channel = link.key('upstream-quota');
  }

  /** Starts hearing the other replicas (the link subscribes once Redis is ready). */
  listen(): Promise<void> {
    return this.link.subscribe(this.channel, (message) => this.heard(message));
  }

  publish(digest: string, figures: QuotaFigures): void {
    if (!this.link.isUp) return;
    const ttlMs = Math.ceil(figures.resetAt - Date.now());
    if (ttlMs <= 0) return;
    const message = `${digest} ${figures.remaining} ${Math.ceil(figures.resetAt)}`;
    this.link.client
      .multi()
      .set(this.link.key('upstream-quota', digest), message, 'PX', ttlMs)
      .publish(this.channel, message)
      .exec()
      .catch(() => undefined);
  }

  lookUp(digest: string): void {
    if (!this.link.isUp) return;
    this.link.client
      .get(this.link.key('upstream-quota', digest))
      .then((stored) => {
        if (stored !== null) this.heard(stored);
      })
      .catch(() => undefined);
  }

  /** A message or stored value, checked before it is believed: three fields, the numbers whole and not negative. */
  private heard(message: string): void {
    const [digest, remainingText, resetText, extra] = message.split(' ');
    const remaining = Number(remainingText);
    const resetAt = Number(resetText);
    if (!digest || extra !== undefined || !Number.isSafeInteger(remaining) || remaining < 0 || !Number.isFinite(resetAt)) return;
    this.merge(digest, { remaining, resetAt });
  }
}
