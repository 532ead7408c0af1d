import type { LabelSchema } from './issues.js';
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

/** rest-v4-api.md "Issue board". The scope fields (milestone, assignee, labels, weight) are PREMIUM. */
export interface BoardSchema {
  id: number;
  name?: string;
  project?: ProjectSchema | null;
  milestone?: MilestoneSchema | null;
  lists?: BoardListSchema[];
  group?: { id: number } | null;
  assignee?: UserSchema | null;
  labels?: LabelSchema[];
  weight?: number | null;
}

/** A board of a project, as REST names it. */
export interface BoardKey {
  project: number | string;
  boardId: number;
}

/** `PUT /projects/:id/boards/:board_id` fields, in REST's names; `labels` is comma-separated names. */
export interface BoardChanges {
  name?: string;
  assignee_id?: number;
  milestone_id?: number;
  labels?: string;
  weight?: number;
}

/** Exactly one of these per new list. */
export type BoardListTarget = { label_id: number } | { assignee_id: number } | { milestone_id: number };

/** REST project issue boards and their lists. */
export class BoardsApi {
  constructor(private readonly rest: RestSession) {}

  all(project: number | string, page: PageRequest): Promise<Page<BoardSchema>> {
    return this.rest.getPage<BoardSchema>(restPath`/projects/${project}/boards`, page);
  }

  show(key: BoardKey): Promise<BoardSchema> {
    return this.rest.get<BoardSchema>(restPath`/projects/${key.project}/boards/${key.boardId}`);
  }

  async create(project: number | string, name: string): Promise<BoardSchema> {
    return (await this.rest.post<BoardSchema>(restPath`/projects/${project}/boards`, { name })).body;
  }

  edit(key: BoardKey, changes: BoardChanges): Promise<BoardSchema> {
    return this.rest.put<BoardSchema>(restPath`/projects/${key.project}/boards/${key.boardId}`, changes);
  }

  remove(key: BoardKey): Promise<void> {
    return this.rest.delete(restPath`/projects/${key.project}/boards/${key.boardId}`);
  }

  /** The board's lists but the open and closed ones. */
  lists(key: BoardKey, page: PageRequest): Promise<Page<BoardListSchema>> {
    return this.rest.getPage<BoardListSchema>(restPath`/projects/${key.project}/boards/${key.boardId}/lists`, page);
  }

  showList(key: BoardKey, listId: number): Promise<BoardListSchema> {
    return this.rest.get<BoardListSchema>(restPath`/projects/${key.project}/boards/${key.boardId}/lists/${listId}`);
  }

  async createList(key: BoardKey, target: BoardListTarget): Promise<BoardListSchema> {
    return (await this.rest.post<BoardListSchema>(restPath`/projects/${key.project}/boards/${key.boardId}/lists`, target)).body;
  }

  moveList(key: BoardKey, listId: number, position: number): Promise<BoardListSchema> {
    return this.rest.put<BoardListSchema>(restPath`/projects/${key.project}/boards/${key.boardId}/lists/${listId}`, { position });
  }

  /** Administrators and project owners only. */
  removeList(key: BoardKey, listId: number): Promise<void> {
    return this.rest.delete(restPath`/projects/${key.project}/boards/${key.boardId}/lists/${listId}`);
  }
}
