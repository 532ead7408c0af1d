// Runner list filters, as lib/api/ci/runners.rb: `type`, `status`, `paused`, `tag_list`,
// `version_prefix`, and the deprecated `scope`.
import type { Runner } from '../../data/model.js';
import { messageError } from '../../http/errors.js';
import { p } from '../../http/params.js';

export const RUNNER_TYPES = ['instance_type', 'group_type', 'project_type'] as const;
/** Current statuses plus the deprecated `active` / `paused` (and the legacy `not_connected`). */
export const RUNNER_STATUSES = ['active', 'paused', 'online', 'offline', 'stale', 'never_contacted', 'not_connected'] as const;
const LEGACY_TYPES = ['specific', 'shared'] as const;
/** Every value `scope` may take on /runners/all and /projects/:id/runners. */
export const RUNNER_SCOPES = [...LEGACY_TYPES, ...RUNNER_TYPES, ...RUNNER_STATUSES] as const;

export const filterParams = {
  type: p.string().values(RUNNER_TYPES),
  paused: p.boolean(),
  status: p.string().values(RUNNER_STATUSES),
  tag_list: p.stringArray().commaSeparated(),
  version_prefix: p.string(),
};

/** Grape validates `scope` against every scope first ("scope does not have a valid value"). */
export const scopeParam = { scope: p.string().values(RUNNER_SCOPES) };

function matchesScope(runner: Runner, scope: string): boolean {
  switch (scope) {
    case 'specific':
      return runner.runnerType !== 'instance_type';
    case 'shared':
      return runner.runnerType === 'instance_type';
    case 'active':
      return runner.active;
    case 'paused':
      return !runner.active;
    case 'instance_type':
    case 'group_type':
    case 'project_type':
      return runner.runnerType === scope;
    default:
      return runner.connectivity === scope;
  }
}

/** GitLab's `filter_runners`: a scope outside `allowed` is a 400 with a message body. */
export function filterByScope(runners: Runner[], scope: string | undefined, allowed: readonly string[] = RUNNER_SCOPES): Runner[] {
  if (!scope) return runners;
  if (!allowed.includes(scope)) throw messageError(400, 'Scope contains invalid value');
  return runners.filter((r) => matchesScope(r, scope));
}

export interface RunnerFilters {
  type?: string | undefined;
  paused?: boolean | undefined;
  status?: string | undefined;
  tag_list?: string[] | undefined;
  version_prefix?: string | undefined;
}

/** GitLab's `apply_filter`; `tag_list` needs every tag to be present. */
export function applyFilters(runners: Runner[], filters: RunnerFilters): Runner[] {
  let result = filterByScope(runners, filters.type, RUNNER_TYPES);
  result = filterByScope(result, filters.status, RUNNER_STATUSES);
  if (filters.paused !== undefined) result = result.filter((r) => r.active !== filters.paused);
  const prefix = filters.version_prefix;
  if (prefix) result = result.filter((r) => r.version?.startsWith(prefix) === true);
  const tags = filters.tag_list;
  if (tags && tags.length > 0) result = result.filter((r) => tags.every((t) => r.tagList.includes(t)));
  return result;
}
