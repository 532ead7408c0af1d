import type { CiRunnerResolvers } from '../../__generated__/resolvers-types.js';
import { arrayConnection, restConnection } from '../../connections/connection.js';
import type { RunnerSchema } from '../../datasources/runners.js';
import type { GatewayContext } from '../../server/context.js';
import { toGlobalId } from '../global-id.js';

/** Whether a runner is paused; older records and the update response only carry `active`. */
export function runnerIsPaused(runner: RunnerSchema): boolean {
  return runner.paused ?? runner.active === false;
}

/** The detail record, from the parent when it is one, else through the per-request loader. */
async function detail(runner: RunnerSchema, context: GatewayContext): Promise<RunnerSchema> {
  return runner.projects ? runner : context.loaders.runner.load(runner.id);
}

export const CiRunner: CiRunnerResolvers = {
  id: (runner) => toGlobalId('Ci::Runner', runner.id),
  paused: (runner) => runnerIsPaused(runner),
  active: (runner) => runner.active ?? !runnerIsPaused(runner),
  async projects(runner, args, context) {
    return arrayConnection(args, (await detail(runner, context)).projects ?? []);
  },
  jobs(runner, args, { api }) {
    const filters = { status: args.status ?? undefined, orderBy: args.orderBy ?? undefined, sort: args.sort ?? undefined };
    return restConnection(args, (page) => api.runners.jobs(runner.id, filters, page));
  },
  managers(runner, args, { api }) {
    return restConnection(args, (page) => api.runners.managers(runner.id, page));
  },
};
