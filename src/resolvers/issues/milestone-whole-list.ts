// What the project and group milestone lists take that REST's lists do not: `sort: MilestoneSort`
// (REST has no order argument), `ids` (REST filters by iid only) and the dates, `containingDate` and
// `timeframe` (REST has no date filter). With any of them the list is the whole REST list (read page
// by page through the pagination helper, within a ceiling), filtered and ordered here as GitLab's
// MilestonesFinder does, and the connection's window is cut from the result.
import { GraphQLError } from 'graphql';
import type { MilestoneSort, Timeframe } from '../../__generated__/resolvers-types.js';
import { arrayConnection, type Connection, type PageFetcher } from '../../connections/connection.js';
import { everyPageWithin } from '../../datasources/every-page.js';
import { windowFor, type ConnectionArgs } from '../../connections/window.js';
import type { MilestoneSchema } from '../../datasources/issuable-schemas.js';
import { MAX_PER_PAGE } from '../../datasources/pagination.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { idFromGlobalId } from '../global-id.js';
import { milestoneExpired } from './labels.js';

/**
 * Most REST pages (of 100) read to order or filter a milestone list here: 1,000 milestones. A longer
 * list is refused rather than read without end; the milestone lists' declared cost counts these pages.
 */
export const MAX_SORTED_MILESTONE_PAGES = 10;

/** The arguments only a whole list can answer. */
export interface WholeListArgs {
  sort?: MilestoneSort | null;
  ids?: readonly string[] | null;
  containingDate?: string | null;
  timeframe?: Timeframe | null;
}

/** Whether the arguments ask for what REST's milestone lists cannot do (the lists' declared cost asks too). */
export function needsWholeMilestoneList(args: Readonly<Record<string, unknown>>): boolean {
  return ['sort', 'ids', 'containingDate', 'timeframe'].some((name) => args[name] !== undefined && args[name] !== null);
}

/** `Date` values (`YYYY-MM-DD`) and the day of a `Time`, compared as text: the same format. */
const DAY = /^\d{4}-\d{2}-\d{2}/;

function dayOf(value: string, argumentName: string): string {
  const day = DAY.exec(value)?.[0];
  if (!day || Number.isNaN(Date.parse(day))) throw badUserInput(`\`${argumentName}\` must be a date such as 2026-11-24; got "${value.slice(0, 40)}".`, argumentName);
  return day;
}

/**
 * Timebox.within_timeframe(start, end): milestones with a start or a due date, starting no later than
 * `end` (or with no start) and due no earlier than `start` (or with no due date).
 */
function withinTimeframe(start: string, end: string): (milestone: MilestoneSchema) => boolean {
  return (milestone) =>
    (milestone.start_date != null || milestone.due_date != null) &&
    (milestone.start_date == null || milestone.start_date <= end) &&
    (milestone.due_date == null || milestone.due_date >= start);
}

/**
 * The filter the arguments name, checked before any call: `ids` are Milestone global IDs; one of
 * `containingDate` (the day of the time given, as GitLab compares it with dates) or `timeframe`
 * (start no later than end), as GitLab's milestone resolver takes one or the other.
 */
function milestoneFilter(args: WholeListArgs): (milestone: MilestoneSchema) => boolean {
  const ids = args.ids ? new Set(args.ids.map((id) => idFromGlobalId(id, 'Milestone', 'ids'))) : null;
  if (args.containingDate != null && args.timeframe != null) throw badUserInput('Give `containingDate` or `timeframe`, not both.', 'timeframe');
  let dates: ((milestone: MilestoneSchema) => boolean) | null = null;
  if (args.containingDate != null) {
    const day = dayOf(args.containingDate, 'containingDate');
    dates = withinTimeframe(day, day);
  } else if (args.timeframe != null) {
    const start = dayOf(args.timeframe.start, 'timeframe.start');
    const end = dayOf(args.timeframe.end, 'timeframe.end');
    if (start > end) throw badUserInput('`timeframe.start` must not be after `timeframe.end`.', 'timeframe');
    dates = withinTimeframe(start, end);
  }
  return (milestone) => (ids === null || ids.has(milestone.id)) && (dates === null || dates(milestone));
}

type Comparator = (a: MilestoneSchema, b: MilestoneSchema) => number;

/** `Milestone.with_order_id_desc`: GitLab breaks every tie by the newest milestone first. */
const newestFirst: Comparator = (a, b) => b.id - a.id;

/** Dates (`YYYY-MM-DD`) in order, a missing one after every date whichever the direction (`NULLS LAST`). */
function byDueDate(direction: 1 | -1): Comparator {
  return (a, b) => {
    if (!a.due_date || !b.due_date) return (a.due_date ? 0 : 1) - (b.due_date ? 0 : 1);
    return direction * a.due_date.localeCompare(b.due_date);
  };
}

/** Timestamps as instants (REST may write them in different offsets). */
function byTime(key: 'created_at' | 'updated_at', direction: 1 | -1): Comparator {
  const instant = (milestone: MilestoneSchema) => Date.parse(milestone[key] ?? '') || 0;
  return (a, b) => direction * (instant(a) - instant(b));
}

/**
 * `Milestone.sort_with_expired_last`: not expired with a due date (0), without a due date (1),
 * expired (2). Expired is REST's own `expired` (the server's today) when the record has it.
 */
function expiryGroup(milestone: MilestoneSchema): number {
  if (!milestone.due_date) return 1;
  return (milestone.expired ?? milestoneExpired(milestone)) ? 2 : 0;
}

const expiredLast: Comparator = (a, b) => expiryGroup(a) - expiryGroup(b);

function chain(...comparators: Comparator[]): Comparator {
  return (a, b) => {
    for (const compare of comparators) {
      const order = compare(a, b);
      if (order !== 0) return order;
    }
    return 0;
  };
}

/**
 * GitLab's orders (MilestonesFinder#order, Milestone.sort_by_attribute and sort_with_expired_last),
 * keyed by the enum's REST-side values; the deprecated lower-case names share them.
 */
const ORDERS: Readonly<Record<MilestoneSort, Comparator>> = {
  due_date_asc: chain(byDueDate(1), newestFirst),
  due_date_desc: chain(byDueDate(-1), newestFirst),
  // Within a group the due dates are all set or all missing, so where PostgreSQL puts nulls is moot.
  expired_last_due_date_asc: chain(expiredLast, byDueDate(1), newestFirst),
  expired_last_due_date_desc: chain(expiredLast, byDueDate(-1), newestFirst),
  created_asc: chain(byTime('created_at', 1), newestFirst),
  created_desc: chain(byTime('created_at', -1), newestFirst),
  updated_asc: chain(byTime('updated_at', 1), newestFirst),
  updated_desc: chain(byTime('updated_at', -1), newestFirst),
};

/** The milestones in GitLab's order for `sort` (a new array). */
export function sortMilestones(milestones: readonly MilestoneSchema[], sort: MilestoneSort): MilestoneSchema[] {
  return [...milestones].sort(ORDERS[sort]);
}

function tooManyToSort(): GraphQLError {
  const ceiling = MAX_SORTED_MILESTONE_PAGES * MAX_PER_PAGE;
  return new GraphQLError(
    `This milestone list holds more than ${ceiling} milestones, the most the gateway orders or filters (REST cannot order milestones or filter them by id or date, so \`sort\`, \`ids\`, \`containingDate\` and \`timeframe\` read the whole list). Narrow it with \`state\`, \`title\` or \`searchTitle\`, or leave those out to page through it in REST's order.`,
    { extensions: { code: 'LIMIT_EXCEEDED', limit: 'sortedMilestones', maxItems: ceiling } },
  );
}

/**
 * A milestone connection filtered and ordered as the arguments ask: the paging and filter arguments
 * are checked first, then every page of the REST list is read (one call for up to 100 milestones),
 * kept by the filter, ordered by `sort` (else left in REST's order), and the window served from it.
 */
export async function wholeMilestoneConnection(args: ConnectionArgs & WholeListArgs, fetchPage: PageFetcher<MilestoneSchema>): Promise<Connection<MilestoneSchema>> {
  windowFor(args);
  const keep = milestoneFilter(args);
  const milestones = await everyPageWithin(fetchPage, MAX_SORTED_MILESTONE_PAGES);
  if (milestones === null) throw tooManyToSort();
  const kept = milestones.filter(keep);
  return arrayConnection(args, args.sort ? sortMilestones(kept, args.sort) : kept);
}
