import { describe, expect, it } from 'vitest';
import { arrayConnection, restConnection, type Connection } from '../../src/connections/connection.js';
import { decodeCursor, encodeCursor } from '../../src/connections/cursor.js';
import { pagesCovering } from '../../src/connections/window.js';
import type { Page, PageRequest } from '../../src/datasources/pagination.js';

/** An in-memory list that pages exactly as REST's offset pagination does (rest-conventions §3). */
function restList(size: number, options: { withTotal?: boolean } = {}) {
  const items = Array.from({ length: size }, (_, index) => ({ id: index + 1 }));
  const calls: PageRequest[] = [];
  const fetchPage = (request: PageRequest): Promise<Page<{ id: number }>> => {
    calls.push(request);
    const perPage = Math.min(request.perPage, 100);
    const start = (request.page - 1) * perPage;
    const slice = items.slice(start, start + perPage);
    return Promise.resolve({
      items: slice,
      page: request.page,
      perPage,
      hasNextPage: start + perPage < size,
      total: options.withTotal === false ? null : size,
    });
  };
  return { items, calls, fetchPage };
}

const ids = (connection: Connection<{ id: number }>) => connection.nodes.map((node) => node.id);

describe('pagesCovering', () => {
  it('uses one page whenever some page size holds the window', () => {
    expect(pagesCovering(0, 7)).toEqual([{ page: 1, perPage: 7 }]);
    expect(pagesCovering(7, 14)).toEqual([{ page: 2, perPage: 7 }]);
    expect(pagesCovering(5, 12)).toEqual([{ page: 1, perPage: 12 }]);
  });

  it('falls back to two consecutive pages of the window length', () => {
    expect(pagesCovering(150, 250)).toEqual([
      { page: 2, perPage: 100 },
      { page: 3, perPage: 100 },
    ]);
  });

  it('always covers the window with at most two pages', () => {
    for (let start = 0; start < 260; start += 7) {
      for (const length of [1, 3, 20, 33, 64, 99, 100]) {
        const pages = pagesCovering(start, start + length);
        expect(pages.length).toBeLessThanOrEqual(2);
        const first = pages[0]!;
        const last = pages[pages.length - 1]!;
        expect((first.page - 1) * first.perPage).toBeLessThanOrEqual(start);
        expect(last.page * last.perPage).toBeGreaterThanOrEqual(start + length);
        expect(pages.every((page) => page.perPage <= 100)).toBe(true);
      }
    }
  });
});

describe('restConnection', () => {
  it.each([1, 7, 20, 33, 100])('pages forward with first: %i through 250 items, each exactly once', async (size) => {
    const list = restList(250);
    const seen: number[] = [];
    let after: string | null = null;
    for (let guard = 0; guard < 300; guard++) {
      list.calls.length = 0;
      const connection: Connection<{ id: number }> = await restConnection({ first: size, after }, list.fetchPage);
      expect(list.calls.length).toBeLessThanOrEqual(2);
      expect(connection.count).toBe(250);
      seen.push(...ids(connection));
      expect(connection.pageInfo.hasPreviousPage).toBe(after !== null);
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    expect(seen).toEqual(list.items.map((item) => item.id));
  });

  it.each([1, 7, 20, 33, 100])('pages backward with last: %i through 250 items, each exactly once', async (size) => {
    const list = restList(250);
    const seen: number[] = [];
    let before: string | null = null;
    for (let guard = 0; guard < 300; guard++) {
      list.calls.length = 0;
      const connection: Connection<{ id: number }> = await restConnection({ last: size, before }, list.fetchPage);
      // The tail needs the total first; after that every page is one or two calls.
      expect(list.calls.length).toBeLessThanOrEqual(before === null ? 3 : 2);
      seen.unshift(...ids(connection));
      expect(connection.pageInfo.hasNextPage).toBe(before !== null);
      if (!connection.pageInfo.hasPreviousPage) break;
      before = connection.pageInfo.startCursor;
    }
    expect(seen).toEqual(list.items.map((item) => item.id));
  });

  it('answers the last page of a short list with the one call that learned its total', async () => {
    const list = restList(42);
    const connection = await restConnection({ last: 5 }, list.fetchPage);
    expect(ids(connection)).toEqual([38, 39, 40, 41, 42]);
    expect(list.calls).toHaveLength(1);
    expect(connection.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });

  it('leaves count null and still pages when REST sends no total', async () => {
    const list = restList(45, { withTotal: false });
    const firstPage = await restConnection({ first: 20 }, list.fetchPage);
    expect(firstPage.count).toBeNull();
    expect(firstPage.pageInfo.hasNextPage).toBe(true);
    const lastPage = await restConnection({ first: 20, after: encodeCursor(39) }, list.fetchPage);
    expect(ids(lastPage)).toEqual([41, 42, 43, 44, 45]);
    expect(lastPage.pageInfo.hasNextPage).toBe(false);
  });

  it('says hasNextPage from REST, not from the total, when a page ends exactly at the list end', async () => {
    const list = restList(40);
    const connection = await restConnection({ first: 20, after: encodeCursor(19) }, list.fetchPage);
    expect(ids(connection)).toHaveLength(20);
    expect(connection.pageInfo.hasNextPage).toBe(false);
  });

  it('uses twenty items when neither first nor last is given, as REST does', async () => {
    const list = restList(30);
    const connection = await restConnection({}, list.fetchPage);
    expect(ids(connection)).toHaveLength(20);
    expect(list.calls).toEqual([{ page: 1, perPage: 20 }]);
  });

  it.each([
    [{ first: 1, last: 1 }, 'not both'],
    [{ first: 101 }, 'between 0 and 100'],
    [{ last: -1 }, 'between 0 and 100'],
    [{ after: 'bm90IGEgY3Vyc29y' }, 'not a cursor'],
    [{ after: encodeCursor(10), before: encodeCursor(5) }, 'must come after'],
  ])('refuses %j before any REST call', async (args, message) => {
    const list = restList(10);
    await expect(restConnection(args, list.fetchPage)).rejects.toMatchObject({
      message: expect.stringContaining(message) as string,
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(list.calls).toHaveLength(0);
  });
});

describe('cursors', () => {
  it('round-trip an offset and reject foreign strings', () => {
    expect(decodeCursor(encodeCursor(1234), 'after')).toBe(1234);
    expect(() => decodeCursor('gid://gitlab/Project/1', 'after')).toThrow(/not a cursor/);
  });
});

describe('arrayConnection', () => {
  it('pages an embedded list both ways without REST calls', () => {
    const all = Array.from({ length: 9 }, (_, index) => ({ id: index + 1 }));
    const firstPage = arrayConnection({ first: 4 }, all);
    expect(ids(firstPage)).toEqual([1, 2, 3, 4]);
    expect(firstPage.pageInfo.hasNextPage).toBe(true);
    const lastPage = arrayConnection({ last: 4 }, all);
    expect(ids(lastPage)).toEqual([6, 7, 8, 9]);
    expect(lastPage.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(arrayConnection({ first: 4, after: firstPage.pageInfo.endCursor }, all).nodes.map((node) => node.id)).toEqual([5, 6, 7, 8]);
  });
});
