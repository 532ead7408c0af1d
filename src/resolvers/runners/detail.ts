import type { RunnerSchema } from '../../datasources/runners.js';
import type { GatewayContext } from '../../server/context.js';

/** The detail record, from the parent when it is one, else through the per-request loader. */
export async function runnerDetail(runner: RunnerSchema, context: GatewayContext): Promise<RunnerSchema> {
  return runner.projects ? runner : context.loaders.runner.load(runner.id);
}
