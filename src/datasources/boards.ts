import type { IssueKey, IssueSchema, LabelSchema } from './issues.js';
import type { MilestoneSchema } from './issuable-schemas.js';
import type { Page, PageRequest } from './pagination.js';
import { restPath } from './path.js';
import type { ProjectSchema } from './projects.js';
import type { RestSession } from './rest-client.js';
import type { UserSchema } from './users.js';

/** rest-v4-api.md "Board list": a label list, or (PREMIUM) an assignee or milestone list. */
export interface BoardListSchema {
  id: number;
  label?: LabelSchema | null;
  position?: number | null;
  max_issue_count?: number;
  max_issue_weight?: number;
  limit_metric?: string | null;
  assignee?: UserSchema | null;
  milestone?: MilestoneSchema | null;
}

/**
 * rest-v4-api.md "Issue board"; GitLab 13.8 added `hide_backlog_list` and `hide_closed_list`. A
 * project board names its project, a group board its group (id, name, web_url). The scope fields
 * (milestone, assignee, labels, weight) are PREMIUM.
 */
export interface BoardSchema {
  id: number;
  name?: string;
  hide_backlog_list?: boolean;
  hide_closed_list?: boolean;
  project?: ProjectSchema | null;
  milestone?: MilestoneSchema | null;
  lists?: BoardListSchema[];
  group?: { id: number; name?: string; web_url?: string } | null;
  assignee?: UserSchema | null;
  labels?: LabelSchema[];
  weight?: number | null;
}

/** Where REST serves a board: under `/projects/:id` or under `/groups/:id` (an id or a full path). */
export type BoardParent = { project: number | string } | { group: number | string };

/** A board as REST names it: its parent and its id. */
export type BoardKey = BoardParent & { boardId: number };

/** A cache key of the parent, `project:<key>` or `group:<key>`, through the caller's normalisation of ids and paths. */
export function boardParentKey(parent: BoardParent, normalise: (idOrPath: number | string) => string): string {
  return 'project' in parent ? `project:${normalise(parent.project)}` : `group:${normalise(parent.group)}`;
}

/** The REST path of a parent's boards. */
function boardsPath(parent: BoardParent): string {
  return 'project' in parent ? restPath`/projects/${parent.project}/boards` : restPath`/groups/${parent.group}/boards`;
}

function boardPath(key: BoardKey): string {
  return `${boardsPath(key)}${restPath`/${key.boardId}`}`;
}

/**
 * What BoardsApi tells of the records it reads and writes, and asks back: where each board and list
 * lives (board-locator.ts keeps it, for every caller, since it only picks the REST URL).
 */
export interface BoardPlaces {
  learnBoard(board: BoardSchema, readUnder: BoardParent): void;
  learnLists(boardId: number, lists: readonly BoardListSchema[]): void;
  forgetBoard(boardId: number): void;
  forgetList(listId: number): void;
  parentOf(boardId: number): Promise<BoardParent | undefined>;
  boardOf(listId: number): Promise<number | undefined>;
}

/** `PUT .../boards/:board_id` fields, in REST's names; `labels` is comma-separated names. */
export interface BoardChanges {
  name?: string;
  hide_backlog_list?: boolean;
  hide_closed_list?: boolean;
  assignee_id?: number;
  milestone_id?: number;
  labels?: string;
  weight?: number;
}

/** Exactly one of these per new list. */
export type BoardListTarget = { label_id: number } | { assignee_id: number } | { milestone_id: number };

/** The neighbours of `PUT .../issues/:issue_iid/reorder`: REST issue ids. */
export interface IssueNeighbours {
  /** The issue to sit just before the moved one. */
  move_before_id?: number;
  /** The issue to sit just after it. */
  move_after_id?: number;
}

/**
 * REST issue boards of projects and groups, their lists, and the card reorder a board does. Every
 * board and list record read or written here is told to the gateway's board locator, which is how
 * an input naming a board or list by its ID alone finds the REST path to call (board-locator.ts).
 */
export class BoardsApi {
  constructor(
    private readonly rest: RestSession,
    private readonly locator: BoardPlaces,
  ) {}

  async all(parent: BoardParent, page: PageRequest): Promise<Page<BoardSchema>> {
    const boards = await this.rest.getPage<BoardSchema>(boardsPath(parent), page);
    for (const board of boards.items) this.locator.learnBoard(board, parent);
    return boards;
  }

  async show(key: BoardKey): Promise<BoardSchema> {
    return this.learnt(await this.rest.get<BoardSchema>(boardPath(key)), key);
  }

  /** REST's create takes the name only; settings and scope need `edit`. */
  async create(parent: BoardParent, name: string): Promise<BoardSchema> {
    return this.learnt((await this.rest.post<BoardSchema>(boardsPath(parent), { name })).body, parent);
  }

  async edit(key: BoardKey, changes: BoardChanges): Promise<BoardSchema> {
    return this.learnt(await this.rest.put<BoardSchema>(boardPath(key), changes), key);
  }

  async remove(key: BoardKey): Promise<void> {
    await this.rest.delete(boardPath(key));
    this.locator.forgetBoard(key.boardId);
  }

  /** The board's stored lists: REST never returns the Open and Closed ones. */
  async lists(key: BoardKey, page: PageRequest): Promise<Page<BoardListSchema>> {
    const lists = await this.rest.getPage<BoardListSchema>(`${boardPath(key)}/lists`, page);
    this.locator.learnLists(key.boardId, lists.items);
    return lists;
  }

  async createList(key: BoardKey, target: BoardListTarget): Promise<BoardListSchema> {
    const list = (await this.rest.post<BoardListSchema>(`${boardPath(key)}/lists`, target)).body;
    this.locator.learnLists(key.boardId, [list]);
    return list;
  }

  async moveList(key: BoardKey, listId: number, position: number): Promise<BoardListSchema> {
    const list = await this.rest.put<BoardListSchema>(`${boardPath(key)}${restPath`/lists/${listId}`}`, { position });
    this.locator.learnLists(key.boardId, [list]);
    return list;
  }

  /** Administrators and owners of the board's project or group only. */
  async removeList(key: BoardKey, listId: number): Promise<void> {
    await this.rest.delete(`${boardPath(key)}${restPath`/lists/${listId}`}`);
    this.locator.forgetList(listId);
  }

  /** Where a board lives, as REST's records seen by this gateway (or its replicas) said; no REST call. */
  parentOf(boardId: number): Promise<BoardParent | undefined> {
    return this.locator.parentOf(boardId);
  }

  /** The board of a list, as REST's records seen by this gateway (or its replicas) said; no REST call. */
  boardOfList(listId: number): Promise<number | undefined> {
    return this.locator.boardOf(listId);
  }

  private learnt(board: BoardSchema, readUnder: BoardParent): BoardSchema {
    this.locator.learnBoard(board, readUnder);
    return board;
  }

  /** `PUT /projects/:id/issues/:issue_iid/reorder`: what dropping a card between two others does. */
  reorderIssue(key: IssueKey, neighbours: IssueNeighbours): Promise<IssueSchema> {
    return this.rest.put<IssueSchema>(restPath`/projects/${key.project}/issues/${key.iid}/reorder`, neighbours);
  }
}
