import type { DocumentNode } from 'graphql';
import { BoundedCache } from './bounded-cache.js';

/**
 * Parsed documents held at once, by the length of their query text: 200,000 characters, twenty
 * documents at the 10,000-character limit or a thousand of 200. A document near that limit (one
 * field under 1,200 aliases validates; the alias limit applies to the operation afterwards) parses
 * into about 1 MB of syntax tree and tokens, some 110 bytes per character: about 21 MB at worst.
 */
export const MAX_CACHED_DOCUMENT_CHARACTERS = 200_000;
export const MAX_CACHED_DOCUMENTS = 1_000;

/**
 * Apollo Server's store of parsed and validated documents (its KeyValueCache: async get, set and
 * delete), bounded by the length of their query text as well as by count. Apollo's default bounds
 * the JSON it would serialise them to (30 MiB), which leaves out their tokens: 30 MiB of documents
 * near the length limit, about 120 of them, held some 120 MB, and serialising each cost as much as
 * parsing it.
 */
export function documentStore() {
  const cache = new BoundedCache<DocumentNode>({
    maxEntries: MAX_CACHED_DOCUMENTS,
    maxSize: MAX_CACHED_DOCUMENT_CHARACTERS,
    // A parsed document's location ends where its text does.
    sizeOf: (document) => document.loc?.end ?? 0,
  });
  return {
    get: (key: string) => Promise.resolve(cache.get(key)),
    set: (key: string, document: DocumentNode) => Promise.resolve(cache.set(key, document)),
    delete: (key: string) => Promise.resolve(cache.delete(key)),
    /** Documents held, and the length of their text. */
    get size() {
      return { entries: cache.size, characters: cache.occupied };
    },
  };
}
