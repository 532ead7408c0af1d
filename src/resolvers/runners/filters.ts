import type { CiJobStatus, CiRunnerScope, CiRunnerSort, CiRunnerStatus, CiRunnerType } from '../../__generated__/resolvers-types.js';
import type { ListOrder } from '../../connections/connection.js';
import type { FieldCost } from '../../cost/field-cost.js';
import { RUNNER_SUMMARY } from '../../cost/shapes.js';
import { MAX_WINDOW_CALLS, windowCost } from '../../cost/window-cost.js';
import type { RunnerListFilters } from '../../datasources/runners.js';
import { badUserInput } from '../../errors/graphql-errors.js';

export interface RunnerFilterArgs {
  type?: CiRunnerType | null;
  status?: CiRunnerStatus | null;
  paused?: boolean | null;
  /** GitLab's deprecated inverse of `paused`. */
  active?: boolean | null;
  versionPrefix?: string | null;
  tagList?: ReadonlyArray<string> | null;
  scope?: CiRunnerScope | null;
}

/** `specific` and `shared` exist only for the administrators' list of all runners. */
const ALL_RUNNERS_ONLY_SCOPES: ReadonlySet<string> = new Set(['specific', 'shared']);

/** `not_connected` is a status older servers report, never one REST filters by. */
const REPORTED_ONLY_STATUSES: ReadonlySet<string> = new Set(['not_connected']);

/**
 * The REST filters of a runner list, checked before any REST call. `allowAllScopes` is for
 * `GET /runners/all`, the only list whose `scope` accepts `specific` and `shared`.
 */
export function runnerListFilters(args: RunnerFilterArgs, allowAllScopes = false): RunnerListFilters {
  if (args.scope && !allowAllScopes && ALL_RUNNERS_ONLY_SCOPES.has(args.scope)) {
    throw badUserInput('`scope` SPECIFIC and SHARED are only accepted by `runners`, the administrators\' list; use `type` instead.', 'scope');
  }
  if (args.status && REPORTED_ONLY_STATUSES.has(args.status)) {
    throw badUserInput('`status` NOT_CONNECTED is only reported, never filtered by; use NEVER_CONTACTED.', 'status');
  }
  const tagList = args.tagList ?? undefined;
  if (tagList?.some((tag) => tag.trim() === '' || tag.includes(','))) {
    throw badUserInput('`tagList` entries must be non-empty and must not contain commas.', 'tagList');
  }
  if (args.active != null && args.paused != null && args.active === args.paused) {
    throw badUserInput('`active` is the opposite of `paused`: give one of them, or both agreeing.', 'active');
  }
  const paused = args.paused ?? (args.active == null ? undefined : !args.active);
  const versionPrefix = args.versionPrefix ?? undefined;
  if (versionPrefix !== undefined && !/^\d+(\.\d+){0,2}\.?$/.test(versionPrefix)) {
    throw badUserInput('`versionPrefix` must be the start of a version number, such as `16` or `16.1.`.', 'versionPrefix');
  }
  return {
    type: args.type ?? undefined,
    status: args.status ?? undefined,
    paused,
    versionPrefix,
    tagList,
    scope: args.scope ?? undefined,
  };
}

/** The statuses REST's `GET /runners/:id/jobs` filters by (rest-v4-api.md "Runners"). */
const RUNNER_JOB_STATUS_FILTERS: ReadonlySet<string> = new Set(['running', 'success', 'failed', 'canceled']);

/**
 * GitLab's `statuses` argument as REST's single `status` filter: none, or exactly one of the four
 * REST accepts; anything else is refused before any REST call.
 */
export function runnerJobStatusFilter(statuses: ReadonlyArray<CiJobStatus> | null | undefined): string | undefined {
  if (!statuses || statuses.length === 0) return undefined;
  const distinct = [...new Set(statuses)];
  if (distinct.length > 1) {
    throw badUserInput('`statuses` takes one status: REST filters a runner\'s jobs by one status at a time.', 'statuses');
  }
  const status = distinct[0]!;
  if (!RUNNER_JOB_STATUS_FILTERS.has(status)) {
    throw badUserInput('`statuses` must be RUNNING, SUCCESS, FAILED or CANCELED, the statuses REST filters a runner\'s jobs by.', 'statuses');
  }
  return status;
}

/**
 * GitLab's runner orders that REST's lists can give: they list runners by id, oldest first, which is
 * CREATED_ASC (a runner's id grows with its creation time); CREATED_DESC reads the list from its end.
 * The others need what REST's list records lack (contact and token expiry times, job counts).
 */
export function runnerListOrder(args: { sort?: CiRunnerSort | null }): ListOrder {
  if (args.sort == null || args.sort === 'created_asc') return {};
  if (args.sort === 'created_desc') return { reversed: true };
  throw badUserInput(`\`sort\` ${args.sort.toUpperCase()} is not served: REST lists runners by creation (id) only, without the contact or token expiry times and job counts it would need; use CREATED_ASC or CREATED_DESC.`, 'sort');
}

/**
 * What a runner list costs: the window's pages, or newest first (`sort: CREATED_DESC`, read from the
 * list's end) the head page that gives the total and up to two pages of the mirrored range.
 */
export const runnerList: FieldCost = {
  calls: (args) => (String(args['sort']).toLowerCase() === 'created_desc' ? MAX_WINDOW_CALLS : windowCost(args).calls),
  items: 'window',
  returns: RUNNER_SUMMARY,
};
