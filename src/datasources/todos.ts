import type { IssueKey, IssueSchema } from './issues.js';
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
  target?: IssueSchema | null;
  target_url?: string | null;
  body?: string;
  state?: string;
  created_at?: string;
}

/** The to-do a creation made, or `null` when the caller already had one (REST 304, no body). */
export type TodoCreation = { created: true; todo: TodoSchema } | { created: false; todo: null };

/** REST to-dos on issues (`POST /projects/:id/issues/:issue_iid/todo`). */
export class TodosApi {
  constructor(private readonly rest: RestSession) {}

  async createForIssue(key: IssueKey): Promise<TodoCreation> {
    const response = await this.rest.post<TodoSchema | null>(restPath`/projects/${key.project}/issues/${key.iid}/todo`);
    // rest-conventions §5: a 304 on an action POST means "already so", with no body.
    if (response.status === 304 || !response.body) return { created: false, todo: null };
    return { created: true, todo: response.body };
  }
}
