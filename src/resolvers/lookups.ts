import { RestError } from '../datasources/rest-error.js';

/**
 * Nullable look-ups answer null when REST says 404 (which also means "not visible to you",
 * rest-conventions §7); every other failure stays an error.
 */
export async function nullWhenNotFound<T>(lookup: Promise<T>): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof RestError && error.status === 404) return null;
    throw error;
  }
}
