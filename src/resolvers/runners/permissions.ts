// GitLab's RunnerPolicy (app/policies/ci/runner_policy.rb), decided from what REST tells the caller:
//
//   rule { admin | owned_runner }.enable :read_runner, :update_runner, :delete_runner, :assign_runner
//   rule { ~admin & belongs_to_multiple_projects }.prevent :delete_runner
//   rule { ~admin & locked }.prevent :assign_runner
//
// `owned_runner` is User#owns_runner?: a group or project runner of a group or project where the
// caller is Maintainer or higher. REST shows a group or project runner's detail (`GET /runners/:id`)
// to exactly those callers and administrators (rest-v4-api.md "Runners"), so owning one is being
// able to read its detail; instance runners, whose detail every signed-in user reads, are owned by
// nobody but administrators.
import type { RunnerSchema } from '../../datasources/runners.js';
import { RestError } from '../../datasources/rest-error.js';
import type { GatewayContext } from '../../server/context.js';
import { callerOf } from '../caller.js';
import { runnerDetail } from './detail.js';

export interface RunnerPermissionsRecord {
  readRunner: boolean;
  updateRunner: boolean;
  deleteRunner: boolean;
  assignRunner: boolean;
}

/** The detail when the caller may read it, null when REST refuses it (403: not the caller's runner). */
async function readableDetail(runner: RunnerSchema, context: GatewayContext): Promise<RunnerSchema | null> {
  try {
    return await runnerDetail(runner, context);
  } catch (error) {
    if (error instanceof RestError && error.status === 403) return null;
    throw error;
  }
}

export async function runnerPermissions(runner: RunnerSchema, context: GatewayContext): Promise<RunnerPermissionsRecord> {
  const [caller, detail] = await Promise.all([callerOf(context), readableDetail(runner, context)]);
  if (caller?.isAdmin) return { readRunner: true, updateRunner: true, deleteRunner: true, assignRunner: true };
  const owned = detail !== null && (detail.runner_type ?? runner.runner_type) !== 'instance_type';
  return {
    // The caller reached the runner through REST with their own credential.
    readRunner: true,
    updateRunner: owned,
    deleteRunner: owned && (detail?.projects?.length ?? 0) <= 1,
    assignRunner: owned && detail?.locked !== true,
  };
}
