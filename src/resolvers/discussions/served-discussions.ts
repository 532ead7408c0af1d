// What the discussions a credential was served are on. GitLab's
// `discussionToggleResolve` names a discussion by its DiscussionID alone, while REST finds a
// discussion only under its merge request (`.../merge_requests/:merge_request_iid/discussions/:id`),
// and a discussion's 40-hex id names neither. A client reads a discussion (and its `id`) before it
// resolves it, so the gateway remembers, per credential, which merge request each discussion it
// served is on, as the board locator remembers where boards live. Per credential (by its keyed
// digest, never the token), so an entry only ever answers the credential it was served to; bounded
// and expiring, so that no caller grows it without limit. In this replica's memory only: another
// replica answers "read the discussion first".
import { BoundedCache } from '../../caching/bounded-cache.js';
import type { Credential } from '../../datasources/credentials.js';
import type { MergeRequestKey } from '../../datasources/merge-requests.js';
import type { CredentialDigest } from '../../shared-state/credential-digest.js';

/** A merge request's discussion, with the merge request REST finds it under; or one on something else. */
export type ServedDiscussion = { noteable: 'MergeRequest'; key: MergeRequestKey } | { noteable: 'other' };

export interface ServedDiscussionBounds {
  /** Discussions remembered across all credentials, the most recently served kept. */
  maxEntries: number;
  /** How long a served discussion stays resolvable by ID without being read again. */
  ttlMs: number;
}

/** 100,000 entries of some tens of bytes: a few MB, far more than the threads users open in a day. */
export const DEFAULT_SERVED_DISCUSSION_BOUNDS: ServedDiscussionBounds = { maxEntries: 100_000, ttlMs: 24 * 60 * 60 * 1000 };

export class ServedDiscussions {
  private readonly places: BoundedCache<ServedDiscussion>;
  /** Each credential object's digest: a page of 100 discussions asks for it 100 times in one request. */
  private readonly digests = new WeakMap<Credential, string>();

  constructor(
    private readonly credentialDigest: CredentialDigest,
    bounds: ServedDiscussionBounds = DEFAULT_SERVED_DISCUSSION_BOUNDS,
  ) {
    this.places = new BoundedCache({ maxEntries: bounds.maxEntries, ttlMs: bounds.ttlMs });
  }

  /** Records that `credential` was served the discussion `discussionId`, on what `served` says. */
  remember(credential: Credential, discussionId: string, served: ServedDiscussion): void {
    this.places.set(this.entryOf(credential, discussionId), served);
  }

  /** What a discussion `credential` was served is on, if remembered. */
  find(credential: Credential, discussionId: string): ServedDiscussion | undefined {
    return this.places.get(this.entryOf(credential, discussionId));
  }

  private entryOf(credential: Credential, discussionId: string): string {
    let digest = this.digests.get(credential);
    if (digest === undefined) {
      digest = this.credentialDigest(credential);
      this.digests.set(credential, digest);
    }
    return `${digest}:${discussionId}`;
  }
}
