// Runners of one project or group (lib/api/ci/runners.rb, `resource :projects` / `:groups`).
import { groupAccessLevel, ownsRunner, projectAccessLevel } from '../../data/access.js';
import { AccessLevel, type Group, type Project, type Runner } from '../../data/model.js';
import type { SimulatorState } from '../../data/state.js';
import { runnerSummary } from '../../entities/runners.js';
import { forbidden, messageError, notFound } from '../../http/errors.js';
import { paginate } from '../../http/pagination.js';
import { p } from '../../http/params.js';
import { created, noContent } from '../../http/response.js';
import type { RequestContext, Router } from '../../http/router.js';
import { existingRunner, visibleGroup, visibleProject } from '../lookup.js';
import { applyFilters, filterByScope, filterParams, scopeParam } from './filters.js';

const byId = (a: Runner, b: Runner) => a.id - b.id;

/** A project the caller can see (404 otherwise) and manage runners of: Maintainer+ (403 otherwise). */
function managedProject(ctx: RequestContext<unknown>, idOrPath: string): Project {
  const project = visibleProject(ctx, idOrPath);
  if (!ctx.user?.isAdmin && projectAccessLevel(ctx.state, ctx.user, project) < AccessLevel.MAINTAINER) throw forbidden();
  return project;
}

/** `Ci::Runner.owned_or_instance_wide`: the project's runners, its groups' (and ancestors'), and instance runners if allowed. */
function runnersOfProject(state: SimulatorState, project: Project): Runner[] {
  const groupIds = new Set<number>();
  const group = state.projectGroup(project);
  if (group) for (const g of [group, ...state.groupAncestors(group)]) groupIds.add(g.id);
  return [...state.runners.values()].filter(
    (r) =>
      (r.runnerType === 'project_type' && r.projectIds.includes(project.id)) ||
      (r.runnerType === 'group_type' && r.groupId !== null && groupIds.has(r.groupId)) ||
      (r.runnerType === 'instance_type' && project.sharedRunnersEnabled),
  );
}

/** `Ci::Runner.group_or_instance_wide`: the group's and its ancestors' runners, and instance runners. */
function runnersOfGroup(state: SimulatorState, group: Group): Runner[] {
  const groupIds = new Set([group.id, ...state.groupAncestors(group).map((g) => g.id)]);
  return [...state.runners.values()].filter(
    (r) => r.runnerType === 'instance_type' || (r.runnerType === 'group_type' && r.groupId !== null && groupIds.has(r.groupId)),
  );
}

export function registerScopedRunnerRoutes(router: Router): void {
  router.get(
    '/projects/:id/runners',
    { auth: 'required', paginated: true, params: { id: p.string().required(), ...scopeParam, ...filterParams } },
    (ctx) => {
      const project = managedProject(ctx, ctx.params.id);
      let runners = filterByScope(runnersOfProject(ctx.state, project), ctx.params.scope);
      runners = applyFilters(runners, ctx.params).sort(byId);
      return paginate(ctx, runners, (r) => runnerSummary(ctx, r));
    },
  );

  router.post('/projects/:id/runners', { auth: 'required', params: { id: p.string().required(), runner_id: p.integer().required() } }, (ctx) => {
    const project = managedProject(ctx, ctx.params.id);
    const runner = existingRunner(ctx, ctx.params.runner_id);
    if (runner.runnerType === 'group_type') throw forbidden('Runner is a group runner');
    if (!ctx.user?.isAdmin) {
      if (runner.locked) throw forbidden('Runner is locked');
      if (!ownsRunner(ctx.state, ctx.user, runner)) throw forbidden('No access granted');
    }
    // AssignRunnerService failures are 400s: "<message> - <reason>" (render_api_error_with_reason!).
    if (runner.runnerType === 'instance_type') {
      throw messageError(400, 'user not allowed to assign runner - not_authorized_to_assign_runner');
    }
    if (runner.projectIds.includes(project.id)) throw messageError(400, 'Runner has already been taken - runner_error');
    runner.projectIds.push(project.id);
    return created(runnerSummary(ctx, runner));
  });

  router.delete(
    '/projects/:id/runners/:runner_id',
    { auth: 'required', params: { id: p.string().required(), runner_id: p.integer().required() } },
    (ctx) => {
      const project = managedProject(ctx, ctx.params.id);
      const runner = ctx.state.runners.get(ctx.params.runner_id);
      if (!runner || runner.runnerType !== 'project_type' || !runner.projectIds.includes(project.id)) throw notFound('Runner');
      if (!ctx.user?.isAdmin && !ownsRunner(ctx.state, ctx.user, runner)) throw forbidden('User not allowed to assign runner');
      if (runner.projectIds.length <= 1) {
        throw forbidden('Only one project associated with the runner. Please remove the runner instead');
      }
      runner.projectIds = runner.projectIds.filter((id) => id !== project.id);
      return noContent();
    },
  );

  router.get('/groups/:id/runners', { auth: 'required', paginated: true, params: { id: p.string().required(), ...filterParams } }, (ctx) => {
    const group = visibleGroup(ctx, ctx.params.id);
    // read_group_runners: Maintainer+ of the group (Owner included) or an administrator.
    if (!ctx.user?.isAdmin && groupAccessLevel(ctx.state, ctx.user, group) < AccessLevel.MAINTAINER) throw forbidden();
    const runners = applyFilters(runnersOfGroup(ctx.state, group), ctx.params).sort(byId);
    return paginate(ctx, runners, (r) => runnerSummary(ctx, r));
  });
}
