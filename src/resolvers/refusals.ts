import { RestError } from '../datasources/rest-error.js';

/**
 * Keys of a REST error `message` object whose entries are whole sentences, not attribute errors:
 * `render_api_error!({ error: "List could not be moved!" }, 400)` and the model's `:base` errors
 * ("Time to subtract exceeds the total time spent", "Duplicate page: ...").
 */
const SENTENCE_KEYS: ReadonlySet<string> = new Set(['error', 'base']);

/** `visibility_level` -> `Visibility level`, as Rails' `full_messages` names attributes. */
function attributeName(field: string): string {
  const words = field.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function sentences(fields: Record<string, unknown>): string[] {
  return Object.entries(fields).flatMap(([field, problems]) =>
    (Array.isArray(problems) ? problems : [problems]).map((problem) =>
      SENTENCE_KEYS.has(field) ? String(problem) : `${attributeName(field)} ${String(problem)}`,
    ),
  );
}

/**
 * `Failed to save group {:path=>["has already been taken"]}`: lib/api/groups.rb prints the model
 * errors with Ruby's Hash#inspect. Read back into sentences; anything else stays as REST wrote it.
 */
function fromRubyInspect(message: string): string[] {
  const match = /^(.*?)\s*\{(.*)\}\s*$/s.exec(message);
  if (!match?.[2]) return [message];
  const fields: Record<string, string[]> = {};
  for (const entry of match[2].matchAll(/:?"?(\w+)"?\s*(?:=>|:)\s*\[([^\]]*)\]/g)) {
    const problems = [...(entry[2] ?? '').matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((quoted) => (quoted[1] ?? '').replace(/\\"/g, '"'));
    if (entry[1] && problems.length > 0) fields[entry[1]] = problems;
  }
  const found = sentences(fields);
  return found.length > 0 ? found.map((sentence) => `${match[1]}: ${sentence}`) : [message];
}

/**
 * The one rule for every mutation of the graph: when REST refused a write for reasons of its
 * model (400 or 422 with the reasons in `message`: a path already taken, a timeout below the
 * minimum, a duplicate page), those reasons as sentences for the payload's `errors`, an expected
 * outcome as in GitLab's own GraphQL API. Null for every other error, which stays a GraphQL error
 * (a bare `400 Bad request`, Grape's `{"error": ...}` parameter errors, 401, 403, 404).
 */
export function refusalReasons(error: unknown): string[] | null {
  if (!(error instanceof RestError) || (error.status !== 400 && error.status !== 422)) return null;
  const message = error.restMessage;
  if (message && typeof message === 'object' && !Array.isArray(message)) return sentences(message as Record<string, unknown>);
  // `render_api_error!(errors[:branch_conflict], 422)`: the model's sentences as an array.
  if (Array.isArray(message) && message.length > 0 && message.every((item) => typeof item === 'string')) return message;
  // "400 Bad request", "422 Unprocessable Entity": a status line, not a reason.
  if (typeof message === 'string' && !/^\d{3}\b/.test(message.trim())) return fromRubyInspect(message);
  return null;
}
