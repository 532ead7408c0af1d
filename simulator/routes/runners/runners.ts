// /runners, /runners/all and /runners/:id(/jobs): lib/api/ci/runners.rb, signed-in users only.
import { ownsRunner, projectAccessLevel } from '../../data/access.js';
import { AccessLevel, type Runner } from '../../data/model.js';
import { runnerJob } from '../../entities/jobs.js';
import { canUpdateRunner, runnerDetail, runnerManagers, runnerSummary } from '../../entities/runners.js';
import { forbidden } from '../../http/errors.js';
import { paginate } from '../../http/pagination.js';
import { p } from '../../http/params.js';
import { created, noContent, ok } from '../../http/response.js';
import type { RequestContext, Router } from '../../http/router.js';
import { existingRunner } from '../lookup.js';
import { applyFilters, filterByScope, filterParams, RUNNER_STATUSES, scopeParam } from './filters.js';
import { newToken } from '../../data/tokens.js';
import { validateRunner } from './validation.js';

/**
 * GitLab answers "403 Forbidden - No access granted" here; the simulator's contract (the gateway
 * brief) uses the bare "403 Forbidden". Set a reason to get GitLab's exact text.
 */
const NO_ACCESS_REASON: string | undefined = undefined;

const JOB_STATUSES = ['running', 'success', 'failed', 'canceled'] as const;
const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;

/** Instance runners to any signed-in user; group and project runners to admins and their owners. */
function assertCanRead(ctx: RequestContext<unknown>, runner: Runner): void {
  if (runner.runnerType === 'instance_type' || ctx.user?.isAdmin) return;
  if (!ownsRunner(ctx.state, ctx.user, runner)) throw forbidden(NO_ACCESS_REASON);
}

/** Instance runners only by admins; others by admins and owners. */
function assertCanUpdate(ctx: RequestContext<unknown>, runner: Runner): void {
  if (!canUpdateRunner(ctx, runner)) throw forbidden(NO_ACCESS_REASON);
}

export function registerRunnerRoutes(router: Router): void {
  // Runners the caller owns; the same rule for administrators (not every runner: that is /runners/all).
  router.get('/runners', { auth: 'required', paginated: true, params: { ...scopeParam, ...filterParams } }, (ctx) => {
    let runners = [...ctx.state.runners.values()].filter((r) => ownsRunner(ctx.state, ctx.user, r));
    runners = filterByScope(runners, ctx.params.scope, RUNNER_STATUSES);
    runners = applyFilters(runners, ctx.params).sort(byId);
    return paginate(ctx, runners, (r) => runnerSummary(ctx, r));
  });

  router.get('/runners/all', { auth: 'required', paginated: true, params: { ...scopeParam, ...filterParams } }, (ctx) => {
    if (!ctx.user?.isAdmin) throw forbidden();
    let runners = filterByScope([...ctx.state.runners.values()], ctx.params.scope);
    runners = applyFilters(runners, ctx.params).sort(byId);
    return paginate(ctx, runners, (r) => runnerSummary(ctx, r));
  });

  router.get('/runners/:id', { auth: 'required', params: { id: p.integer().required() } }, (ctx) => {
    const runner = existingRunner(ctx, ctx.params.id);
    assertCanRead(ctx, runner);
    return ok(runnerDetail(ctx, runner));
  });

  router.put(
    '/runners/:id',
    {
      auth: 'required',
      params: {
        id: p.integer().required(),
        description: p.string(),
        active: p.boolean(),
        paused: p.boolean(),
        tag_list: p.stringArray().commaSeparated(),
        run_untagged: p.boolean(),
        locked: p.boolean(),
        access_level: p.string().values(['not_protected', 'ref_protected']),
        maximum_timeout: p.integer().nullable(),
        maintenance_note: p.string().nullable(),
      },
      atLeastOneOf: ['description', 'active', 'paused', 'tag_list', 'run_untagged', 'locked', 'access_level', 'maximum_timeout', 'maintenance_note'],
      mutuallyExclusive: [['active', 'paused']],
    },
    (ctx) => {
      const runner = existingRunner(ctx, ctx.params.id);
      assertCanUpdate(ctx, runner);
      const { params } = ctx;
      const next = {
        tagList: params.tag_list ?? runner.tagList,
        runUntagged: params.run_untagged ?? runner.runUntagged,
        maximumTimeout: params.maximum_timeout === undefined ? runner.maximumTimeout : params.maximum_timeout,
        maintenanceNote: params.maintenance_note === undefined ? runner.maintenanceNote : params.maintenance_note,
      };
      validateRunner(next);
      if (params.description !== undefined) runner.description = params.description;
      // `paused` is the new name of `!active`; the change persists and shows in `status`.
      if (params.active !== undefined) runner.active = params.active;
      if (params.paused !== undefined) runner.active = !params.paused;
      if (params.locked !== undefined) runner.locked = params.locked;
      if (params.access_level === 'not_protected' || params.access_level === 'ref_protected') runner.accessLevel = params.access_level;
      runner.tagList = [...new Set(next.tagList)];
      runner.runUntagged = next.runUntagged;
      runner.maximumTimeout = next.maximumTimeout;
      runner.maintenanceNote = next.maintenanceNote;
      return ok(runnerDetail(ctx, runner));
    },
  );

  router.delete('/runners/:id', { auth: 'required', params: { id: p.integer().required() } }, (ctx) => {
    const runner = existingRunner(ctx, ctx.params.id);
    if (!ctx.user?.isAdmin) {
      if (runner.projectIds.length > 1) throw forbidden('Runner associated with more than one project');
      assertCanUpdate(ctx, runner);
    }
    ctx.state.runners.delete(runner.id);
    return noContent();
  });

  router.get(
    '/runners/:id/jobs',
    {
      auth: 'required',
      paginated: true,
      params: {
        id: p.integer().required(),
        status: p.string().values(JOB_STATUSES),
        order_by: p.string().values(['id']),
        sort: p.string().values(['asc', 'desc']).default('desc'),
      },
    },
    (ctx) => {
      const runner = existingRunner(ctx, ctx.params.id);
      assertCanRead(ctx, runner);
      const { state, user } = ctx;
      // "The list of jobs is limited to projects where the user has at least the Reporter role."
      const readable = new Map<number, boolean>();
      const canSee = (projectId: number) => {
        if (user?.isAdmin) return true;
        let allowed = readable.get(projectId);
        if (allowed === undefined) {
          const project = state.projects.get(projectId);
          allowed = project !== undefined && projectAccessLevel(state, user, project) >= AccessLevel.REPORTER;
          readable.set(projectId, allowed);
        }
        return allowed;
      };
      const status = ctx.params.status;
      const jobs = state
        .jobsOfRunner(runner.id)
        .filter((j) => canSee(j.projectId) && (status === undefined || j.status === status))
        .sort(ctx.params.sort === 'asc' ? byId : (a, b) => b.id - a.id);
      return paginate(ctx, jobs, (j) => runnerJob(ctx, j));
    },
  );

  // Same access as the runner's detail (doc/api/runners.md "List runner's managers").
  router.get('/runners/:id/managers', { auth: 'required', paginated: true, params: { id: p.integer().required() } }, (ctx) => {
    const runner = existingRunner(ctx, ctx.params.id);
    assertCanRead(ctx, runner);
    return paginate(ctx, runnerManagers(ctx, runner), (manager) => manager);
  });

  // fixtures/runners/reset-runner-auth-token-by-id.json: the old token stops working at once.
  router.post('/runners/:id/reset_authentication_token', { auth: 'required', params: { id: p.integer().required() } }, (ctx) => {
    const runner = existingRunner(ctx, ctx.params.id);
    assertCanUpdate(ctx, runner);
    runner.token = newToken('glrt-');
    return created({ token: runner.token, token_expires_at: runner.tokenExpiresAt });
  });
}
