// A pipeline's jobs (lib/api/ci/pipelines.rb `GET :id/pipelines/:pipeline_id/jobs`, Ci::JobsFinder):
// newest first, only the latest try of each job unless `include_retried`, optionally only the jobs in
// the statuses `scope` names; 403 for a caller who may not read the project's pipelines, 404 for a
// pipeline the project does not have.
import { mayReadPipelines, pipelinesOfProject } from '../entities/pipelines.js';
import { jobEntity } from '../entities/artifacts.js';
import { forbidden, messageError } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { p } from '../http/params.js';
import type { Router } from '../http/router.js';
import { visibleProject } from './lookup.js';
import { JOB_SCOPES } from './project-jobs.js';

export function registerPipelineJobRoutes(router: Router): void {
  router.get(
    '/projects/:id/pipelines/:pipeline_id/jobs',
    {
      auth: 'optional',
      paginated: true,
      params: {
        id: p.string().required(),
        pipeline_id: p.integer().required(),
        scope: p.stringArray().commaSeparated().values(JOB_SCOPES),
        include_retried: p.boolean().default(false),
      },
    },
    (ctx) => {
      const { params } = ctx;
      const project = visibleProject(ctx, params.id);
      if (!mayReadPipelines(ctx.state, ctx.user, project)) throw forbidden();
      const pipeline = pipelinesOfProject(ctx.state, project).find((row) => row.id === params.pipeline_id);
      if (!pipeline) throw messageError(404, '404 Not found');
      const scope: readonly string[] = params.scope ?? [];
      const jobs = [...ctx.state.jobs.values()]
        .filter(
          (job) =>
            job.projectId === project.id &&
            job.pipeline.id === pipeline.id &&
            (params.include_retried || job.retried !== true) &&
            (scope.length === 0 || scope.includes(job.status)),
        )
        .sort((a, b) => b.id - a.id);
      return paginate(ctx, jobs, (job) => jobEntity(ctx, job));
    },
  );
}
