import { describe, expect, it } from 'vitest';
import { everyPageWithin } from '../../src/datasources/every-page.js';
import type { Page, PageRequest } from '../../src/datasources/pagination.js';

/** An in-memory list paged as REST pages (rest-conventions §3), with or without `X-Total`. */
function restList(size: number, withTotal: boolean) {
  const calls: PageRequest[] = [];
  const fetchPage = (request: PageRequest): Promise<Page<number>> => {
    calls.push(request);
    const start = (request.page - 1) * request.perPage;
    const items = Array.from({ length: Math.max(0, Math.min(request.perPage, size - start)) }, (_, index) => start + index);
    return Promise.resolve({ items, page: request.page, perPage: request.perPage, hasNextPage: start + request.perPage < size, total: withTotal ? size : null });
  };
  return { calls, fetchPage };
}

describe('every page within a ceiling', () => {
  it.each([true, false])('reads a list that fits page after page of 100 (X-Total given: %s)', async (withTotal) => {
    const list = restList(250, withTotal);
    const items = await everyPageWithin(list.fetchPage, 3);
    expect(items).toEqual(Array.from({ length: 250 }, (_, index) => index));
    expect(list.calls).toEqual([1, 2, 3].map((page) => ({ page, perPage: 100 })));
  });

  it('reads a list of exactly the ceiling, whose last page names no next one', async () => {
    const list = restList(300, false);
    expect(await everyPageWithin(list.fetchPage, 3)).toHaveLength(300);
    expect(list.calls).toHaveLength(3);
  });

  it('answers null after the first page when X-Total says the list is longer', async () => {
    const list = restList(301, true);
    expect(await everyPageWithin(list.fetchPage, 3)).toBeNull();
    expect(list.calls).toEqual([{ page: 1, perPage: 100 }]);
  });

  it('answers null, reading no page past the ceiling, when REST gives no total and still names a next page', async () => {
    const list = restList(301, false);
    expect(await everyPageWithin(list.fetchPage, 3)).toBeNull();
    expect(list.calls).toHaveLength(3);
  });
});
