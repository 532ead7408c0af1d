// GitLab's `CiRunner.status` from REST's. REST answers Ci::Runner#deprecated_rest_status (`stale`,
// then `never_contacted`, then `paused` for a paused runner, then `online`/`offline`); GitLab's
// GraphQL answers Ci::Runner#status, which leaves pausing to `paused`. The two differ only for a
// paused runner that is neither stale nor new, whose `online` then says which it is.
import type { RunnerSchema } from '../../datasources/runners.js';

/** GitLab's legacy mode: REST's own status, PAUSED included. */
const LEGACY_MODE = '14.5';

export function graphqlRunnerStatus(runner: Pick<RunnerSchema, 'status' | 'online'>, legacyMode: string | null | undefined): string {
  if (legacyMode === LEGACY_MODE) return runner.status;
  if (runner.status === 'paused') return runner.online === true ? 'online' : 'offline';
  // Older servers' name for a runner that never contacted the server.
  if (runner.status === 'not_connected') return 'never_contacted';
  return runner.status;
}
