import type { Page, PageRequest } from '../datasources/pagination.js';
import { MAX_PER_PAGE } from '../datasources/pagination.js';
import { badUserInput } from '../errors/graphql-errors.js';
import { withFields } from '../datasources/with-fields.js';
import { encodeCursor } from './cursor.js';
import { pagesCovering, windowFor, type ConnectionArgs, type ItemWindow } from './window.js';

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

/** A Relay connection over REST records; every `XConnection` type of the schema maps to it. */
export interface Connection<T> {
  count: number | null;
  nodes: T[];
  edges: Array<Edge<T>>;
  pageInfo: PageInfo;
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

export type PageFetcher<T> = (page: PageRequest) => Promise<Page<T>>;

/** What `last` without `before` asks first: the biggest page, to learn the list's total. */
const TAIL_HEAD: PageRequest = Object.freeze({ page: 1, perPage: MAX_PER_PAGE });

/** How a connection reads its REST list: in REST's order, or from its end (`reversed`). */
export interface ListOrder {
  reversed?: boolean;
}

/**
 * The REST pages a connection asks for before it has seen any: the whole plan of a window with an
 * end, or the head page of a tail (and of any reversed list, whose place needs the total). Checks
 * the paging arguments (throws as restConnection would). The lookahead (resolvers/lookahead.ts)
 * sends these early, so they must be what restConnection asks.
 */
export function openingPages(args: ConnectionArgs, order: ListOrder = {}): PageRequest[] {
  const window = windowFor(args);
  return window.end === null || order.reversed ? [TAIL_HEAD] : pagesCovering(window.start, window.end);
}

/** Items fetched from REST, placed at their absolute offsets. */
interface Fetched<T> {
  /** Offset of `items[0]` in the whole list. */
  offset: number;
  items: T[];
  /** Whether REST said more items follow the last fetched page. */
  moreAfter: boolean;
  total: number | null;
}

async function fetchRange<T>(fetchPage: PageFetcher<T>, start: number, end: number): Promise<Fetched<T>> {
  const plan = pagesCovering(start, end);
  // Independent pages are fetched at the same time. Most windows are one page, which needs no
  // Promise.all (its array, closures and promise per connection: a fleet page makes 100).
  const pages = plan.length === 1 ? [await fetchPage(plan[0]!)] : await Promise.all(plan.map((request) => fetchPage(request)));
  const firstRequest = plan[0]!;
  const items: T[] = [];
  let complete = true;
  for (const [index, page] of pages.entries()) {
    if (!complete) break;
    items.push(...page.items);
    // A short page ends the list; a later page's items would not be adjacent.
    complete = page.items.length >= plan[index]!.perPage;
  }
  const lastPage = pages[pages.length - 1]!;
  return {
    offset: (firstRequest.page - 1) * firstRequest.perPage,
    items,
    moreAfter: complete && lastPage.hasNextPage,
    total: pages.find((page) => page.total !== null)?.total ?? null,
  };
}

function assemble<T>(fetched: Fetched<T>, window: { start: number; end: number }, endsAtCursor: boolean): Connection<T> {
  const from = Math.max(0, window.start - fetched.offset);
  const to = Math.max(from, window.end - fetched.offset);
  const nodes = fetched.items.slice(from, to);
  const fetchedBeyondWindow = fetched.items.length > to;
  const hasNextPage = fetchedBeyondWindow || (nodes.length === window.end - window.start && (fetched.moreAfter || endsAtCursor));
  return new ConnectionPage(fetched.total, nodes, window.start, hasNextPage);
}

/**
 * One page of a connection. Its edges and cursors are made when read, by getters on the prototype:
 * most queries select `nodes`, and a cursor per item is then work for nothing; a page with nested
 * lists has a connection per parent (an issue's assignees, a runner's jobs), and few queries select
 * their cursors.
 *
 * Classes rather than object literals with getters: a literal's getters are new closures each
 * time, and V8 gives every object whose accessors are closures of its own a hidden class of its
 * own, made in the old generation. A fleet page (200 connections) made about 400 such classes, and
 * through them the old generation held every getter's closure, and so the page's nodes and their
 * REST records, through each young-generation collection until a full one (with the record copies
 * withFields now makes, about 1.2 MB promoted per collection, each taking 4-9 ms: issue 29,
 * docs/performance.md "Hidden classes made per object").
 */
class ConnectionPage<T> implements Connection<T> {
  readonly pageInfo: PageCursors<T>;
  readonly #start: number;

  constructor(
    readonly count: number | null,
    readonly nodes: T[],
    start: number,
    hasNextPage: boolean,
  ) {
    this.#start = start;
    this.pageInfo = new PageCursors(nodes, start, hasNextPage);
  }

  get edges(): Array<Edge<T>> {
    return this.nodes.map((node, index) => ({ cursor: encodeCursor(this.#start + index), node }));
  }
}

class PageCursors<T> implements PageInfo {
  readonly hasPreviousPage: boolean;
  readonly #nodes: readonly T[];
  readonly #start: number;

  constructor(
    nodes: readonly T[],
    start: number,
    readonly hasNextPage: boolean,
  ) {
    this.hasPreviousPage = start > 0;
    this.#nodes = nodes;
    this.#start = start;
  }

  get startCursor(): string | null {
    return this.#nodes.length > 0 ? encodeCursor(this.#start) : null;
  }

  get endCursor(): string | null {
    return this.#nodes.length > 0 ? encodeCursor(this.#start + this.#nodes.length - 1) : null;
  }
}

/**
 * A connection over a paginated REST list. The arguments are checked before any REST call. A
 * window costs one REST call, or two when no single page size holds it; `last` without `before`
 * first asks for 100 items to learn the total (and is done then for lists of up to 100).
 */
export async function restConnection<T>(args: ConnectionArgs, fetchPage: PageFetcher<T>, order: ListOrder = {}): Promise<Connection<T>> {
  const window = windowFor(args);
  if (order.reversed) return reversedConnection(window, fetchPage);
  if (window.end !== null) {
    return assemble(await fetchRange(fetchPage, window.start, window.end), { start: window.start, end: window.end }, window.endsAtCursor);
  }
  return tailConnection(window, fetchPage);
}

async function tailConnection<T>(window: ItemWindow, fetchPage: PageFetcher<T>): Promise<Connection<T>> {
  const head = await fetchPage(TAIL_HEAD);
  const total = head.total ?? (head.hasNextPage ? null : head.items.length);
  if (total === null) {
    throw badUserInput(
      'This list has no total count (REST omits it past 10,000 items and for commits), so `last` needs a `before` cursor; page forward with `first` instead.',
      'last',
    );
  }
  const range = { start: Math.max(window.start, total - window.tailSize), end: total };
  if (range.end <= head.items.length) {
    return assemble({ offset: 0, items: head.items, moreAfter: false, total }, range, false);
  }
  const fetched = await fetchRange(fetchPage, range.start, range.end);
  return assemble(withFields(fetched, { total: fetched.total ?? total }), range, false);
}

/**
 * A connection over a REST list read from its end: item i of the connection is item total - 1 - i
 * of REST's list (newest first, where REST lists oldest first). Its place needs the total, so the
 * first call is the head page of 100 that a tail asks (lists of up to 100 are then done), then the
 * REST range that mirrors the window.
 */
async function reversedConnection<T>(window: ItemWindow, fetchPage: PageFetcher<T>): Promise<Connection<T>> {
  const head = await fetchPage(TAIL_HEAD);
  const total = head.total ?? (head.hasNextPage ? null : head.items.length);
  if (total === null) {
    throw badUserInput('This list has no total count (REST omits it past 10,000 items), so it cannot be read from its end; narrow it with its filters.', 'sort');
  }
  const end = Math.min(total, window.end ?? total);
  const start = Math.min(end, window.end === null ? Math.max(window.start, total - window.tailSize) : window.start);
  // The REST items [total - end, total - start), reversed.
  const restStart = total - end;
  const restEnd = total - start;
  const fetched = restEnd <= head.items.length ? { offset: 0, items: head.items } : await fetchRange(fetchPage, restStart, restEnd);
  const items = fetched.items.slice(restStart - fetched.offset, restEnd - fetched.offset).reverse();
  return assemble({ offset: start, items, moreAfter: end < total, total }, { start, end }, false);
}

/** A connection over a list REST already returned whole (for example a runner's projects). */
export function arrayConnection<T>(args: ConnectionArgs, all: ReadonlyArray<T>): Connection<T> {
  const window = windowFor(args);
  const end = window.end ?? all.length;
  const start = window.end === null ? Math.max(window.start, all.length - window.tailSize) : window.start;
  return assemble({ offset: 0, items: [...all], moreAfter: false, total: all.length }, { start, end: Math.min(end, all.length) }, false);
}

