import type { SharedBoardPlaces } from '../datasources/board-locator.js';
import type { BoardParent } from '../datasources/boards.js';
import type { RedisLink } from './redis-link.js';
import { SET_BOUNDED } from './redis-scripts.js';

/** How long Redis keeps a board's or a list's place after a replica last told it. */
export const SHARED_BOARD_PLACE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Boards and lists kept each: some tens of bytes an entry, a few MB at most. */
export const SHARED_BOARD_PLACES = 100_000;

type PendingPlace = { kind: 'board'; boardId: number; parent: BoardParent } | { kind: 'list'; listId: number; boardId: number };

/** `project:<id or path>` or `group:<id or path>`, read back by `parentOfValue`. */
const valueOfParent = (parent: BoardParent): string => ('project' in parent ? `project:${parent.project}` : `group:${parent.group}`);

function parentOfValue(value: string | null): BoardParent | undefined {
  const match = value === null ? null : /^(project|group):(.{1,1000})$/s.exec(value);
  if (!match) return undefined;
  const idOrPath = /^\d{1,15}$/.test(match[2]!) ? Number(match[2]) : match[2]!;
  return match[1] === 'project' ? { project: idOrPath } : { group: idOrPath };
}

/**
 * Where boards and lists live, shared by the replicas (datasources/board-locator.ts): a replica may
 * act on a board that another one served. Entries are `board-place:<board id>` = `project:<id>` or
 * `group:<id>`, and `list-board:<list id>` = `<board id>`, at most `SHARED_BOARD_PLACES` of each
 * (indexes `board-places`, `list-boards`), for a week. No credential is involved: a place only picks
 * the REST URL, which REST then authorises with the caller's own credential. Writes are gathered
 * and sent in one pipeline per turn of the event loop; while Redis is unreachable nothing is written
 * or found here, and each replica knows what it saw itself.
 */
export class RedisBoardPlaceStore implements SharedBoardPlaces {
  private pending: PendingPlace[] = [];

  constructor(private readonly link: RedisLink) {}

  rememberBoard(boardId: number, parent: BoardParent): void {
    this.queue({ kind: 'board', boardId, parent });
  }

  rememberList(listId: number, boardId: number): void {
    this.queue({ kind: 'list', listId, boardId });
  }

  async findBoard(boardId: number): Promise<BoardParent | undefined> {
    return parentOfValue(await this.read(this.link.key('board-place', boardId)));
  }

  async findList(listId: number): Promise<number | undefined> {
    const value = await this.read(this.link.key('list-board', listId));
    return value !== null && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
  }

  private async read(key: string): Promise<string | null> {
    if (!this.link.isUp) return null;
    try {
      return await this.link.client.get(key);
    } catch {
      return null; // Redis is slow or gone: as if never seen, and the input may name the parent itself
    }
  }

  private queue(place: PendingPlace): void {
    if (!this.link.isUp) return;
    if (this.pending.length === 0) setImmediate(() => void this.flush());
    this.pending.push(place);
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    if (!this.link.isUp) return; // lost since queued: as if never told
    const pipeline = this.link.client.pipeline();
    for (const place of batch) {
      const [entry, index, value] =
        place.kind === 'board'
          ? [this.link.key('board-place', place.boardId), this.link.key('board-places'), valueOfParent(place.parent)]
          : [this.link.key('list-board', place.listId), this.link.key('list-boards'), String(place.boardId)];
      pipeline.eval(SET_BOUNDED, 2, entry, index, value, SHARED_BOARD_PLACE_TTL_MS, SHARED_BOARD_PLACES);
    }
    try {
      await pipeline.exec();
    } catch {
      // A lost write costs another replica a "read the board first"; nothing more.
    }
  }
}
