// GitLab's derived values on issues, each mapping tested case by case: the time tracking durations
// in GitLab's human form (Gitlab::TimeTrackingFormatter: 8-hour days, 5-day weeks, 4-week months)
// both ways, and Milestone#expired? (a due date before today; none is never expired).
import { describe, expect, it } from 'vitest';
import { formatHumanDuration, parseHumanDuration } from '../../src/resolvers/issues/human-duration.js';
import { milestoneExpired } from '../../src/resolvers/issues/labels.js';

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 8 * HOUR;
const WEEK = 5 * DAY;
const MONTH = 4 * WEEK;

describe('GitLab\'s human durations', () => {
  it.each([
    [0, null],
    [1, '1s'],
    [59, '59s'],
    [MINUTE, '1m'],
    [30 * MINUTE, '30m'],
    [HOUR, '1h'],
    [HOUR + 30 * MINUTE, '1h 30m'],
    [7 * HOUR + 59 * MINUTE, '7h 59m'],
    // A day is 8 hours, not 24.
    [8 * HOUR, '1d'],
    [24 * HOUR, '3d'],
    [DAY + HOUR + MINUTE + 1, '1d 1h 1m 1s'],
    // A week is 5 days.
    [5 * DAY, '1w'],
    [WEEK + 2 * DAY + 3 * HOUR + 30 * MINUTE, '1w 2d 3h 30m'],
    // A month is 4 weeks.
    [4 * WEEK, '1mo'],
    [MONTH + WEEK, '1mo 1w'],
    [2 * MONTH + DAY + MINUTE, '2mo 1d 1m'],
    [-(HOUR + 30 * MINUTE), '-1h 30m'],
  ])('formats %i seconds as %s', (seconds, human) => {
    expect(formatHumanDuration(seconds)).toBe(human);
  });

  it.each([
    ['1h', HOUR],
    ['1h 30m', HOUR + 30 * MINUTE],
    ['1h30m', HOUR + 30 * MINUTE],
    ['90m', 90 * MINUTE],
    ['1.5h', HOUR + 30 * MINUTE],
    ['3', 3 * HOUR],
    ['1d', DAY],
    ['2 days', 2 * DAY],
    ['1w', WEEK],
    ['1w 2d 3h 30m', WEEK + 2 * DAY + 3 * HOUR + 30 * MINUTE],
    ['1mo', MONTH],
    ['1 month 1 week', MONTH + WEEK],
    ['45s', 45],
    ['2 hours, 10 minutes', 2 * HOUR + 10 * MINUTE],
    ['-1h', -HOUR],
    ['  1H  ', HOUR],
  ])('parses "%s" as %i seconds', (text, seconds) => {
    expect(parseHumanDuration(text)).toBe(seconds);
  });

  it.each(['', ' ', 'an hour', '1x', '1h30', 'h', '1h and 2m', '--1h'])('refuses "%s"', (text) => {
    expect(parseHumanDuration(text)).toBeNull();
  });

  it.each([HOUR, HOUR + 30 * MINUTE, DAY + 1, WEEK + 2 * DAY + 3 * HOUR + 30 * MINUTE, 3 * MONTH + 7])('reads back what it writes (%i seconds)', (seconds) => {
    expect(parseHumanDuration(formatHumanDuration(seconds)!)).toBe(seconds);
  });
});

describe('Milestone.expired', () => {
  const today = new Date('2025-06-01T12:00:00Z');

  it.each([
    ['due yesterday', '2025-05-31', true],
    ['due long ago', '2024-01-01', true],
    ['due today', '2025-06-01', false],
    ['due tomorrow', '2025-06-02', false],
    ['without a due date', null, false],
  ])('is %s: %s -> %s', (_name, dueDate, expired) => {
    expect(milestoneExpired({ due_date: dueDate }, today)).toBe(expired);
  });

  it('judges by the UTC day', () => {
    expect(milestoneExpired({ due_date: '2025-05-31' }, new Date('2025-06-01T00:00:01Z'))).toBe(true);
    expect(milestoneExpired({ due_date: '2025-05-31' }, new Date('2025-05-31T23:59:59Z'))).toBe(false);
  });
});
