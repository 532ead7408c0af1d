import { RestError } from '../../datasources/rest-error.js';
import { refusalReasons } from '../groups/refusals.js';

/** Keys of a REST error `message` object whose entries are whole sentences, not attribute errors. */
const SENTENCE_KEYS: ReadonlySet<string> = new Set(['error', 'base']);

/**
 * The payload `errors` of a refused issue or board write (REST 400 or 422), or null when the error
 * is not a refusal. Besides the model errors `refusalReasons` reads, GitLab answers these writes
 * with `render_api_error!({ error: "List could not be moved!" }, 400)` and with `:base` errors
 * ("Time to subtract exceeds the total time spent"), which are sentences already.
 */
export function refusedWrite(error: unknown): string[] | null {
  if (error instanceof RestError && (error.status === 400 || error.status === 422)) {
    const message = error.restMessage;
    if (message && typeof message === 'object' && !Array.isArray(message)) {
      const entries = Object.entries(message as Record<string, unknown>);
      if (entries.length > 0 && entries.every(([key]) => SENTENCE_KEYS.has(key))) {
        return entries.flatMap(([, value]) => (Array.isArray(value) ? (value as unknown[]) : [value])).map(String);
      }
    }
  }
  return refusalReasons(error);
}
