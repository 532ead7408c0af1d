// Time tracking values (rest-v4-api.md "Time stats"): seconds, and GitLab's short human form, which
// counts 8-hour days, 5-day weeks and 4-week months (Gitlab::TimeTrackingFormatter).
const UNITS: Array<[suffix: string, seconds: number]> = [
  ['mo', 4 * 5 * 8 * 3600],
  ['w', 5 * 8 * 3600],
  ['d', 8 * 3600],
  ['h', 3600],
  ['m', 60],
  ['s', 1],
];

/** `12600` -> `3h 30m`; null for zero, as REST sends. */
export function humanDuration(seconds: number): string | null {
  if (seconds <= 0) return null;
  const parts: string[] = [];
  let rest = seconds;
  for (const [suffix, size] of UNITS) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count}${suffix}`);
    rest -= count * size;
  }
  return parts.join(' ');
}

const WORD_UNITS: Record<string, number> = {
  mo: UNITS[0]![1], month: UNITS[0]![1], months: UNITS[0]![1],
  w: UNITS[1]![1], week: UNITS[1]![1], weeks: UNITS[1]![1],
  d: UNITS[2]![1], day: UNITS[2]![1], days: UNITS[2]![1],
  h: 3600, hr: 3600, hrs: 3600, hour: 3600, hours: 3600,
  m: 60, min: 60, mins: 60, minute: 60, minutes: 60,
  s: 1, sec: 1, secs: 1, second: 1, seconds: 1,
};

/**
 * A human duration (`3h30m`, `1w 2d`, `90m`; a bare number is hours) in seconds, negative with a
 * leading `-`; null when it is not one. Gitlab::TimeTrackingFormatter.parse over ChronicDuration.
 */
export function parseDuration(text: string): number | null {
  const trimmed = text.trim();
  const negative = trimmed.startsWith('-');
  const body = (negative ? trimmed.slice(1) : trimmed).trim();
  if (/^\d+(\.\d+)?$/.test(body)) return Math.round(Number(body) * 3600) * (negative ? -1 : 1);
  const token = /(\d+(?:\.\d+)?)\s*([a-z]+)\s*/gy;
  let seconds = 0;
  let consumed = 0;
  for (let match = token.exec(body); match; match = token.exec(body)) {
    const unit = WORD_UNITS[match[2]!.toLowerCase()];
    if (unit === undefined) return null;
    seconds += Number(match[1]) * unit;
    consumed = token.lastIndex;
  }
  if (body === '' || consumed !== body.length) return null;
  return Math.round(seconds) * (negative ? -1 : 1);
}

export function timeStatsEntity(timeEstimate: number, totalTimeSpent: number) {
  return {
    time_estimate: timeEstimate,
    total_time_spent: totalTimeSpent,
    human_time_estimate: humanDuration(timeEstimate),
    human_total_time_spent: humanDuration(totalTimeSpent),
  };
}
