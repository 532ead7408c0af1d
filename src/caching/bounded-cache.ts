// The one bounded LRU the gateway keeps in memory: persisted queries, cached responses, parsed WebSocket documents.

/**
 * A least-recently-used map bounded by entries and, when `sizeOf` is given, by total size; entries
 * may expire after `ttlMs`. A Map keeps insertion order, so re-inserting on each hit makes its
 * first key the least recently used one.
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, { value: V; size: number; expiresAt: number }>();
  private totalSize = 0;

  constructor(private readonly options: { maxEntries: number; maxSize?: number; ttlMs?: number; sizeOf?: (value: V) => number }) {}

  get size(): number {
    return this.entries.size;
  }

  /** The entries' sizes summed (by `sizeOf`; 0 without it). */
  get occupied(): number {
    return this.totalSize;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= Date.now()) {
      this.totalSize -= entry.size;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    const size = this.options.sizeOf?.(value) ?? 0;
    if (this.options.maxSize !== undefined && size > this.options.maxSize) return;
    this.delete(key);
    this.entries.set(key, { value, size, expiresAt: this.options.ttlMs === undefined ? Infinity : Date.now() + this.options.ttlMs });
    this.totalSize += size;
    while (this.entries.size > this.options.maxEntries || (this.options.maxSize !== undefined && this.totalSize > this.options.maxSize)) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  delete(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.totalSize -= entry.size;
    return true;
  }

  clear(): void {
    this.entries.clear();
    this.totalSize = 0;
  }
}
