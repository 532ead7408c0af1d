import { MAX_PER_PAGE, type Page, type PageRequest } from '../datasources/pagination.js';

/**
 * Every item of a paginated REST list, for a field that needs the whole list (a count REST does
 * not give, a look-up by something REST cannot filter on): pages of 100, one after another, until
 * REST names no next page (rest-conventions §3: never from arithmetic on `X-Total`). An empty page
 * also ends the list, so a server that keeps naming a next page cannot loop it forever.
 */
export async function everyPage<T>(fetchPage: (page: PageRequest) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const answer = await fetchPage({ page, perPage: MAX_PER_PAGE });
    items.push(...answer.items);
    if (!answer.hasNextPage || answer.items.length === 0) return items;
  }
}
