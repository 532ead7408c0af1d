// A project's forks (lib/api/projects.rb `GET :id/forks`, ForkProjectsFinder): the projects forked
// from it that the caller may see, with the filters and orders of a project list (`owned` among
// them: the forks the caller owns), anonymous callers getting the short records.
import { canReadProject } from '../data/access.js';
import { projectRecord, projectSimple } from '../entities/projects.js';
import { paginate } from '../http/pagination.js';
import { p } from '../http/params.js';
import type { Router } from '../http/router.js';
import { matchesFilters, orderProjects, sharedProjectListParams } from './groups/projects.js';
import { visibleProject } from './lookup.js';

const forkListParams = { ...sharedProjectListParams, id: p.string().required(), owned: p.boolean().default(false) };

export function registerProjectForkRoutes(router: Router): void {
  router.get('/projects/:id/forks', { auth: 'optional', paginated: true, params: forkListParams }, (ctx) => {
    const { params } = ctx;
    const source = visibleProject(ctx, params.id);
    const forks = [...ctx.state.projects.values()].filter(
      (project) => project.forkedFromProjectId === source.id && canReadProject(ctx.state, ctx.user, project) && matchesFilters(ctx, project, params),
    );
    return paginate(ctx, orderProjects(forks, params), (project) =>
      params.simple || ctx.user === null ? projectSimple(ctx, project) : projectRecord(ctx, project, { permissions: false }),
    );
  });
}
