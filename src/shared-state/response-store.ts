import { BoundedCache } from '../caching/bounded-cache.js';
import { sharedOrLocal } from './fallback.js';
import type { RedisLink } from './redis-link.js';
import { LOOKUP_IN_GENERATION, SET_IN_GENERATION } from './redis-scripts.js';

/** The response cache's settings (`responseCache` option, RESPONSE_CACHE_* settings). */
export interface ResponseCacheOptions {
  /** How long a response is reused. */
  ttlMs: number;
  /** Most responses kept. */
  maxEntries: number;
  /** Most bytes of response JSON kept in all (default 64 MiB). */
  maxBytes?: number;
}

/**
 * Where the response cache keeps answers: this process's memory, or Redis for every replica.
 *
 * A mutation empties the store by starting a new generation. A lookup says which generation it
 * read, and the answer computed after a miss is stored only if no mutation came in between: a
 * response read before a write must not be served after it.
 */
export interface ResponseStore {
  /** The JSON kept under `key`, if any, and the generation to store a fresh answer in. */
  lookup(key: string): Promise<{ json: string | undefined; generation: string }>;
  /** Keeps `json` under `key`, unless the store was emptied since the lookup that gave `generation`. */
  store(key: string, json: string, generation: string): Promise<void>;
  /** Empties the store (with Redis: for every replica at once). */
  clear(): Promise<void>;
}

export interface ResponseStoreBounds {
  ttlMs: number;
  maxEntries: number;
  /** Most bytes of response JSON: in memory the total, in Redis each entry (Redis's maxmemory bounds the total). */
  maxBytes: number;
}

/** The bounds of the response cache's settings (64 MiB of JSON unless told). */
export function responseStoreBounds(options: ResponseCacheOptions): ResponseStoreBounds {
  return { ttlMs: options.ttlMs, maxEntries: options.maxEntries, maxBytes: options.maxBytes ?? 64 * 1024 * 1024 };
}

/** The store of one process: a bounded LRU map and a generation counter. */
export class MemoryResponseStore implements ResponseStore {
  private readonly cache: BoundedCache<string>;
  private generation = 0;

  constructor(bounds: ResponseStoreBounds) {
    this.cache = new BoundedCache<string>({
      maxEntries: bounds.maxEntries,
      maxSize: bounds.maxBytes,
      ttlMs: bounds.ttlMs,
      sizeOf: (json) => json.length * 2,
    });
  }

  lookup(key: string) {
    return Promise.resolve({ json: this.cache.get(key), generation: String(this.generation) });
  }

  store(key: string, json: string, generation: string): Promise<void> {
    if (generation === String(this.generation)) this.cache.set(key, json);
    return Promise.resolve();
  }

  clear(): Promise<void> {
    this.cache.clear();
    this.generation += 1;
    return Promise.resolve();
  }
}

/**
 * The store the replicas share. Keys are the response cache's keys hashed again with the
 * deployment's secret (`hashKey`): a key derived from a token never reaches Redis in a form that
 * can be tested against guessed tokens. Entries live `ttlMs`, at most `maxEntries` of them.
 */
export class RedisResponseStore implements ResponseStore {
  private readonly generationKey: string;
  private readonly indexKey: string;

  constructor(
    private readonly link: RedisLink,
    private readonly hashKey: (key: string) => string,
    private readonly bounds: ResponseStoreBounds,
  ) {
    this.generationKey = link.key('response-cache', 'generation');
    this.indexKey = link.key('response-cache', 'index');
  }

  async lookup(key: string) {
    const [generation, json] = (await this.link.client.eval(LOOKUP_IN_GENERATION, 2, this.generationKey, this.entryKey(key))) as [string, string?];
    return { json, generation };
  }

  async store(key: string, json: string, generation: string): Promise<void> {
    if (json.length * 2 > this.bounds.maxBytes) return;
    await this.link.client.eval(
      SET_IN_GENERATION,
      3,
      this.generationKey,
      this.entryKey(key),
      this.indexKey,
      generation,
      json,
      this.bounds.ttlMs,
      this.bounds.maxEntries,
    );
  }

  async clear(): Promise<void> {
    await this.link.client.incr(this.generationKey);
  }

  private entryKey(key: string): string {
    return this.link.key('response-cache', this.hashKey(key));
  }
}

/**
 * Redis while it can be reached, this replica's memory meanwhile. The generation says which of the
 * two a lookup used, so that its answer is stored in the same one. The memory store starts empty
 * at each change of Redis's health: what it held may predate mutations made on other replicas.
 */
export function sharedResponseStore(link: RedisLink, shared: RedisResponseStore, memory: MemoryResponseStore, onFallback: () => void): ResponseStore {
  let mutatedWhileDown = false;
  link.onHealthChange((up) => {
    void memory.clear();
    // The other replicas kept serving Redis's entries; a write made here meanwhile empties them now.
    if (up && mutatedWhileDown) {
      mutatedWhileDown = false;
      shared.clear().catch(onFallback);
    }
  });
  const SHARED = 'redis:';
  const LOCAL = 'memory:';
  return {
    lookup: (key) =>
      sharedOrLocal(
        link,
        async () => {
          const found = await shared.lookup(key);
          return { json: found.json, generation: SHARED + found.generation };
        },
        async () => {
          const found = await memory.lookup(key);
          return { json: found.json, generation: LOCAL + found.generation };
        },
        onFallback,
      ),
    store: (key, json, generation) => {
      if (generation.startsWith(LOCAL)) return memory.store(key, json, generation.slice(LOCAL.length));
      return shared.store(key, json, generation.slice(SHARED.length)).catch(onFallback);
    },
    async clear() {
      await memory.clear();
      // While Redis is unreachable a mutation empties only this replica's memory: the others serve
      // what they hold until it expires or Redis returns, as they would serve changes made in GitLab.
      if (!link.isUp) mutatedWhileDown = true;
      else
        await shared.clear().catch(() => {
          mutatedWhileDown = true;
          onFallback();
        });
    },
  };
}
