import { describe, expect, it } from 'vitest';
import type { Credential } from '../../src/datasources/credentials.js';
import type { IssueSchema } from '../../src/datasources/issues.js';
import { credentialDigest } from '../../src/shared-state/credential-digest.js';
import { ISSUABLE_ASPECTS, type IssuableAspect } from '../../src/subscriptions/issuable-updates.js';
import { IssueReferences, type IssueReferenceStore } from '../../src/subscriptions/issue-references.js';

const token = (value: string): Credential => ({ kind: 'private-token', value });
const digest = credentialDigest('issue-references-test-secret');

/** An issue record as GET /projects/:id/issues/:iid answers it, with what a test changes. */
function createIssue(overrides: Partial<IssueSchema> = {}): IssueSchema {
  return {
    id: 1,
    iid: 1,
    project_id: 7,
    title: 'Crash on start',
    description: 'Steps',
    labels: ['bug'],
    milestone: { id: 3, title: 'v1' },
    assignees: [{ id: 5, username: 'developer' }],
    due_date: null,
    time_stats: { time_estimate: 0, total_time_spent: 0 },
    ...overrides,
  } as IssueSchema;
}

describe('the aspects of an issue the sidebar subscribes to', () => {
  const changes: Array<[IssuableAspect, Partial<IssueSchema>]> = [
    ['assignees', { assignees: [{ id: 6, username: 'maintainer' }] as IssueSchema['assignees'] }],
    ['labels', { labels: ['bug', 'critical'] }],
    ['milestone', { milestone: null }],
    ['dates', { due_date: '2031-05-17' }],
    ['title', { title: 'Crash on start (edited)' }],
    ['description', { description: 'Steps, rewritten' }],
    ['timeTracking', { time_stats: { time_estimate: 3600, total_time_spent: 0 } }],
  ];

  it.each(changes)('sees a change of %s in that aspect and in no other', (aspect, change) => {
    const before = createIssue();
    const after = createIssue(change);
    for (const [other, read] of Object.entries(ISSUABLE_ASPECTS)) {
      expect([other, read(before) !== read(after)]).toEqual([other, other === aspect]);
    }
  });

  it('never confuses two label lists whose names joined alike', () => {
    const read = ISSUABLE_ASPECTS.labels;
    expect(read(createIssue({ labels: ['a,b'] }))).not.toBe(read(createIssue({ labels: ['a', 'b'] })));
  });

  it('reads label names from detailed label records as from plain names', () => {
    const read = ISSUABLE_ASPECTS.labels;
    expect(read(createIssue({ labels: [{ name: 'bug' }] as IssueSchema['labels'] }))).toBe(read(createIssue({ labels: ['bug'] })));
  });
});

describe('the issues each credential was served', () => {
  it('answers only the credential that was served the issue', async () => {
    const references = new IssueReferences(digest);
    references.remember(token('a'), 10, { project: 7, iid: 1 });
    expect(await references.find(token('a'), 10)).toEqual({ project: 7, iid: 1 });
    expect(await references.find(token('b'), 10)).toBeUndefined();
  });

  it('keeps the most recent issues of a credential within its bound', async () => {
    const references = new IssueReferences(digest, undefined, { perCredential: 2, credentials: 10 });
    const alice = token('alice');
    references.remember(alice, 1, { project: 7, iid: 1 });
    references.remember(alice, 2, { project: 7, iid: 2 });
    await references.find(alice, 1); // a look-up keeps it recent
    references.remember(alice, 3, { project: 7, iid: 3 });
    expect(await references.find(alice, 2)).toBeUndefined();
    expect(await references.find(alice, 1)).toEqual({ project: 7, iid: 1 });
    expect(await references.find(alice, 3)).toEqual({ project: 7, iid: 3 });
  });

  it('forgets the least recently active credential beyond its bound', async () => {
    const references = new IssueReferences(digest, undefined, { perCredential: 5, credentials: 2 });
    references.remember(token('a'), 1, { project: 7, iid: 1 });
    references.remember(token('b'), 1, { project: 7, iid: 1 });
    references.remember(token('c'), 1, { project: 7, iid: 1 });
    expect(await references.find(token('a'), 1)).toBeUndefined();
    expect(await references.find(token('c'), 1)).toEqual({ project: 7, iid: 1 });
  });

  it('tells the shared store once per new issue, by the credential digest, and asks it on a miss', async () => {
    const told: Array<[string, number]> = [];
    const shared: IssueReferenceStore = {
      remember: (name, issueId) => void told.push([name, issueId]),
      find: (_name, issueId) => Promise.resolve(issueId === 99 ? { project: 8, iid: 4 } : undefined),
    };
    const references = new IssueReferences(digest, shared);
    references.remember(token('a'), 10, { project: 7, iid: 1 });
    references.remember(token('a'), 10, { project: 7, iid: 1 }); // served again: nothing new to tell
    expect(told).toEqual([[digest(token('a')), 10]]);
    expect(await references.find(token('a'), 99)).toEqual({ project: 8, iid: 4 });
  });
});
