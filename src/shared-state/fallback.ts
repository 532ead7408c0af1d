import type { RedisLink } from './redis-link.js';

/** Which store fell back to memory, as the metric labels it. */
export type SharedStore = 'persisted_queries' | 'response_cache' | 'caller_limits';

/**
 * Runs `shared` when Redis is up, `local` otherwise or when `shared` fails (a timeout, a dropped
 * connection): a request never fails because Redis did. Each fallback is told to `onFallback`.
 */
export async function sharedOrLocal<T>(
  link: RedisLink,
  shared: () => Promise<T>,
  local: () => T | Promise<T>,
  onFallback: () => void,
): Promise<T> {
  if (link.isUp) {
    try {
      return await shared();
    } catch {
      // Redis is slow or gone; the link's health follows on its own.
    }
  }
  onFallback();
  return local();
}
