import { MAX_PER_PAGE, type Page, type PageRequest } from './pagination.js';

/**
 * Every item of a paginated REST list, for a field that needs the whole list (a count REST does
 * not give, a look-up by something REST cannot filter on): pages of 100, one after another, until
 * REST names no next page (rest-conventions §3: never from arithmetic on `X-Total`). An empty page
 * also ends the list, so a server that keeps naming a next page cannot loop it forever. With
 * `maxPages`, what those pages hold, for a look-up that may miss what lies beyond them.
 */
export async function everyPage<T>(fetchPage: (page: PageRequest) => Promise<Page<T>>, { maxPages = Number.POSITIVE_INFINITY }: { maxPages?: number } = {}): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const answer = await fetchPage({ page, perPage: MAX_PER_PAGE });
    items.push(...answer.items);
    if (!answer.hasNextPage || answer.items.length === 0) return items;
  }
  return items;
}

/**
 * Every item of a paginated REST list, as `everyPage`, for a list a field must hold whole (to order
 * it as REST cannot) but may not read without end: at most `maxPages` pages of 100. Answers null,
 * having read no further, when the list is longer: as soon as the first page's `X-Total` says so
 * (one call instead of `maxPages`), or when REST still names a page after the last one allowed.
 */
export async function everyPageWithin<T>(fetchPage: (page: PageRequest) => Promise<Page<T>>, maxPages: number): Promise<T[] | null> {
  const items: T[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const answer = await fetchPage({ page, perPage: MAX_PER_PAGE });
    if (page === 1 && answer.total !== null && answer.total > maxPages * MAX_PER_PAGE) return null;
    items.push(...answer.items);
    if (!answer.hasNextPage || answer.items.length === 0) return items;
  }
  return null;
}
