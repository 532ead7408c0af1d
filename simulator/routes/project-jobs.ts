// A project's job list (lib/api/ci/jobs.rb `GET :id/jobs`): the same reading rights as one job,
// newest first, optionally only the jobs in the statuses `scope` names.
import { jobEntity } from '../entities/artifacts.js';
import { paginate } from '../http/pagination.js';
import { p } from '../http/params.js';
import type { Router } from '../http/router.js';
import { buildsProject, downloadCaller } from './artifacts.js';

/** The statuses `scope[]` accepts (`::Ci::HasStatus::AVAILABLE_STATUSES` as the API lists them). */
export const JOB_SCOPES = ['created', 'pending', 'running', 'failed', 'success', 'canceled', 'skipped', 'waiting_for_resource', 'manual'] as const;

export function registerProjectJobRoutes(router: Router): void {
  router.get(
    '/projects/:id/jobs',
    { auth: 'none', paginated: true, params: { id: p.string().required(), scope: p.stringArray().commaSeparated().values(JOB_SCOPES) } },
    (ctx) => {
      const caller = downloadCaller(ctx);
      const project = buildsProject(caller, ctx.params.id);
      const scope = ctx.params.scope ?? [];
      const jobs = [...ctx.state.jobs.values()]
        .filter((job) => job.projectId === project.id && (scope.length === 0 || (scope as readonly string[]).includes(job.status)))
        .sort((a, b) => b.id - a.id);
      return paginate(ctx, jobs, (job) => jobEntity(caller, job));
    },
  );
}
