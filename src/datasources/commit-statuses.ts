import type { Page, PageRequest } from './pagination.js';
import { restPath } from './path.js';
import type { ProjectKey } from './commits.js';
import type { RestSession } from './rest-client.js';
import type { UserSchema } from './users.js';

/** A commit status (rest-v4-api.md "Commit status"): a CI job or an external status. */
export interface CommitStatusSchema {
  id: number;
  sha?: string;
  ref?: string | null;
  status?: string;
  name?: string;
  target_url?: string | null;
  description?: string | null;
  coverage?: number | null;
  created_at?: string;
  started_at?: string | null;
  finished_at?: string | null;
  allow_failure?: boolean;
  author?: UserSchema | null;
  pipeline_id?: number;
}

export interface CommitStatusFilters {
  ref?: string | undefined;
  stage?: string | undefined;
  name?: string | undefined;
  all?: boolean | undefined;
}

/** The body of `POST /projects/:id/statuses/:sha`, in REST's names. */
export interface CommitStatusBody {
  state: 'pending' | 'running' | 'success' | 'failed' | 'canceled';
  ref?: string;
  name?: string;
  context?: string;
  target_url?: string;
  description?: string;
  coverage?: number;
  pipeline_id?: number;
}

/** REST commit statuses: `GET .../commits/:sha/statuses` and `POST /projects/:id/statuses/:sha`. */
export class CommitStatusesApi {
  constructor(private readonly rest: RestSession) {}

  /** `sha` must be a full SHA: REST matches pipelines on it as given. */
  all(project: ProjectKey, sha: string, filters: CommitStatusFilters, page: PageRequest): Promise<Page<CommitStatusSchema>> {
    return this.rest.getPage<CommitStatusSchema>(restPath`/projects/${project}/repository/commits/${sha}/statuses`, page, {
      ref: filters.ref,
      stage: filters.stage,
      name: filters.name,
      all: filters.all,
    });
  }

  /** Adds a status, or updates the caller's running or pending one of that name and ref. */
  async create(project: ProjectKey, sha: string, body: CommitStatusBody): Promise<CommitStatusSchema> {
    return (await this.rest.post<CommitStatusSchema>(restPath`/projects/${project}/statuses/${sha}`, body)).body;
  }
}
