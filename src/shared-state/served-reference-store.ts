import type { ServedReferenceKind, ServedReferenceStore } from '../caching/served-references.js';
import type { RedisLink } from './redis-link.js';
import { SET_BOUNDED } from './redis-scripts.js';

/** How long a replica remembers in Redis that a credential was served a record. */
export const SHARED_SERVED_REFERENCE_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * What each credential was served, shared by the replicas (caching/served-references.ts): a client
 * that reads a record from one replica may act on it through another. At most `perCredential`
 * entries per credential, for a day. Writes are gathered and sent in one pipeline per turn of the
 * event loop: a page of 100 records is one round trip, not 100. While Redis is unreachable nothing
 * is written or found here, and each replica has its own memory.
 */
export class RedisServedReferenceStore<Id extends string | number, Place> implements ServedReferenceStore<Id, Place> {
  private pending: Array<{ digest: string; id: Id; place: Place }> = [];

  constructor(
    private readonly link: RedisLink,
    private readonly kind: ServedReferenceKind<Place>,
    private readonly perCredential: number,
  ) {}

  remember(digest: string, id: Id, place: Place): void {
    if (!this.link.isUp) return;
    if (this.pending.length === 0) setImmediate(() => void this.flush());
    this.pending.push({ digest, id, place });
  }

  async find(digest: string, id: Id): Promise<Place | undefined> {
    if (!this.link.isUp) return undefined;
    try {
      const value = await this.link.client.get(this.link.key(this.kind.entry, digest, id));
      return (value === null ? null : this.kind.decode(value)) ?? undefined;
    } catch {
      return undefined; // Redis is slow or gone: as if never served, and the caller reads it first
    }
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    const pipeline = this.link.client.pipeline();
    for (const { digest, id, place } of batch) {
      pipeline.eval(SET_BOUNDED, 2, this.link.key(this.kind.entry, digest, id), this.link.key(this.kind.index, digest), this.kind.encode(place), SHARED_SERVED_REFERENCE_TTL_MS, this.perCredential);
    }
    try {
      await pipeline.exec();
    } catch {
      // A lost write costs another replica a "read it first" (or REST's own look-up); nothing more.
    }
  }
}
