/**
 * One REST page and where it stands, read from the offset-pagination headers
 * (rest-conventions §3). `total` is null when REST leaves `X-Total` out (over 10,000 rows, and
 * always for commits); `hasNextPage` comes only from `X-Next-Page` or `Link rel="next"`, never
 * from arithmetic on a total.
 */
export interface Page<T> {
  items: T[];
  page: number;
  perPage: number;
  hasNextPage: boolean;
  total: number | null;
}

/** The page a data source is asked for: REST's `page` (from 1) and `per_page` (at most 100). */
export interface PageRequest {
  page: number;
  perPage: number;
}

export const MAX_PER_PAGE = 100;
export const DEFAULT_PER_PAGE = 20;

type HeaderGetter = (name: string) => string | undefined;

function integerOrNull(text: string | undefined): number | null {
  if (text === undefined || text.trim() === '') return null;
  const value = Number(text);
  return Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/** Whether an RFC 5988 `Link` header has a `rel="next"` entry. Hosts in it are never used. */
export function linkHasNext(link: string | undefined): boolean {
  if (!link) return false;
  return link.split(',').some((part) => /;\s*rel="?next"?/i.test(part));
}

export function readPage<T>(items: T[], header: HeaderGetter, requested: PageRequest): Page<T> {
  const nextPage = header('x-next-page');
  const hasNextPage =
    nextPage !== undefined && nextPage.trim() !== '' ? true : linkHasNext(header('link'));
  return {
    items,
    page: integerOrNull(header('x-page')) ?? requested.page,
    // REST clamps per_page silently; X-Per-Page says what it really used.
    perPage: integerOrNull(header('x-per-page')) ?? requested.perPage,
    hasNextPage,
    total: integerOrNull(header('x-total')),
  };
}
