import type { IssueKey, IssueSchema } from './issues.js';
import type { MergeRequestSchema } from './merge-requests.js';
import type { Page, PageRequest } from './pagination.js';
import { restPath } from './path.js';
import type { ProjectSchema } from './projects.js';
import type { RestSession } from './rest-client.js';
import type { UserSchema } from './users.js';

/** rest-v4-api.md "To-do". */
export interface TodoSchema {
  id: number;
  project?: ProjectSchema | null;
  author?: UserSchema | null;
  action_name?: string;
  target_type?: string;
  /** The issue or merge request (by `target_type`); REST embeds other targets too, which the gateway does not model. */
  target?: IssueSchema | MergeRequestSchema | null;
  target_url?: string | null;
  body?: string;
  state?: string;
  created_at?: string;
}

/** The to-do a creation made, or `null` when the caller already had one (REST 304, no body). */
export type TodoCreation = { created: true; todo: TodoSchema } | { created: false; todo: null };

/** The to-dos of one project's issues (or merge requests) in one state (`undefined`: REST's default, pending). */
export interface ProjectTodosKey {
  project: number;
  state?: string | undefined;
  /** REST's `type` of the targets: `Issue` unless said. */
  targetType?: 'Issue' | 'MergeRequest' | undefined;
}

/**
 * How many pages of 100 of the caller's pending to-dos `todosMarkAllDone` reads to answer which it
 * marked: REST's list cannot be filtered by target, nor does its mark-all answer name them.
 */
export const MOST_PENDING_TO_DO_PAGES = 10;

/** REST to-dos: the caller's list, creation on issues, and marking one or all done. */
export class TodosApi {
  constructor(private readonly rest: RestSession) {}

  /**
   * The caller's to-dos on a project's issues (`GET /todos?project_id=&type=Issue`, or another
   * target type), the first 100:
   * REST cannot filter by issue, so the caller filters the page.
   */
  ofProjectIssues(key: ProjectTodosKey): Promise<TodoSchema[]> {
    return this.rest.getList<TodoSchema>(restPath`/todos`, { project_id: key.project, type: key.targetType ?? 'Issue', state: key.state, per_page: 100 });
  }

  /** A page of the caller's pending to-dos, of one target type or of all (`GET /todos`), newest first. */
  pending(page: PageRequest, targetType?: 'Issue' | 'MergeRequest'): Promise<Page<TodoSchema>> {
    return this.rest.getPage<TodoSchema>(restPath`/todos`, page, { state: 'pending', type: targetType });
  }

  /** `POST /todos/mark_as_done`: every pending to-do of the caller becomes done (204, no body). */
  async markAllDone(): Promise<void> {
    await this.rest.post<null>(restPath`/todos/mark_as_done`);
  }

  /** `POST /todos/:id/mark_as_done`: the to-do, now done. */
  async markDone(id: number): Promise<TodoSchema> {
    return (await this.rest.post<TodoSchema>(restPath`/todos/${id}/mark_as_done`)).body;
  }

  async createForIssue(key: IssueKey): Promise<TodoCreation> {
    const response = await this.rest.post<TodoSchema | null>(restPath`/projects/${key.project}/issues/${key.iid}/todo`);
    // rest-conventions §5: a 304 on an action POST means "already so", with no body.
    if (response.status === 304 || !response.body) return { created: false, todo: null };
    return { created: true, todo: response.body };
  }
}
