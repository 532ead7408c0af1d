// GitLab's time tracking durations (Gitlab::TimeTrackingFormatter over ChronicDuration, with
// CUSTOM_DAY_AND_MONTH_LENGTH): a day is 8 hours, a week 5 days, a month 4 weeks; the short form
// joins the non-zero units with spaces ("1w 2d 3h 30m"), and a bare number reads as hours.

const HOUR = 3600;
const UNITS: ReadonlyArray<readonly [suffix: string, seconds: number]> = [
  ['mo', 4 * 5 * 8 * HOUR],
  ['w', 5 * 8 * HOUR],
  ['d', 8 * HOUR],
  ['h', HOUR],
  ['m', 60],
  ['s', 1],
];

const UNIT_WORDS: Readonly<Record<string, number>> = {
  mo: UNITS[0]![1], mos: UNITS[0]![1], month: UNITS[0]![1], months: UNITS[0]![1],
  w: UNITS[1]![1], wk: UNITS[1]![1], wks: UNITS[1]![1], week: UNITS[1]![1], weeks: UNITS[1]![1],
  d: UNITS[2]![1], day: UNITS[2]![1], days: UNITS[2]![1],
  h: HOUR, hr: HOUR, hrs: HOUR, hour: HOUR, hours: HOUR,
  m: 60, min: 60, mins: 60, minute: 60, minutes: 60,
  s: 1, sec: 1, secs: 1, second: 1, seconds: 1,
};

/** Seconds in GitLab's short human form: `5400` -> `1h 30m`; null for zero, as GitLab answers. */
export function formatHumanDuration(seconds: number): string | null {
  if (!Number.isFinite(seconds) || seconds === 0) return null;
  const sign = seconds < 0 ? '-' : '';
  let rest = Math.abs(Math.round(seconds));
  const parts: string[] = [];
  for (const [suffix, size] of UNITS) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count}${suffix}`);
    rest -= count * size;
  }
  return `${sign}${parts.join(' ')}`;
}

/**
 * A human duration in seconds as GitLab parses it (`1h 30m`, `1h30m`, `1.5h`, `2 days`, `3`: hours),
 * negative with a leading `-`; null when it is not one.
 */
export function parseHumanDuration(text: string): number | null {
  const trimmed = text.trim();
  const negative = trimmed.startsWith('-');
  const body = (negative ? trimmed.slice(1) : trimmed).trim();
  if (body === '') return null;
  let seconds: number;
  if (/^\d+(\.\d+)?$/.test(body)) {
    seconds = Number(body) * HOUR;
  } else {
    const token = /(\d+(?:\.\d+)?)\s*([a-z]+)[\s,]*/giy;
    seconds = 0;
    let consumed = 0;
    for (let match = token.exec(body); match; match = token.exec(body)) {
      const unit = UNIT_WORDS[match[2]!.toLowerCase()];
      if (unit === undefined) return null;
      seconds += Number(match[1]) * unit;
      consumed = token.lastIndex;
    }
    if (consumed !== body.length) return null;
  }
  return Math.round(seconds) * (negative ? -1 : 1);
}
