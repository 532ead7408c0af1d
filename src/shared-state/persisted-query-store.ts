import { persistedQueryStore } from '../caching/response-cache.js';
import { sharedOrLocal } from './fallback.js';
import type { RedisLink } from './redis-link.js';
import { SET_BOUNDED } from './redis-scripts.js';

/** How long a persisted query stays in Redis after it was registered; clients re-register after. */
export const SHARED_PERSISTED_QUERY_TTL_MS = 24 * 60 * 60 * 1000;

export interface SharedPersistedQueryStoreOptions {
  link: RedisLink;
  /** Most queries kept in Redis (for all replicas) and in memory (for this one while Redis is down). */
  maxEntries: number;
  onFallback: () => void;
}

/**
 * Automatic persisted queries shared by the replicas: a query registered on one is found by its
 * hash on every other. In Apollo's KeyValueCache shape (the keys it passes are `apq:<sha256>`).
 * While Redis is unreachable the replica uses a store of its own; a client whose hash is then
 * unknown gets PERSISTED_QUERY_NOT_FOUND and sends the text again, as the protocol expects.
 */
export function sharedPersistedQueryStore({ link, maxEntries, onFallback }: SharedPersistedQueryStoreOptions) {
  const memory = persistedQueryStore(maxEntries);
  const index = link.key('apq-index');
  return {
    get: (key: string) =>
      sharedOrLocal(
        link,
        async () => (await link.client.get(link.key(key))) ?? undefined,
        () => memory.get(key),
        onFallback,
      ),
    set: (key: string, value: string) =>
      sharedOrLocal(
        link,
        async () => {
          await link.client.eval(SET_BOUNDED, 2, link.key(key), index, value, SHARED_PERSISTED_QUERY_TTL_MS, maxEntries);
        },
        () => memory.set(key, value),
        onFallback,
      ),
    delete: (key: string) =>
      sharedOrLocal(
        link,
        async () => (await link.client.del(link.key(key))) > 0,
        () => memory.delete(key),
        onFallback,
      ),
  };
}
