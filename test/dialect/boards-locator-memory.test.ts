import { afterEach, describe, expect, it, vi } from 'vitest';
import { BoardLocator, type SharedBoardPlaces } from '../../src/datasources/board-locator.js';
import type { BoardParent, BoardSchema } from '../../src/datasources/boards.js';

/** A shared store that records what it is told and answers from it. */
function recordingStore() {
  const told: string[] = [];
  const boards = new Map<number, BoardParent>();
  const lists = new Map<number, number>();
  const store: SharedBoardPlaces = {
    rememberBoard: (boardId, parent) => {
      told.push(`board ${boardId}`);
      boards.set(boardId, parent);
    },
    rememberList: (listId, boardId) => {
      told.push(`list ${listId}`);
      lists.set(listId, boardId);
    },
    findBoard: (boardId) => Promise.resolve(boards.get(boardId)),
    findList: (listId) => Promise.resolve(lists.get(listId)),
  };
  return { store, told };
}

const projectBoard = (id: number, project: number, listIds: number[] = []): BoardSchema => ({ id, project: { id: project }, lists: listIds.map((listId) => ({ id: listId })) });

describe('board locator', () => {
  afterEach(() => vi.useRealTimers());

  it('learns a board\'s parent from its record, and its lists from the record\'s embedded lists', async () => {
    const locator = new BoardLocator();
    locator.learnBoard(projectBoard(7, 1, [70, 71]), { project: 'gitlab-org/gitlab' });
    locator.learnBoard({ id: 8, group: { id: 9 } }, { group: 'gitlab-org' });
    expect(await locator.parentOf(7)).toEqual({ project: 1 });
    expect(await locator.parentOf(8)).toEqual({ group: 9 });
    expect(await locator.boardOf(71)).toBe(7);
    expect(await locator.parentOf(999)).toBeUndefined();
  });

  it('falls back to the parent a record was read under, without the board id of its key', async () => {
    const locator = new BoardLocator();
    locator.learnBoard({ id: 5 }, { project: 'a/b', boardId: 5 } as BoardParent);
    expect(await locator.parentOf(5)).toEqual({ project: 'a/b' });
  });

  it('keeps at most maxEntries, forgetting the least recently used, and forgets a deleted board', async () => {
    const locator = new BoardLocator(undefined, { maxEntries: 2, ttlMs: 60_000, reshareAfterMs: 1_000 });
    locator.learnBoard(projectBoard(1, 1), { project: 1 });
    locator.learnBoard(projectBoard(2, 1), { project: 1 });
    await locator.parentOf(1); // used: 2 is now the oldest
    locator.learnBoard(projectBoard(3, 1), { project: 1 });
    expect(await locator.parentOf(2)).toBeUndefined();
    expect(await locator.parentOf(1)).toEqual({ project: 1 });
    locator.forgetBoard(1);
    expect(await locator.parentOf(1)).toBeUndefined();
  });

  it('tells the shared store once, again only after reshareAfterMs or on a change, and asks it for what this replica never saw', async () => {
    vi.useFakeTimers();
    const { store, told } = recordingStore();
    const locator = new BoardLocator(store, { maxEntries: 10, ttlMs: 60_000, reshareAfterMs: 1_000 });
    locator.learnBoard(projectBoard(1, 1, [10]), { project: 1 });
    locator.learnBoard(projectBoard(1, 1, [10]), { project: 1 });
    expect(told).toEqual(['board 1', 'list 10']);
    vi.advanceTimersByTime(1_000);
    locator.learnBoard(projectBoard(1, 1, [10]), { project: 1 });
    expect(told).toEqual(['board 1', 'list 10', 'board 1', 'list 10']);
    locator.learnLists(2, [{ id: 10 }]); // the list moved to another board: told at once
    expect(told.at(-1)).toBe('list 10');

    const other = new BoardLocator(store);
    expect(await other.parentOf(1)).toEqual({ project: 1 });
    expect(await other.boardOf(10)).toBe(2);
  });
});
