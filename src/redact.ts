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

/** Applies `scrub` to every string inside a JSON-like value, keys left as they are. */
export function scrubDeep(value: unknown, scrub: (text: string) => string): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((item) => scrubDeep(item, scrub));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubDeep(item, scrub)]));
  }
  return value;
}
