/**
 * Token scrubbing for anything that leaves the gateway (errors, logs). GitLab tokens carry
 * recognisable prefixes (personal `glpat-`, OAuth `gloas-`, runner `glrt-`, CI job `glcbt-`,
 * deploy `gldt-`, feed `glft-`, ...) and legacy runner registration tokens start `GR1348941`.
 */
const TOKEN_PATTERN = /\b(?:gl[a-z]{2,8}-|GR1348941)[0-9A-Za-z_.-]+/g;

export const REDACTED = '[REDACTED]';

/** Replaces every GitLab-looking token, and any of the given secrets, with `[REDACTED]`. */
export function redact(text: string, secrets: ReadonlyArray<string> = []): string {
  let result = text.replace(TOKEN_PATTERN, REDACTED);
  for (const secret of secrets) {
    if (secret.length >= 4) result = result.split(secret).join(REDACTED);
  }
  return result;
}

/** Redacts every string inside a JSON-like value (REST error bodies can be objects of arrays). */
export function redactDeep(value: unknown, secrets: ReadonlyArray<string> = []): unknown {
  return scrubDeep(value, (text) => redact(text, secrets));
}

/**
 * How deep scrubDeep reads. Its values come from outside (REST error bodies): an upstream body of
 * 50,000 nested objects overflowed the stack here and turned a 404 into INTERNAL_SERVER_ERROR.
 * No error body GitLab sends is nested beyond a few levels.
 */
const MAX_SCRUB_DEPTH = 32;
export const TOO_DEEP = '[nested too deeply]';

/**
 * Applies `scrub` to every string inside a JSON-like value, keys left as they are. What lies deeper
 * than MAX_SCRUB_DEPTH is replaced with TOO_DEEP, never passed on unscrubbed.
 */
export function scrubDeep(value: unknown, scrub: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return scrub(value);
  if (value && typeof value === 'object' && depth >= MAX_SCRUB_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((item) => scrubDeep(item, scrub, depth + 1));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubDeep(item, scrub, depth + 1)]));
  }
  return value;
}
