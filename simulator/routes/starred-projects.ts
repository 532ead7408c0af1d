// GET /users/:user_id/starred_projects (GitLab's "List projects starred by a user",
// StarredProjectsFinder): the projects the user starred that the caller may see, with the filters
// and orders of the other project lists. `:user_id` is an id or a username.
import { canReadProject } from '../data/access.js';
import { projectRecord, projectSimple } from '../entities/projects.js';
import { notFound } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { p } from '../http/params.js';
import type { Router } from '../http/router.js';
import { matchesFilters, orderProjects, sharedProjectListParams } from './groups/projects.js';
import { userByIdOrUsername } from './users.js';

export function registerStarredProjectRoutes(router: Router): void {
  router.get('/users/:user_id/starred_projects', { auth: 'optional', paginated: true, params: { ...sharedProjectListParams, user_id: p.string().required() } }, (ctx) => {
    const { params } = ctx;
    const user = userByIdOrUsername(ctx, params.user_id);
    if (!user) throw notFound('User');
    const starred = new Set(ctx.state.stars.filter((star) => star.userId === user.id).map((star) => star.projectId));
    const projects = [...ctx.state.projects.values()].filter(
      (project) => starred.has(project.id) && canReadProject(ctx.state, ctx.user, project) && matchesFilters(ctx, project, params),
    );
    const signedIn = ctx.user !== null;
    return paginate(ctx, orderProjects(projects, params), (project) => (params.simple || !signedIn ? projectSimple(ctx, project) : projectRecord(ctx, project)));
  });
}
