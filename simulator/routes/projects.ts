import { canReadProject, projectAccessLevel } from '../data/access.js';
import { AccessLevel, type Project } from '../data/model.js';
import { projectRecord, projectSimple, projectStatistics } from '../entities/projects.js';
import { notFound } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { p } from '../http/params.js';
import { countCommits } from '../repository/log.js';
import { ok } from '../http/response.js';
import type { RequestContext, Router } from '../http/router.js';
import { matchesFilters, orderProjects, sharedProjectListParams } from './groups/projects.js';
import { visibleProject } from './lookup.js';
import { userByIdOrUsername } from './users.js';

/**
 * GET /projects (GitLab's "List all projects", ProjectsFinder): the filters of a group's project
 * list, plus `membership`, `owned`, `search_namespaces`, `topic` (comma-separated, every one must
 * be on the project), `id_after`/`id_before`, and `star_count` among the orders. The storage orders
 * GitLab keeps for administrators are not modelled, so they are refused like any unknown order.
 */
const instanceProjectListParams = {
  ...sharedProjectListParams,
  order_by: p.string().values(['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at', 'similarity', 'star_count']).default('created_at'),
  owned: p.boolean().default(false),
  membership: p.boolean().default(false),
  search_namespaces: p.boolean().default(false),
  topic: p.string(),
  id_after: p.integer(),
  id_before: p.integer(),
};

/** `topic=a,b`: the project carries every topic named, in any case. */
function hasTopics(project: Project, topic: string | undefined): boolean {
  const wanted = (topic ?? '').split(',').map((name) => name.trim().toLowerCase()).filter((name) => name !== '');
  const topics = new Set(project.topics.map((name) => name.toLowerCase()));
  return wanted.every((name) => topics.has(name));
}

/** `membership`: projects the caller is a member of, directly, through a group or a share. */
function isMember(ctx: RequestContext<unknown>, project: Project): boolean {
  return projectAccessLevel(ctx.state, ctx.user, project) >= AccessLevel.GUEST;
}

export function registerProjectRoutes(router: Router): void {
  // Every project the caller may see: public ones to anyone, internal ones to any signed-in user,
  // private ones to members and administrators. Anonymous callers get the short record
  // (BasicProjectDetails), signed-in ones the full one with their `permissions`.
  router.get('/projects', { auth: 'optional', paginated: true, params: instanceProjectListParams }, (ctx) => {
    const { params } = ctx;
    const projects = [...ctx.state.projects.values()].filter(
      (project) =>
        canReadProject(ctx.state, ctx.user, project) &&
        matchesFilters(ctx, project, params) &&
        (!params.membership || isMember(ctx, project)) &&
        hasTopics(project, params.topic) &&
        (params.id_after === undefined || project.id > params.id_after) &&
        (params.id_before === undefined || project.id < params.id_before),
    );
    const signedIn = ctx.user !== null;
    return paginate(ctx, orderProjects(projects, params), (project) =>
      params.simple || !signedIn ? projectSimple(ctx, project) : projectRecord(ctx, project, { permissions: true, customAttributes: params.with_custom_attributes }),
    );
  });

  // GitLab's "List a user's projects": the projects of the user's personal namespace the caller may
  // see, with the filters, orders and records of GET /projects. `:user_id` is an id or a username.
  router.get('/users/:user_id/projects', { auth: 'optional', paginated: true, params: { ...instanceProjectListParams, user_id: p.string().required() } }, (ctx) => {
    const { params } = ctx;
    const owner = userByIdOrUsername(ctx, params.user_id);
    if (!owner) throw notFound('User');
    const projects = [...ctx.state.projects.values()].filter(
      (project) =>
        project.namespace.kind === 'user' &&
        project.namespace.userId === owner.id &&
        canReadProject(ctx.state, ctx.user, project) &&
        matchesFilters(ctx, project, params) &&
        (!params.membership || isMember(ctx, project)) &&
        hasTopics(project, params.topic),
    );
    const signedIn = ctx.user !== null;
    return paginate(ctx, orderProjects(projects, params), (project) =>
      params.simple || !signedIn ? projectSimple(ctx, project) : projectRecord(ctx, project, { permissions: true, customAttributes: params.with_custom_attributes }),
    );
  });

  // GitLab's "List projects a user has contributed to" (ContributedProjectsFinder): the projects the
  // caller may see in which the user has contribution events. The demo's events are the issues,
  // merge requests and issue comments the user wrote. Only the collection's order and `simple` apply.
  router.get(
    '/users/:user_id/contributed_projects',
    { auth: 'optional', paginated: true, params: { user_id: p.string().required(), order_by: sharedProjectListParams.order_by, sort: sharedProjectListParams.sort, simple: sharedProjectListParams.simple } },
    (ctx) => {
      const { params } = ctx;
      const contributor = userByIdOrUsername(ctx, params.user_id);
      if (!contributor) throw notFound('User');
      const contributed = new Set<number>();
      for (const issue of ctx.state.issues.values()) if (issue.authorId === contributor.id) contributed.add(issue.projectId);
      for (const mergeRequest of ctx.state.mergeRequests.values()) if (mergeRequest.authorId === contributor.id) contributed.add(mergeRequest.projectId);
      for (const note of ctx.state.notes.values()) {
        const issue = ctx.state.issues.get(note.issueId);
        if (note.authorId === contributor.id && issue) contributed.add(issue.projectId);
      }
      const projects = [...ctx.state.projects.values()].filter((project) => contributed.has(project.id) && canReadProject(ctx.state, ctx.user, project));
      const signedIn = ctx.user !== null;
      // No search here: `similarity` orders by name, as without a search elsewhere.
      return paginate(ctx, orderProjects(projects, { ...params, search: undefined }), (project) =>
        params.simple || !signedIn ? projectSimple(ctx, project) : projectRecord(ctx, project, { permissions: true }),
      );
    },
  );

  // Public projects to anyone, internal to any signed-in user, private to members and admins.
  // `statistics=true` adds the storage statistics for Reporters and above (GitLab's
  // `read_statistics`); others get the record without them.
  router.get('/projects/:id', { auth: 'optional', params: { id: p.string().required(), statistics: p.boolean().default(false) } }, (ctx) => {
    const project = visibleProject(ctx, ctx.params.id);
    const record = projectRecord(ctx, project);
    const mayReadStatistics = ctx.user?.isAdmin === true || projectAccessLevel(ctx.state, ctx.user, project) >= AccessLevel.REPORTER;
    if (!ctx.params.statistics || !mayReadStatistics) return ok(record);
    const repository = ctx.state.repositories.get(project.id);
    const head = repository?.branchHead(project.defaultBranch);
    const commitCount = repository && head ? countCommits(repository, head.sha, false) : 0;
    return ok({ ...record, statistics: { commit_count: commitCount, ...projectStatistics(project), container_registry_size: 0 } });
  });
}
