// Runner shapes: the summary of every runner list (fixtures/runners/list-*.json) and the detail
// of GET/PUT /runners/:id (fixtures/runners/get-runner.json plus paused, locked, run_untagged).
import { groupAccessLevel, ownsRunner, projectAccessLevel } from '../data/access.js';
import { AccessLevel, type Group, type Project, type Runner } from '../data/model.js';
import type { PresentContext } from './context.js';
import { extend } from './extend.js';
import { projectReference } from './projects.js';

/**
 * REST `status`, Ci::Runner#deprecated_rest_status: `stale` and `never_contacted` (or the older
 * `not_connected`) whatever the runner's pause, else `paused` when paused, else how it last talked
 * to the server.
 */
export function runnerStatus(runner: Runner): string {
  if (runner.connectivity === 'stale' || runner.connectivity === 'never_contacted' || runner.connectivity === 'not_connected') return runner.connectivity;
  return runner.active ? runner.connectivity : 'paused';
}

/** `online` is null for a runner that never contacted the server (fixtures/runners/list-group-runners.json). */
export function runnerOnline(runner: Runner): boolean | null {
  if (runner.connectivity === 'never_contacted' || runner.connectivity === 'not_connected') return null;
  return runner.connectivity === 'online';
}

/** Runners with a running job, found once per answer rather than once per runner of a page. */
const busyRunners = new WeakMap<PresentContext, Set<number>>();

function jobExecutionStatus(ctx: PresentContext, runner: Runner): 'active' | 'idle' {
  let busy = busyRunners.get(ctx);
  if (!busy) {
    busy = new Set();
    for (const job of ctx.state.jobs.values()) if (job.status === 'running') busy.add(job.runnerId);
    busyRunners.set(ctx, busy);
  }
  return busy.has(runner.id) ? 'active' : 'idle';
}

export function runnerSummary(ctx: PresentContext, runner: Runner) {
  return {
    id: runner.id,
    description: runner.description,
    ip_address: runner.ipAddress,
    active: runner.active,
    paused: !runner.active,
    is_shared: runner.runnerType === 'instance_type',
    runner_type: runner.runnerType,
    name: runner.name,
    online: runnerOnline(runner),
    status: runnerStatus(runner),
    job_execution_status: jobExecutionStatus(ctx, runner),
  };
}

/** Admins, and owners of a group or project runner, may update it (and read its maintenance note). */
export function canUpdateRunner(ctx: PresentContext, runner: Runner): boolean {
  return ctx.user?.isAdmin === true || ownsRunner(ctx.state, ctx.user, runner);
}

export function runnerDetail(ctx: PresentContext, runner: Runner) {
  const { state, user } = ctx;
  const admin = user?.isAdmin === true;
  // GitLab lists only the projects and groups the caller is authorized for (admins: all).
  const projects = runner.projectIds
    .map((id) => state.projects.get(id))
    .filter((p): p is Project => p !== undefined && (admin || projectAccessLevel(state, user, p) >= AccessLevel.GUEST));
  const group = runner.groupId === null ? undefined : state.groups.get(runner.groupId);
  const groups = [group].filter((g): g is Group => g !== undefined && (admin || groupAccessLevel(state, user, g) >= AccessLevel.GUEST));
  return extend(runnerSummary(ctx, runner), {
    tag_list: runner.tagList,
    run_untagged: runner.runUntagged,
    locked: runner.locked,
    maximum_timeout: runner.maximumTimeout,
    access_level: runner.accessLevel,
    version: runner.version,
    revision: runner.revision,
    platform: runner.platform,
    architecture: runner.architecture,
    contacted_at: runner.contactedAt,
    maintenance_note: canUpdateRunner(ctx, runner) ? runner.maintenanceNote : null,
    projects: projects.map((p) => projectReference(ctx, p)),
    groups: groups.map((g) => ({ id: g.id, web_url: `${ctx.origin}/groups/${state.groupFullPath(g)}`, name: g.name })),
  });
}

/**
 * The managers of a runner (fixtures/runners/list-runner-managers.json): one runner process per
 * host that uses the runner's configuration. Derived from the runner so they need no state: none
 * for a runner that never connected, two hosts for even ids, one for odd ones.
 */
export function runnerManagers(ctx: PresentContext, runner: Runner) {
  if (runner.connectivity === 'never_contacted' || runner.connectivity === 'not_connected') return [];
  const hosts = runner.id % 2 === 0 ? 2 : 1;
  return Array.from({ length: hosts }, (_, index) => ({
    id: runner.id * 10 + index + 1,
    system_id: `s_${(runner.id * 7919 + index).toString(16).padStart(12, '0')}`,
    version: runner.version,
    revision: runner.revision,
    platform: runner.platform,
    architecture: runner.architecture,
    created_at: runner.createdAt,
    contacted_at: runner.contactedAt,
    ip_address: '127.0.0.1',
    status: runner.connectivity,
    job_execution_status: jobExecutionStatus(ctx, runner),
  }));
}
