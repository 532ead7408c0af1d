// What each credential was served, shared by replicas through a real redis-server: the store behind
// issue subscriptions by ID and discussionToggleResolve by DiscussionID. A discussion one replica
// served is found by another for the same credential, never for another one; and the entries in
// Redis name the credential by its keyed digest, never by its token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credential } from '../../src/datasources/credentials.js';
import { DISCUSSION_REFERENCES, ServedDiscussions, type ServedDiscussion } from '../../src/resolvers/discussions/served-discussions.js';
import { credentialDigest } from '../../src/shared-state/credential-digest.js';
import { RedisLink } from '../../src/shared-state/redis-link.js';
import { RedisServedReferenceStore } from '../../src/shared-state/served-reference-store.js';
import { ISSUE_REFERENCES } from '../../src/subscriptions/issue-references.js';
import { eventually, until } from '../support/wait.js';
import { startRedis, type TestRedis } from './support/redis-server.js';

const quiet = { error: () => {} };
const digest = credentialDigest('served-references-test-secret');
const token = (value: string): Credential => ({ kind: 'private-token', value });

describe('served references in Redis', () => {
  let redis: TestRedis;
  const links: RedisLink[] = [];
  const replica = async () => {
    const link = new RedisLink({ url: redis.url, keyPrefix: 'served-test:', logger: quiet });
    links.push(link);
    await link.connect();
    await until(() => link.isUp);
    return new ServedDiscussions(digest, new RedisServedReferenceStore<string, ServedDiscussion>(link, DISCUSSION_REFERENCES, 256));
  };

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(links.map((link) => link.close()));
    await redis?.close();
  });

  it('lets another replica find a discussion the same credential was served, and no other credential', async () => {
    const [first, second] = [await replica(), await replica()];
    const discussion = 'a'.repeat(40);
    first.remember(token('glpat-alice-secret'), discussion, { noteable: 'MergeRequest', key: { project: 7, iid: 3 } });
    first.remember(token('glpat-alice-secret'), 'b'.repeat(40), { noteable: 'other' });
    await eventually(async () => (await second.find(token('glpat-alice-secret'), discussion)) !== undefined, 5_000, 'the shared entry');
    expect(await second.find(token('glpat-alice-secret'), discussion)).toEqual({ noteable: 'MergeRequest', key: { project: 7, iid: 3 } });
    expect(await second.find(token('glpat-alice-secret'), 'b'.repeat(40))).toEqual({ noteable: 'other' });
    expect(await second.find(token('glpat-bob-secret'), discussion)).toBeUndefined();

    const keys = await links[0]!.client.keys('served-test:*');
    expect(keys.some((key) => key.includes(`discussion-ref:${digest(token('glpat-alice-secret'))}:`))).toBe(true);
    for (const key of keys) {
      expect(key).not.toContain('glpat-');
      const value = (await links[0]!.client.type(key)) === 'string' ? await links[0]!.client.get(key) : '';
      expect(value ?? '').not.toContain('glpat-');
    }
  });

  it.each([
    ['a merge request\'s discussion', DISCUSSION_REFERENCES, { noteable: 'MergeRequest', key: { project: 12, iid: 40 } }],
    ['another discussion', DISCUSSION_REFERENCES, { noteable: 'other' }],
    ['an issue', ISSUE_REFERENCES, { project: 3, iid: 9 }],
  ] as const)('writes %s down and reads it back, and reads nothing from a value it did not write', (_name, kind, place) => {
    const codec = kind as { encode(place: unknown): string; decode(value: string): unknown };
    expect(codec.decode(codec.encode(place))).toEqual(place);
    expect(codec.decode('mr:x:1')).toBeNull();
  });
});
