// Offset pagination exactly as rest-conventions §3 (GitLab's OffsetPagination and
// OffsetHeaderBuilder, Kaminari defaults).
import { grapeError } from './errors.js';
import { decodePairs } from './query.js';
import type { PageRequest, RequestContext } from './router.js';
import type { ApiResponse } from './response.js';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;
/** §3: above this many rows GitLab stops counting (no X-Total, X-Total-Pages, rel="last"). */
export const MAX_COUNT = 10_000;
/** §3 "Offset cap" default (`offset_pagination_limit`). */
export const DEFAULT_OFFSET_LIMIT = 50_000;

export interface PaginateOptions {
  /** false: never send totals, as the Commits API (§3); default: send them up to 10,000 rows. */
  counts?: boolean;
  /** Endpoints that also support keyset refuse offsets past the cap with 405 (§3); names the type. */
  offsetCap?: { typeName: string; limit?: number };
}

/** Kaminari: `per_page` defaults to 20 and is clamped to 100 silently (§3); `page` starts at 1. */
export function pageRequest(page: number | undefined, perPage: number | undefined): PageRequest {
  const p = page === undefined || page < 1 ? 1 : page;
  const size = perPage === undefined || perPage < 1 ? DEFAULT_PER_PAGE : Math.min(perPage, MAX_PER_PAGE);
  return { page: p, perPage: size };
}

export interface HeaderInput {
  origin: string;
  rawPath: string;
  rawQuery: string;
  page: PageRequest;
  total: number;
  withCounts: boolean;
}

// Credentials never go into a Link a client might log.
const DROPPED_FROM_LINKS = new Set(['page', 'per_page', 'private_token', 'access_token', 'job_token']);

function pageUrl(input: HeaderInput, page: number): string {
  const pairs = decodePairs(input.rawQuery).filter(([key]) => !DROPPED_FROM_LINKS.has(key));
  pairs.push(['page', String(page)], ['per_page', String(input.page.perPage)]);
  // Rails' Hash#to_query sorts by key.
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  // §3: links are built from the configured host (the server's own origin), not the Host header.
  return `${input.origin}/api/v4${input.rawPath}?${query}`;
}

export function paginationHeaders(input: HeaderInput): Record<string, string> {
  const { page, perPage } = input.page;
  const totalPages = Math.max(1, Math.ceil(input.total / perPage));
  // Kaminari: prev/next are nil on an out-of-range page; without counts only "is there more".
  const outOfRange = input.withCounts && page > totalPages;
  const hasNext = !outOfRange && page * perPage < input.total;
  const hasPrev = !outOfRange && page > 1;
  const headers: Record<string, string> = {
    'X-Page': String(page),
    'X-Per-Page': String(perPage),
    // §3: X-Next-Page / X-Prev-Page are always sent, "" at the ends (`nil.to_s`).
    'X-Next-Page': hasNext ? String(page + 1) : '',
    'X-Prev-Page': hasPrev ? String(page - 1) : '',
  };
  if (input.withCounts) {
    headers['X-Total'] = String(input.total);
    headers['X-Total-Pages'] = String(totalPages); // §3: at least 1, even when empty
  }
  // §3: order prev, next, first, last; joined with ", "; no rel="last" without counts.
  const links: string[] = [];
  if (hasPrev) links.push(`<${pageUrl(input, page - 1)}>; rel="prev"`);
  if (hasNext) links.push(`<${pageUrl(input, page + 1)}>; rel="next"`);
  links.push(`<${pageUrl(input, 1)}>; rel="first"`);
  if (input.withCounts) links.push(`<${pageUrl(input, totalPages)}>; rel="last"`);
  headers['Link'] = links.join(', ');
  return headers;
}

/** One page of `items` with every pagination header of §3. */
export function paginate<T>(
  ctx: RequestContext<unknown>,
  items: readonly T[],
  present: (item: T) => unknown,
  options: PaginateOptions = {},
): ApiResponse {
  const { page, perPage } = ctx.page;
  const offset = (page - 1) * perPage;
  if (new URLSearchParams(ctx.rawQuery).get('pagination') === 'keyset') {
    // §4: keyset on an endpoint that does not support it.
    throw grapeError(405, 'Keyset pagination is not yet available for this type of request');
  }
  if (options.offsetCap) {
    const limit = options.offsetCap.limit ?? DEFAULT_OFFSET_LIMIT;
    if (limit > 0 && offset + perPage > limit) {
      throw grapeError(
        405,
        `Offset pagination has a maximum allowed offset of ${limit} for requests that return objects of type ${options.offsetCap.typeName}. Remaining records can be retrieved using keyset pagination.`,
      );
    }
  }
  const withCounts = options.counts !== false && items.length <= MAX_COUNT;
  const headers = paginationHeaders({
    origin: ctx.origin,
    rawPath: ctx.rawPath,
    rawQuery: ctx.rawQuery,
    page: ctx.page,
    total: items.length,
    withCounts,
  });
  return { status: 200, json: items.slice(offset, offset + perPage).map(present), headers };
}
