// Where a board and a list live. REST finds a board only under its project or group
// (`/projects/:id/boards/:board_id`, `/groups/:id/boards/:board_id`) and a list only under its board,
// while GitLab's inputs name a board by `BoardID` and a list by `ListID` alone. The gateway learns
// where each lives from REST's own records as they pass through BoardsApi (a board record names its
// project or group; a list is read under its board), so that GitLab's documents run unmodified.
//
// Not a secret, so one map per gateway serves every caller: the place only decides which REST URL
// to call, and REST still authorises that call with the caller's own credential. A caller who may
// not see the board gets REST's 404 or 403 exactly as when they had named the parent themselves;
// the locator grants nothing and never holds a credential.
import { BoundedCache } from '../caching/bounded-cache.js';
import type { BoardListSchema, BoardParent, BoardPlaces, BoardSchema } from './boards.js';

/** Where the replicas share places (shared-state/board-place-store.ts, with Redis). */
export interface SharedBoardPlaces {
  rememberBoard(boardId: number, parent: BoardParent): void;
  rememberList(listId: number, boardId: number): void;
  findBoard(boardId: number): Promise<BoardParent | undefined>;
  findList(listId: number): Promise<number | undefined>;
}

export interface BoardLocatorBounds {
  /** Boards and lists remembered each, the most recently seen kept. */
  maxEntries: number;
  /** How long this replica trusts what it saw without seeing it again. */
  ttlMs: number;
  /** How often an entry this replica keeps seeing is told to the shared store again, to renew it there. */
  reshareAfterMs: number;
}

/** 50,000 boards and as many lists: a few MB, far more than the boards a gateway's users open in a day. */
export const DEFAULT_BOARD_LOCATOR_BOUNDS: BoardLocatorBounds = { maxEntries: 50_000, ttlMs: 24 * 60 * 60 * 1000, reshareAfterMs: 60 * 60 * 1000 };

interface Seen<T> {
  value: T;
  /** When the shared store was last told, or 0 when it never was. */
  sharedAt: number;
}

/** The parent alone, without the board id a `BoardKey` adds. */
const parentOnly = (parent: BoardParent): BoardParent => ('project' in parent ? { project: parent.project } : { group: parent.group });

const sameParent = (a: BoardParent, b: BoardParent): boolean => ('project' in a ? 'project' in b && a.project === b.project : 'group' in b && a.group === b.group);

/**
 * board id -> its project or group, list id -> its board: in this replica's memory (a bounded LRU),
 * and with Redis in a bounded, expiring store the replicas share, so that a replica can act on a
 * board another one served.
 */
export class BoardLocator implements BoardPlaces {
  private readonly boards: BoundedCache<Seen<BoardParent>>;
  private readonly lists: BoundedCache<Seen<number>>;

  constructor(
    private readonly shared?: SharedBoardPlaces,
    private readonly bounds: BoardLocatorBounds = DEFAULT_BOARD_LOCATOR_BOUNDS,
  ) {
    this.boards = new BoundedCache({ maxEntries: bounds.maxEntries, ttlMs: bounds.ttlMs });
    this.lists = new BoundedCache({ maxEntries: bounds.maxEntries, ttlMs: bounds.ttlMs });
  }

  /**
   * Learns from a REST board record: its parent as the record names it (`project.id` or `group.id`),
   * else the parent it was read under; and the lists it embeds.
   */
  learnBoard(board: BoardSchema, readUnder?: BoardParent): void {
    const parent = board.project?.id !== undefined ? { project: board.project.id } : board.group?.id !== undefined ? { group: board.group.id } : readUnder && parentOnly(readUnder);
    if (parent) this.rememberBoard(board.id, parent);
    this.learnLists(board.id, board.lists ?? []);
  }

  /** Learns that these lists (REST records read or written under the board) are the board's. */
  learnLists(boardId: number, lists: readonly BoardListSchema[]): void {
    for (const list of lists) this.rememberList(list.id, boardId);
  }

  /** Forgets a deleted board here; elsewhere its entry expires, and REST answers 404 meanwhile. */
  forgetBoard(boardId: number): void {
    this.boards.delete(String(boardId));
  }

  forgetList(listId: number): void {
    this.lists.delete(String(listId));
  }

  /** The board's project or group, if this replica or another has seen the board. */
  async parentOf(boardId: number): Promise<BoardParent | undefined> {
    return this.boards.get(String(boardId))?.value ?? (await this.shared?.findBoard(boardId));
  }

  /** The list's board, if this replica or another has seen the list. */
  async boardOf(listId: number): Promise<number | undefined> {
    return this.lists.get(String(listId))?.value ?? (await this.shared?.findList(listId));
  }

  private rememberBoard(boardId: number, parent: BoardParent): void {
    const known = this.boards.get(String(boardId));
    const share = !known || !sameParent(known.value, parent) || this.isStale(known);
    this.boards.set(String(boardId), { value: parent, sharedAt: share ? Date.now() : known.sharedAt });
    if (share) this.shared?.rememberBoard(boardId, parent);
  }

  private rememberList(listId: number, boardId: number): void {
    const known = this.lists.get(String(listId));
    const share = !known || known.value !== boardId || this.isStale(known);
    this.lists.set(String(listId), { value: boardId, sharedAt: share ? Date.now() : known.sharedAt });
    if (share) this.shared?.rememberList(listId, boardId);
  }

  /** A shared entry renewed at most once per `reshareAfterMs`: a busy board costs Redis one write an hour, not one per read. */
  private isStale(seen: Seen<unknown>): boolean {
    return Date.now() - seen.sharedAt >= this.bounds.reshareAfterMs;
  }
}
