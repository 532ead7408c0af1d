// Apollo Server's store of parsed documents (HTTP) is bounded by the length of their query text as
// well as by count: its default bounded the JSON it would make of them, which leaves out their
// tokens, so some 120 documents near the length limit held about 120 MB.
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { documentStore, MAX_CACHED_DOCUMENT_CHARACTERS, MAX_CACHED_DOCUMENTS } from '../../src/caching/document-store.js';

const longQuery = (n: number) => `query { runner(id: "gid://gitlab/Ci::Runner/1") { ${Array.from({ length: 1_000 }, (_, i) => `a${i}: id`).join(' ')} } } # ${n}`;
const shortQuery = (n: number) => `query { runner(id: "gid://gitlab/Ci::Runner/${n}") { id status } }`;

describe('the document store', () => {
  it('holds no more text than its bound, the newest documents kept', async () => {
    const store = documentStore();
    for (let n = 0; n < 100; n++) await store.set(`key-${n}`, parse(longQuery(n)));
    expect(store.size.characters).toBeLessThanOrEqual(MAX_CACHED_DOCUMENT_CHARACTERS);
    expect(store.size.entries).toBe(Math.floor(MAX_CACHED_DOCUMENT_CHARACTERS / longQuery(99).length));
    expect(await store.get('key-99')).toBeDefined();
    expect(await store.get('key-0')).toBeUndefined();
  });

  it('holds up to its count of short documents', async () => {
    const store = documentStore();
    for (let n = 0; n < MAX_CACHED_DOCUMENTS + 200; n++) await store.set(`key-${n}`, parse(shortQuery(n)));
    expect(store.size.entries).toBe(MAX_CACHED_DOCUMENTS);
    expect(await store.get(`key-${MAX_CACHED_DOCUMENTS + 199}`)).toBeDefined();
  });
});
