import type { JobSchema } from './artifacts.js';
import type { Page, PageRequest } from './pagination.js';
import { restPath } from './path.js';
import type { RestSession } from './rest-client.js';

/** A project's jobs (`GET /projects/:id/jobs`), newest first. */
export class ProjectJobsApi {
  constructor(private readonly rest: RestSession) {}

  /** `statuses` are REST's `scope[]`: only jobs in one of them; every job when empty. */
  forProject(idOrPath: number | string, statuses: readonly string[], page: PageRequest): Promise<Page<JobSchema>> {
    return this.rest.getPage<JobSchema>(restPath`/projects/${idOrPath}/jobs`, page, statuses.length > 0 ? { scope: [...statuses] } : {});
  }
}
