// GET /groups/:id/projects, GET /groups/:id/projects/shared and POST /groups/:id/projects/:project_id
// (rest-v4-api.md "Groups"; GitLab's GroupProjectsFinder and Projects::TransferService).
import { canReadProject, isMoreVisible, projectAccessLevel, VISIBILITIES } from '../../data/access.js';
import { AccessLevel, type Group, type Project } from '../../data/model.js';
import { similarityScore } from '../../data/similarity.js';
import { projectRecord, projectSimple } from '../../entities/projects.js';
import { forbidden, messageError, notFound } from '../../http/errors.js';
import { paginate } from '../../http/pagination.js';
import { p, type ParamsOf } from '../../http/params.js';
import { created } from '../../http/response.js';
import type { RequestContext, Router } from '../../http/router.js';
import { visibleGroup } from '../lookup.js';
import { ACCESS_LEVEL_VALUES } from './finder.js';

/**
 * Filters of GET /groups/:id/projects/shared, which are also those of GET /groups/:id/projects and
 * (with more orders and filters) of GET /projects.
 */
export const sharedProjectListParams = {
  archived: p.boolean(),
  visibility: p.string().values(VISIBILITIES),
  order_by: p.string().values(['id', 'name', 'path', 'created_at', 'updated_at', 'similarity', 'last_activity_at']).default('created_at'),
  sort: p.string().values(['asc', 'desc']).default('desc'),
  search: p.string(),
  simple: p.boolean().default(false),
  starred: p.boolean().default(false),
  with_issues_enabled: p.boolean().default(false),
  with_merge_requests_enabled: p.boolean().default(false),
  min_access_level: p.integer().values(ACCESS_LEVEL_VALUES),
  with_custom_attributes: p.boolean().default(false),
  // (ULTIMATE) accepted; the simulator has no security reports, so it changes nothing.
  with_security_reports: p.boolean().default(false),
};

const projectListParams = {
  ...sharedProjectListParams,
  owned: p.boolean().default(false),
  with_shared: p.boolean().default(true),
  include_subgroups: p.boolean().default(false),
};

type ProjectListParams = ParamsOf<typeof sharedProjectListParams> & Partial<ParamsOf<typeof projectListParams>> & { search_namespaces?: boolean };

/**
 * GitLab's `Project.search`: the text in the name, path or description, any case; with
 * `search_namespaces` (GET /projects), in the full path and full name instead of path and name.
 */
function matchesSearch(ctx: RequestContext<unknown>, project: Project, params: ProjectListParams): boolean {
  const search = params.search?.trim().toLowerCase();
  if (!search) return true;
  const [name, path] = params.search_namespaces
    ? [`${ctx.state.projectNamespaceName(project)} / ${project.name}`, ctx.state.projectFullPath(project)]
    : [project.name, project.path];
  return [name, path, project.description ?? ''].some((text) => text.toLowerCase().includes(search));
}

export function matchesFilters(ctx: RequestContext<unknown>, project: Project, params: ProjectListParams): boolean {
  const { state, user } = ctx;
  const level = () => projectAccessLevel(state, user, project);
  return (
    (params.archived === undefined || project.archived === params.archived) &&
    (params.visibility === undefined || project.visibility === params.visibility) &&
    matchesSearch(ctx, project, params) &&
    (!params.owned || (user !== null && level() >= AccessLevel.OWNER)) &&
    (!params.starred || (user !== null && state.stars.some((s) => s.userId === user.id && s.projectId === project.id))) &&
    (!params.with_issues_enabled || project.issuesEnabled) &&
    (!params.with_merge_requests_enabled || project.mergeRequestsEnabled) &&
    (params.min_access_level === undefined || (level() > AccessLevel.NO_ACCESS && level() >= params.min_access_level))
  );
}

export function orderProjects(projects: Project[], params: Pick<ProjectListParams, 'search' | 'order_by' | 'sort'>): Project[] {
  const search = params.search?.trim();
  if (params.order_by === 'similarity') {
    if (search) {
      const scores = new Map(projects.map((project) => [project.id, similarityScore(search, project)]));
      return projects.sort((a, b) => (scores.get(b.id) ?? 0) - (scores.get(a.id) ?? 0) || a.id - b.id);
    }
    // Without a search: by name, then by id in the requested direction (`handle_similarity_order`).
    const direction = params.sort === 'asc' ? 1 : -1;
    return projects.sort((a, b) => a.name.localeCompare(b.name, 'en') || direction * (a.id - b.id));
  }
  const direction = params.sort === 'asc' ? 1 : -1;
  const value = (project: Project): string | number => {
    switch (params.order_by) {
      case 'id':
        return project.id;
      case 'name':
        return project.name.toLowerCase();
      case 'path':
        return project.path.toLowerCase();
      // GET /projects only.
      case 'star_count':
        return project.starCount;
      // The model keeps no separate updated_at: the last activity is when the project last changed.
      case 'updated_at':
      case 'last_activity_at':
        return project.lastActivityAt;
      default:
        return project.createdAt;
    }
  };
  return projects.sort((a, b) => {
    const [left, right] = [value(a), value(b)];
    const primary = typeof left === 'number' && typeof right === 'number' ? left - right : String(left).localeCompare(String(right), 'en');
    return direction * (primary || a.id - b.id);
  });
}

function present(ctx: RequestContext<ProjectListParams>, projects: Project[]) {
  const visible = projects.filter((project) => canReadProject(ctx.state, ctx.user, project) && matchesFilters(ctx, project, ctx.params));
  const ordered = orderProjects(visible, ctx.params);
  const customAttributes = ctx.params.with_custom_attributes === true;
  return paginate(ctx, ordered, (project) =>
    ctx.params.simple ? projectSimple(ctx, project) : projectRecord(ctx, project, { permissions: false, customAttributes }),
  );
}

function projectsInGroups(ctx: RequestContext<unknown>, groupIds: ReadonlySet<number>): Project[] {
  return [...ctx.state.projects.values()].filter((project) => project.namespace.kind === 'group' && groupIds.has(project.namespace.groupId));
}

function sharedWith(ctx: RequestContext<unknown>, group: Group): Project[] {
  return [...ctx.state.projects.values()].filter((project) => project.sharedWithGroups.some((share) => share.groupId === group.id));
}

/**
 * Projects::TransferService: the project moves into the group and its full path changes; a project
 * more visible than its new group is lowered to the group's visibility.
 */
function transfer(ctx: RequestContext<unknown>, project: Project, group: Group): void {
  const failed = (reason: string) => messageError(400, `Failed to transfer project {:new_namespace=>["${reason}"]}`);
  if (project.namespace.kind === 'group' && project.namespace.groupId === group.id) throw failed('Project is already in this namespace.');
  const clash = projectsInGroups(ctx, new Set([group.id])).some(
    (other) => other.path.toLowerCase() === project.path.toLowerCase() || other.name.toLowerCase() === project.name.toLowerCase(),
  );
  if (clash) throw failed('Project with same name or path in target namespace already exists');
  project.namespace = { kind: 'group', groupId: group.id };
  if (isMoreVisible(project.visibility, group.visibility)) project.visibility = group.visibility;
  project.lastActivityAt = ctx.state.now.toISOString();
}

export function registerGroupProjectRoutes(router: Router): void {
  router.get('/groups/:id/projects', { auth: 'optional', paginated: true, params: { id: p.string().required(), ...projectListParams } }, (ctx) => {
    const group = visibleGroup(ctx, ctx.params.id);
    const groupIds = new Set(ctx.params.include_subgroups ? ctx.state.groupSubtree(group).map((g) => g.id) : [group.id]);
    const own = projectsInGroups(ctx, groupIds);
    const shared = ctx.params.with_shared ? sharedWith(ctx, group).filter((project) => !own.includes(project)) : [];
    return present(ctx, [...own, ...shared]);
  });

  router.get(
    '/groups/:id/projects/shared',
    { auth: 'optional', paginated: true, params: { id: p.string().required(), ...sharedProjectListParams } },
    (ctx) => present(ctx, sharedWith(ctx, visibleGroup(ctx, ctx.params.id))),
  );

  // Administrators only. GitLab's code answers with the group's detail; rest-v4-api.md says the
  // project, which is what this server answers.
  router.post(
    '/groups/:id/projects/:project_id',
    { auth: 'required', params: { id: p.string().required(), project_id: p.string().required() } },
    (ctx) => {
      if (!ctx.user?.isAdmin) throw forbidden();
      const group = ctx.state.findGroup(ctx.params.id);
      if (!group) throw notFound('Group');
      const project = ctx.state.findProject(ctx.params.project_id);
      if (!project) throw notFound('Project');
      transfer(ctx, project, group);
      return created(projectRecord(ctx, project));
    },
  );
}
