import type { JobSchema } from './artifacts.js';
import type { Page, PageRequest } from './pagination.js';
import type { PipelineKey } from './pipelines.js';
import { restPath } from './path.js';
import type { RestSession } from './rest-client.js';

/** A pipeline's jobs. (A project's own list, `Project.jobs`, is declared by its route: resolvers/runners/project-jobs.ts.) */
export class ProjectJobsApi {
  constructor(private readonly rest: RestSession) {}

  /**
   * A pipeline's jobs (`GET /projects/:id/pipelines/:pipeline_id/jobs`), newest first: the latest
   * try of each job, or every try with `includeRetried` (REST's `include_retried`).
   */
  forPipeline(key: PipelineKey, { includeRetried }: { includeRetried: boolean }, page: PageRequest): Promise<Page<JobSchema>> {
    return this.rest.getPage<JobSchema>(restPath`/projects/${key.project}/pipelines/${key.pipelineId}/jobs`, page, includeRetried ? { include_retried: true } : {});
  }
}
