import { badUserInput } from '../errors/graphql-errors.js';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../datasources/pagination.js';
import { decodeCursor } from './cursor.js';

/** The Relay paging arguments every connection field takes. */
export interface ConnectionArgs {
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
}

/**
 * The slice of the whole list a connection asks for, as absolute item offsets.
 * `end` is null for `last` without `before`: the tail, whose position needs the list's total.
 */
export interface ItemWindow {
  start: number;
  end: number | null;
  /** For the tail: how many items to take from the end. */
  tailSize: number;
  /** Whether `before` pinned the end (an item is known to exist there). */
  endsAtCursor: boolean;
}

function checkSize(value: number | null | undefined, name: 'first' | 'last'): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0 || value > MAX_PER_PAGE) {
    throw badUserInput(`\`${name}\` must be between 0 and ${MAX_PER_PAGE}; got ${value}.`, name);
  }
  return value;
}

/**
 * Validates the paging arguments and works out the window they select, before any REST call.
 * Without `first` and `last` a page holds 20 items, as REST's default.
 */
export function windowFor(args: ConnectionArgs): ItemWindow {
  const first = checkSize(args.first, 'first');
  const last = checkSize(args.last, 'last');
  if (first !== undefined && last !== undefined) {
    throw badUserInput('Give `first` or `last`, not both.', 'last');
  }
  const afterOffset = args.after ? decodeCursor(args.after, 'after') : undefined;
  const beforeOffset = args.before ? decodeCursor(args.before, 'before') : undefined;

  const start = afterOffset === undefined ? 0 : afterOffset + 1;
  let end: number | null = beforeOffset ?? null;
  if (end !== null && end < start) {
    throw badUserInput('`before` must come after `after` in the list.', 'before');
  }

  const pagingBackward = last !== undefined || (first === undefined && end !== null && afterOffset === undefined);
  if (!pagingBackward) {
    const size = first ?? DEFAULT_PER_PAGE;
    end = end === null ? start + size : Math.min(end, start + size);
    return { start, end, tailSize: 0, endsAtCursor: beforeOffset !== undefined };
  }
  const size = last ?? DEFAULT_PER_PAGE;
  if (end === null) return { start, end: null, tailSize: size, endsAtCursor: false };
  return { start: Math.max(start, end - size), end, tailSize: 0, endsAtCursor: true };
}

/**
 * The REST pages that cover `[start, end)`: one page whenever some page size between the window's
 * length and 100 holds the whole window, otherwise two consecutive pages of the window's length.
 */
export function pagesCovering(start: number, end: number): Array<{ page: number; perPage: number }> {
  const length = Math.max(1, end - start);
  for (let perPage = length; perPage <= MAX_PER_PAGE; perPage++) {
    const firstPage = Math.floor(start / perPage);
    if (firstPage === Math.floor((end - 1) / perPage)) return [{ page: firstPage + 1, perPage }];
  }
  const firstPage = Math.floor(start / length);
  return [
    { page: firstPage + 1, perPage: length },
    { page: firstPage + 2, perPage: length },
  ];
}
