// `sort: MilestoneSort` of the project and group milestone lists. REST's milestone lists take no
// order argument, so an ordered list is the whole REST list (read page by page through the
// pagination helper, within a ceiling) ordered here as GitLab orders it, and the connection's window
// is cut from that ordered list.
import { GraphQLError } from 'graphql';
import type { MilestoneSort } from '../../__generated__/resolvers-types.js';
import { arrayConnection, type Connection, type PageFetcher } from '../../connections/connection.js';
import { everyPageWithin } from '../../datasources/every-page.js';
import { windowFor, type ConnectionArgs } from '../../connections/window.js';
import type { MilestoneSchema } from '../../datasources/issuable-schemas.js';
import { MAX_PER_PAGE } from '../../datasources/pagination.js';
import { milestoneExpired } from './labels.js';

/**
 * Most REST pages (of 100) read to order a milestone list: 1,000 milestones. A longer list is refused
 * rather than read without end; src/cost/field-costs.ts counts these pages for every sorted list.
 */
export const MAX_SORTED_MILESTONE_PAGES = 10;

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
    `This milestone list holds more than ${ceiling} milestones, the most the gateway orders (REST cannot order milestones, so \`sort\` reads the whole list). Narrow it with \`state\`, \`title\` or \`searchTitle\`, or leave out \`sort\` to page through it in REST's order.`,
    { extensions: { code: 'LIMIT_EXCEEDED', limit: 'sortedMilestones', maxItems: ceiling } },
  );
}

/**
 * A milestone connection in the order `sort` asks: the paging arguments are checked first, then
 * every page of the REST list is read (one call for up to 100 milestones) and ordered, and the
 * window is served from the ordered list.
 */
export async function sortedMilestoneConnection(args: ConnectionArgs, sort: MilestoneSort, fetchPage: PageFetcher<MilestoneSchema>): Promise<Connection<MilestoneSchema>> {
  windowFor(args);
  const milestones = await everyPageWithin(fetchPage, MAX_SORTED_MILESTONE_PAGES);
  if (milestones === null) throw tooManyToSort();
  return arrayConnection(args, sortMilestones(milestones, sort));
}
