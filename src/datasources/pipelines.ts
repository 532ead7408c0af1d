import type { Page, PageRequest } from './pagination.js';
import { restPath } from './path.js';
import type { RestSession } from './rest-client.js';

/** A pipeline as REST lists it (Entities::Ci::PipelineBasic). */
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
}

/** Filters of `GET /projects/:id/pipelines`. */
export interface PipelineListFilters {
  scope?: string | undefined;
  sha?: string | undefined;
  ref?: string | undefined;
  status?: string | undefined;
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
    return this.rest.getPage<PipelineSchema>(restPath`/projects/${project}/pipelines`, page, { scope: filters.scope, sha: filters.sha, ref: filters.ref, status: filters.status });
  }

  show(key: PipelineKey): Promise<PipelineSchema> {
    return this.rest.get<PipelineSchema>(restPath`/projects/${key.project}/pipelines/${key.pipelineId}`);
  }
}
