import type { IssueKey } from '../datasources/issues.js';
import type { IssueReferenceStore } from '../subscriptions/issue-references.js';
import type { RedisLink } from './redis-link.js';
import { SET_BOUNDED } from './redis-scripts.js';

/** How long a replica remembers in Redis that a credential was served an issue. */
export const SHARED_ISSUE_REFERENCE_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The issues each credential was served, shared by the replicas: a client that reads an issue over
 * HTTP from one replica may subscribe to it over WebSocket on another. Entries are
 * `issue-ref:<credential digest>:<issue id>` = `<project id>:<iid>`, at most `perCredential` per
 * credential (index `issue-refs:<credential digest>`), for a day. Writes are gathered and sent in
 * one pipeline per turn of the event loop: a page of 100 issues is one round trip, not 100. While
 * Redis is unreachable nothing is written or found here, and each replica has its own memory.
 */
export class RedisIssueReferenceStore implements IssueReferenceStore {
  private pending: Array<{ digest: string; issueId: number; key: IssueKey }> = [];

  constructor(
    private readonly link: RedisLink,
    private readonly perCredential: number,
  ) {}

  remember(digest: string, issueId: number, key: IssueKey): void {
    if (!this.link.isUp) return;
    if (this.pending.length === 0) setImmediate(() => void this.flush());
    this.pending.push({ digest, issueId, key });
  }

  async find(digest: string, issueId: number): Promise<IssueKey | undefined> {
    if (!this.link.isUp) return undefined;
    try {
      const value = await this.link.client.get(this.link.key('issue-ref', digest, issueId));
      const match = value === null ? null : /^(\d{1,15}):(\d{1,15})$/.exec(value);
      return match ? { project: Number(match[1]), iid: Number(match[2]) } : undefined;
    } catch {
      return undefined; // Redis is slow or gone: as if never served, which REST's look-up then decides
    }
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    const pipeline = this.link.client.pipeline();
    for (const { digest, issueId, key } of batch) {
      const value = `${key.project}:${key.iid}`;
      pipeline.eval(SET_BOUNDED, 2, this.link.key('issue-ref', digest, issueId), this.link.key('issue-refs', digest), value, SHARED_ISSUE_REFERENCE_TTL_MS, this.perCredential);
    }
    try {
      await pipeline.exec();
    } catch {
      // A lost write costs a subscription on another replica REST's look-up; nothing more.
    }
  }
}
