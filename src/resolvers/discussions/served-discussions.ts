// What the discussions a credential was served are on. GitLab's `discussionToggleResolve` names a
// discussion by its DiscussionID alone, while REST finds a discussion only under its merge request
// (`.../merge_requests/:merge_request_iid/discussions/:id`), and a discussion's 40-hex id names
// neither. A client reads a discussion (and its `id`) before it resolves it, so the gateway
// remembers, per credential, which merge request each discussion it served is on
// (caching/served-references.ts), in memory and, with Redis, for every replica.
import { ServedReferences, type ServedReferenceBounds, type ServedReferenceKind, type ServedReferenceStore } from '../../caching/served-references.js';
import type { MergeRequestKey } from '../../datasources/merge-requests.js';
import type { CredentialDigest } from '../../shared-state/credential-digest.js';

/** A merge request's discussion, with the merge request REST finds it under; or one on something else. */
export type ServedDiscussion = { noteable: 'MergeRequest'; key: MergeRequestKey } | { noteable: 'other' };

/** 256 discussions a credential: the threads of the merge requests a user has just read. */
export const DEFAULT_SERVED_DISCUSSION_BOUNDS: ServedReferenceBounds = { perCredential: 256, credentials: 1_000 };

const samePlace = (a: ServedDiscussion, b: ServedDiscussion): boolean =>
  a.noteable === 'MergeRequest' ? b.noteable === 'MergeRequest' && a.key.project === b.key.project && a.key.iid === b.key.iid : b.noteable === 'other';

export class ServedDiscussions extends ServedReferences<string, ServedDiscussion> {
  constructor(credentialDigest: CredentialDigest, shared?: ServedReferenceStore<string, ServedDiscussion>, bounds: ServedReferenceBounds = DEFAULT_SERVED_DISCUSSION_BOUNDS) {
    super(credentialDigest, samePlace, bounds, shared);
  }
}

/** In Redis: `discussion-ref:<credential digest>:<discussion id>` = `mr:<project id>:<iid>` or `other`. */
export const DISCUSSION_REFERENCES: ServedReferenceKind<ServedDiscussion> = {
  entry: 'discussion-ref',
  index: 'discussion-refs',
  encode: (place) => (place.noteable === 'MergeRequest' ? `mr:${place.key.project}:${place.key.iid}` : 'other'),
  decode(value) {
    if (value === 'other') return { noteable: 'other' };
    const match = /^mr:(\d{1,15}):(\d{1,15})$/.exec(value);
    return match ? { noteable: 'MergeRequest', key: { project: Number(match[1]), iid: Number(match[2]) } } : null;
  },
};
