import type { Credential } from '../datasources/credentials.js';
import type { IssueKey } from '../datasources/issues.js';
import type { CredentialDigest } from '../shared-state/credential-digest.js';

/** Where replicas share what each credential was served (shared-state/issue-reference-store.ts, with Redis). */
export interface IssueReferenceStore {
  remember(digest: string, issueId: number, key: IssueKey): void;
  find(digest: string, issueId: number): Promise<IssueKey | undefined>;
}

export interface IssueReferenceBounds {
  /** Issues remembered per credential, the most recently served kept. */
  perCredential: number;
  /** Credentials remembered, the most recently active kept. */
  credentials: number;
}

/**
 * 256 issues cover the pages a user has just seen (an issue's page, a board, a list or two); 1,000
 * credentials at that bound stay near 256,000 small entries, some tens of MB at the very most.
 */
export const DEFAULT_ISSUE_REFERENCE_BOUNDS: IssueReferenceBounds = { perCredential: 256, credentials: 1_000 };

/** Reads and refreshes an entry of a Map kept in least-recently-used order. */
function touch<K, V>(map: Map<K, V>, key: K): V | undefined {
  const value = map.get(key);
  if (value !== undefined) {
    map.delete(key);
    map.set(key, value);
  }
  return value;
}

function store<K, V>(map: Map<K, V>, key: K, value: V, bound: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > bound) map.delete(map.keys().next().value as K);
}

/**
 * Where the issues a credential was served live: issue global id -> project and iid. REST finds an
 * issue by its global id for administrators only (`GET /issues/:id`), yet GitLab's clients
 * subscribe by global id; a client reads the issue (and its `id`) before subscribing to it, so
 * remembering what each credential was served lets anyone subscribe to the issues they can read.
 * Per credential (by its keyed digest, never the token), so that an entry only ever answers the
 * credential it was served to; bounded, so that no caller grows it without limit. In this replica's
 * memory, and with Redis in a store the replicas share, so that a subscription on another replica
 * than the query finds it too.
 */
export class IssueReferences {
  private readonly byCredential = new Map<string, Map<number, IssueKey>>();
  /** Each credential object's digest: a list of 100 issues asks for it 100 times in one request. */
  private readonly digests = new WeakMap<Credential, string>();

  constructor(
    private readonly credentialDigest: CredentialDigest,
    private readonly shared?: IssueReferenceStore,
    private readonly bounds: IssueReferenceBounds = DEFAULT_ISSUE_REFERENCE_BOUNDS,
  ) {}

  /** Records that `credential` was served the issue `issueId`, in project `key.project` with iid `key.iid`. */
  remember(credential: Credential, issueId: number, key: IssueKey): void {
    const digest = this.digestOf(credential);
    let issues = touch(this.byCredential, digest);
    if (!issues) {
      issues = new Map();
      store(this.byCredential, digest, issues, this.bounds.credentials);
    }
    const known = touch(issues, issueId);
    if (known?.project === key.project && known.iid === key.iid) return; // told the shared store already
    store(issues, issueId, key, this.bounds.perCredential);
    this.shared?.remember(digest, issueId, key);
  }

  /** The project and iid of an issue `credential` was served, if remembered here or by another replica. */
  async find(credential: Credential, issueId: number): Promise<IssueKey | undefined> {
    const digest = this.digestOf(credential);
    const issues = touch(this.byCredential, digest);
    return (issues && touch(issues, issueId)) ?? (await this.shared?.find(digest, issueId));
  }

  private digestOf(credential: Credential): string {
    let digest = this.digests.get(credential);
    if (digest === undefined) {
      digest = this.credentialDigest(credential);
      this.digests.set(credential, digest);
    }
    return digest;
  }
}
