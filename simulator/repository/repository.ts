// One project's git repository: an object store of commits and blobs, branches and tags, and the
// revision syntax REST accepts where it takes a `sha` (a SHA or an unambiguous abbreviation, a tag,
// a branch, `refs/heads/...`, `refs/tags/...`, with `~n` and `^n` suffixes).
import { blobOid, commitOid, treeOid, type Person, type Tree } from './objects.js';

/** A commit signature as GitLab verified it (rest-v4-api.md "Other commit sub-resources"). */
export type CommitSignature = PgpSignature | X509Signature | SshSignature;

export type VerificationStatus = 'verified' | 'unverified' | 'same_user_different_email' | 'other_user' | 'unverified_key' | 'unknown_key' | 'verified_system';

export interface PgpSignature {
  type: 'PGP';
  verificationStatus: VerificationStatus;
  gpgKeyId: number;
  gpgKeyPrimaryKeyid: string;
  gpgKeyUserName: string;
  gpgKeyUserEmail: string;
  gpgKeySubkeyId: number | null;
}

export interface X509Signature {
  type: 'X509';
  verificationStatus: VerificationStatus;
  certificate: {
    id: number;
    subject: string;
    subjectKeyIdentifier: string;
    email: string;
    /** Certificate serial numbers are up to 20 bytes: far beyond 2^53, so kept as a bigint. */
    serialNumber: bigint;
    certificateStatus: 'good' | 'revoked';
    issuer: { id: number; subject: string; subjectKeyIdentifier: string; crlUrl: string };
  };
}

export interface SshSignature {
  type: 'SSH';
  verificationStatus: VerificationStatus;
  key: { id: number; title: string; createdAt: string; expiresAt: string | null; key: string; usageType: string };
}

export interface GitCommit {
  readonly sha: string;
  readonly tree: Tree;
  readonly treeOid: string;
  readonly parents: readonly string[];
  readonly author: Person;
  readonly committer: Person;
  readonly message: string;
  readonly signature: CommitSignature | null;
}

export interface CommitDraft {
  tree: Tree;
  parents: readonly string[];
  author: Person;
  committer: Person;
  message: string;
  signature?: CommitSignature | null;
}

export interface Tag {
  name: string;
  /** SHA of the tagged commit. */
  target: string;
  /** Annotated tags have a message; lightweight ones do not. */
  message: string | null;
}

const FULL_SHA = /^[0-9a-f]{40}$/;
const SHORT_SHA = /^[0-9a-f]{7,39}$/;

/** The armored text a signature of this kind would carry; it goes into the commit object. */
function armor(signature: CommitSignature, seed: string): string {
  const kind = signature.type === 'SSH' ? 'SSH SIGNATURE' : signature.type === 'X509' ? 'SIGNED MESSAGE' : 'PGP SIGNATURE';
  const body = Buffer.from(`${signature.type}:${seed}`).toString('base64');
  return `-----BEGIN ${kind}-----\n\n${body}\n-----END ${kind}-----`;
}

export class Repository {
  readonly commits = new Map<string, GitCommit>();
  readonly branches = new Map<string, string>();
  readonly tags = new Map<string, Tag>();
  private readonly blobs = new Map<string, Buffer>();

  constructor(public defaultBranch: string) {}

  writeBlob(content: Buffer): string {
    const oid = blobOid(content);
    if (!this.blobs.has(oid)) this.blobs.set(oid, content);
    return oid;
  }

  hasBlob(oid: string): boolean {
    return this.blobs.has(oid);
  }

  blob(oid: string): Buffer {
    const content = this.blobs.get(oid);
    if (!content) throw new Error(`blob ${oid} is not in the repository`);
    return content;
  }

  /** Stores a commit; its SHA is derived from its tree, parents, people, message and signature. */
  writeCommit(draft: CommitDraft): GitCommit {
    const rootTree = treeOid(draft.tree);
    const signature = draft.signature ?? null;
    const object = { treeOid: rootTree, parents: draft.parents, author: draft.author, committer: draft.committer, message: draft.message };
    const sha = commitOid({ ...object, gpgsig: signature ? armor(signature, commitOid(object)) : undefined });
    const existing = this.commits.get(sha);
    if (existing) return existing;
    const commit: GitCommit = { sha, tree: draft.tree, treeOid: rootTree, parents: [...draft.parents], author: draft.author, committer: draft.committer, message: draft.message, signature };
    this.commits.set(sha, commit);
    return commit;
  }

  isEmpty(): boolean {
    return this.branches.size === 0;
  }

  branchHead(name: string): GitCommit | undefined {
    const sha = this.branches.get(name);
    return sha === undefined ? undefined : this.commits.get(sha);
  }

  /** A revision as git's rev-parse reads it; undefined when it names nothing. */
  resolve(revision: string): GitCommit | undefined {
    const match = /^(.*?)((?:[~^]\d*)*)$/.exec(revision);
    const name = match?.[1] ?? '';
    let commit = this.resolveName(name);
    for (const step of (match?.[2] ?? '').matchAll(/([~^])(\d*)/g)) {
      if (!commit) return undefined;
      const count = step[2] === '' ? 1 : Number(step[2]);
      if (step[1] === '~') {
        for (let i = 0; i < count && commit; i++) commit = this.parent(commit, 0);
      } else if (count > 0) {
        commit = this.parent(commit, count - 1);
      }
    }
    return commit;
  }

  private parent(commit: GitCommit, index: number): GitCommit | undefined {
    const sha = commit.parents[index];
    return sha === undefined ? undefined : this.commits.get(sha);
  }

  /** A full SHA first, then tags before branches (git's ref order), then an unambiguous abbreviation. */
  private resolveName(name: string): GitCommit | undefined {
    if (name === '' || name === 'HEAD') return this.branchHead(this.defaultBranch);
    if (FULL_SHA.test(name)) return this.commits.get(name);
    if (name.startsWith('refs/heads/')) return this.branchHead(name.slice('refs/heads/'.length));
    if (name.startsWith('refs/tags/')) return this.tagged(name.slice('refs/tags/'.length));
    const byRef = this.tagged(name) ?? this.branchHead(name);
    if (byRef) return byRef;
    if (!SHORT_SHA.test(name)) return undefined;
    const found = [...this.commits.keys()].filter((sha) => sha.startsWith(name));
    return found.length === 1 ? this.commits.get(found[0]!) : undefined;
  }

  private tagged(name: string): GitCommit | undefined {
    const tag = this.tags.get(name);
    return tag ? this.commits.get(tag.target) : undefined;
  }

  /** Every commit reachable from the given ones (themselves included). */
  ancestors(shas: readonly string[], firstParent = false): Set<string> {
    const seen = new Set<string>();
    const stack = [...shas];
    while (stack.length > 0) {
      const sha = stack.pop()!;
      if (seen.has(sha)) continue;
      const commit = this.commits.get(sha);
      if (!commit) continue;
      seen.add(sha);
      stack.push(...(firstParent ? commit.parents.slice(0, 1) : commit.parents));
    }
    return seen;
  }

  isAncestor(ancestor: string, descendant: string): boolean {
    return this.ancestors([descendant]).has(ancestor);
  }

  /** Branches whose head reaches the commit, in name order. */
  branchesContaining(sha: string): string[] {
    return [...this.branches].filter(([, head]) => this.isAncestor(sha, head)).map(([name]) => name).sort();
  }

  tagsContaining(sha: string): string[] {
    return [...this.tags.values()].filter((tag) => this.isAncestor(sha, tag.target)).map((tag) => tag.name).sort();
  }

  /**
   * The time for a new commit: the simulator's clock, but always after the newest commit, so that
   * commits made through the API sort after everything before them.
   */
  nextCommitTime(now: Date): number {
    let newest = 0;
    for (const commit of this.commits.values()) newest = Math.max(newest, commit.committer.time);
    return Math.max(Math.floor(now.getTime() / 1000), newest + 1);
  }
}
