import type { CiRunnerScope, CiRunnerStatusFilter, CiRunnerType } from '../../__generated__/resolvers-types.js';
import type { RunnerListFilters } from '../../datasources/runners.js';
import { badUserInput } from '../../errors/graphql-errors.js';

export interface RunnerFilterArgs {
  type?: CiRunnerType | null;
  status?: CiRunnerStatusFilter | null;
  tagList?: ReadonlyArray<string> | null;
  scope?: CiRunnerScope | null;
}

/** `specific` and `shared` exist only for the administrators' list of all runners. */
const ALL_RUNNERS_ONLY_SCOPES: ReadonlySet<string> = new Set(['specific', 'shared']);

/**
 * The REST filters of a runner list, checked before any REST call. `allowAllScopes` is for
 * `GET /runners/all`, the only list whose `scope` accepts `specific` and `shared`.
 */
export function runnerListFilters(args: RunnerFilterArgs, allowAllScopes = false): RunnerListFilters {
  if (args.scope && !allowAllScopes && ALL_RUNNERS_ONLY_SCOPES.has(args.scope)) {
    throw badUserInput('`scope` SPECIFIC and SHARED are only accepted by `allRunners`; use `type` instead.', 'scope');
  }
  const tagList = args.tagList ?? undefined;
  if (tagList?.some((tag) => tag.trim() === '' || tag.includes(','))) {
    throw badUserInput('`tagList` entries must be non-empty and must not contain commas.', 'tagList');
  }
  return {
    type: args.type ?? undefined,
    status: args.status ?? undefined,
    tagList,
    scope: args.scope ?? undefined,
  };
}
