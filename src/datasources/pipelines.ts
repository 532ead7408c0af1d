import type { Page, PageRequest } from './pagination.js';
import { restPath } from './path.js';
import type { RestSession } from './rest-client.js';
import type { UserSchema } from './users.js';

/**
 * A pipeline as REST lists it (Entities::Ci::PipelineBasic), and the keys one pipeline's record
 * and a merge request's `head_pipeline` add (Entities::Ci::Pipeline).
 */
export interface PipelineSchema {
  id: number;
  iid?: number;
  project_id?: number;
  sha?: string;
  ref?: string;
  status?: string;
  source?: string;
  created_at?: string;
  updated_at?: string;
  web_url?: string;
  before_sha?: string | null;
  tag?: boolean;
  yaml_errors?: string | null;
  user?: UserSchema | null;
  started_at?: string | null;
  finished_at?: string | null;
  committed_at?: string | null;
  /** Whole seconds. */
  duration?: number | null;
  queued_duration?: number | null;
  /** A decimal string, such as `"46.68"` (rest-conventions §10); older servers sent a number. */
  coverage?: string | number | null;
}

/** Filters of `GET /projects/:id/pipelines`. */
export interface PipelineListFilters {
  scope?: string | undefined;
  sha?: string | undefined;
  ref?: string | undefined;
  status?: string | undefined;
  /** Ci::Pipeline.sources key, such as `push` or `schedule`. */
  source?: string | undefined;
  username?: string | undefined;
  updatedAfter?: string | undefined;
  updatedBefore?: string | undefined;
}

/** A pipeline of a project: the key of `GET /projects/:id/pipelines/:pipeline_id`. */
export interface PipelineKey {
  project: number | string;
  pipelineId: number;
}

/** REST `/projects/:id/pipelines`. */
export class PipelinesApi {
  constructor(private readonly rest: RestSession) {}

  all(project: number | string, filters: PipelineListFilters, page: PageRequest): Promise<Page<PipelineSchema>> {
    return this.rest.getPage<PipelineSchema>(restPath`/projects/${project}/pipelines`, page, {
      scope: filters.scope,
      sha: filters.sha,
      ref: filters.ref,
      status: filters.status,
      source: filters.source,
      username: filters.username,
      updated_after: filters.updatedAfter,
      updated_before: filters.updatedBefore,
    });
  }

  show(key: PipelineKey): Promise<PipelineSchema> {
    return this.rest.get<PipelineSchema>(restPath`/projects/${key.project}/pipelines/${key.pipelineId}`);
  }
}
