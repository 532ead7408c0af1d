import { badUserInput } from '../../errors/graphql-errors.js';

const UNIT = '(?:mo|months?|w|weeks?|d|days?|h|hrs?|hours?|m|mins?|minutes?|s|secs?|seconds?)';
/** A bare number (hours), or numbers with units: `3h30m`, `1w 2d`, `1.5h` (Gitlab::TimeTrackingFormatter over ChronicDuration). */
const DURATION = new RegExp(`^(?:\\d+(?:\\.\\d+)?|(?:\\d+(?:\\.\\d+)?\\s*${UNIT}\\s*)+)$`, 'i');

/**
 * A human duration as REST reads it, checked before any REST call so that a typo is a clear
 * error rather than REST's validation message. `signed` allows a leading `-` (spent time can be
 * subtracted; an estimate cannot be negative).
 */
export function checkDuration(duration: string, options: { signed: boolean }): string {
  const trimmed = duration.trim();
  const unsigned = options.signed && trimmed.startsWith('-') ? trimmed.slice(1).trim() : trimmed;
  if (!DURATION.test(unsigned)) {
    throw badUserInput(
      `\`duration\` must be a human duration such as 1h30m, 3h 30m, 2d or 1w 2d (units mo, w, d, h, m, s; a bare number is hours${
        options.signed ? '; a leading - subtracts' : ''
      }); got "${duration.slice(0, 100)}".`,
      'duration',
    );
  }
  return trimmed;
}
