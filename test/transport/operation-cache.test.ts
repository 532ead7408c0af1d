// The WebSocket side's cache of parsed and validated documents is bounded by the length of the
// texts it holds, not only by their number: a document near the length limit parses into about
// 1 MB of syntax tree and tokens, and 1,000 distinct ones (the entry bound) held 1 GB.
import { describe, expect, it } from 'vitest';
import { DEFAULT_QUERY_LIMITS } from '../../src/policy/limits.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { MAX_CACHED_DOCUMENT_CHARACTERS, OperationCache } from '../../src/transport/operation-cache.js';

const schema = createExecutableSchema();
/**
 * A valid subscription of about 9,000 characters and 3,000 tokens: one field under 1,000 aliases.
 * (The alias limit applies after the cache, to the operation; the cache holds what parses and validates.)
 */
const longDocument = (n: number) =>
  `subscription { ciRunnerStatusUpdated(runnerId: "gid://gitlab/Ci::Runner/1") { ${Array.from({ length: 1_000 }, (_, i) => `a${i}: id`).join(' ')} } } # ${n}`;
const shortDocument = (n: number) => `subscription { ciRunnerStatusUpdated(runnerId: "gid://gitlab/Ci::Runner/${n}") { id status } }`;

describe('the operation cache', () => {
  it('holds no more text than its bound, however many long documents arrive', () => {
    const cache = new OperationCache(schema, DEFAULT_QUERY_LIMITS.maxTokens, { introspection: true });
    for (let n = 0; n < 200; n++) expect('document' in cache.prepare(longDocument(n))).toBe(true);
    const { entries, characters } = cache.size;
    expect(characters).toBeLessThanOrEqual(MAX_CACHED_DOCUMENT_CHARACTERS);
    expect(entries).toBe(Math.floor(MAX_CACHED_DOCUMENT_CHARACTERS / longDocument(199).length));
    // The newest are kept (the same prepared document comes back), the oldest left.
    expect(cache.prepare(longDocument(199))).toBe(cache.prepare(longDocument(199)));
    const before = cache.size.entries;
    cache.prepare(longDocument(0));
    expect(cache.size.entries).toBe(before); // parsed again and held, another one leaving
  });

  it('holds up to its entry bound of short documents', () => {
    const cache = new OperationCache(schema, DEFAULT_QUERY_LIMITS.maxTokens, { introspection: true, capacity: 1_000 });
    for (let n = 0; n < 1_500; n++) cache.prepare(shortDocument(n));
    expect(cache.size.entries).toBe(1_000);
    expect(cache.size.characters).toBe(Array.from({ length: 1_000 }, (_, i) => shortDocument(500 + i).length).reduce((a, b) => a + b, 0));
  });
});
