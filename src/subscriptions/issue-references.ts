import { ServedReferences, type ServedReferenceBounds, type ServedReferenceKind, type ServedReferenceStore } from '../caching/served-references.js';
import type { IssueKey } from '../datasources/issues.js';
import type { CredentialDigest } from '../shared-state/credential-digest.js';

/** Where replicas share the issues each credential was served (Redis, shared-state/served-reference-store.ts). */
export type IssueReferenceStore = ServedReferenceStore<number, IssueKey>;

export type IssueReferenceBounds = ServedReferenceBounds;

/**
 * 256 issues cover the pages a user has just seen (an issue's page, a board, a list or two); 1,000
 * credentials at that bound stay near 256,000 small entries, some tens of MB at the very most.
 */
export const DEFAULT_ISSUE_REFERENCE_BOUNDS: IssueReferenceBounds = { perCredential: 256, credentials: 1_000 };

/**
 * Where the issues a credential was served live: issue global id -> project and iid. REST finds an
 * issue by its global id for administrators only (`GET /issues/:id`), yet GitLab's clients
 * subscribe by global id; a client reads the issue (and its `id`) before subscribing to it, so
 * remembering what each credential was served (caching/served-references.ts) lets anyone subscribe
 * to the issues they can read, on any replica.
 */
export class IssueReferences extends ServedReferences<number, IssueKey> {
  constructor(credentialDigest: CredentialDigest, shared?: IssueReferenceStore, bounds: IssueReferenceBounds = DEFAULT_ISSUE_REFERENCE_BOUNDS) {
    super(credentialDigest, (a, b) => a.project === b.project && a.iid === b.iid, bounds, shared);
  }
}

/** In Redis: `issue-ref:<credential digest>:<issue id>` = `<project id>:<iid>` (shared-state/served-reference-store.ts). */
export const ISSUE_REFERENCES: ServedReferenceKind<IssueKey> = {
  entry: 'issue-ref',
  index: 'issue-refs',
  encode: (key) => `${key.project}:${key.iid}`,
  decode(value) {
    const match = /^(\d{1,15}):(\d{1,15})$/.exec(value);
    return match ? { project: Number(match[1]), iid: Number(match[2]) } : null;
  },
};
