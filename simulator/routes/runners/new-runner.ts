// A new runner, as registration (`POST /runners`) and creation by a user (`POST /user/runners`)
// both make it: never contacted, with a fresh authentication token.
import type { Runner, RunnerAccessLevel, RunnerType } from '../../data/model.js';
import type { SimulatorState } from '../../data/state.js';
import { newToken } from '../../data/tokens.js';
import { p } from '../../http/params.js';

export interface NewRunner {
  runnerType: RunnerType;
  groupId: number | null;
  projectIds: number[];
  description: string;
  active: boolean;
  tagList: string[];
  runUntagged: boolean;
  locked: boolean;
  accessLevel: RunnerAccessLevel;
  maximumTimeout: number | null;
  maintenanceNote: string | null;
  /** What the runner program reported at registration; a created runner has not run yet. */
  info?: { name: string | null; version: string | null; revision: string | null; platform: string | null; architecture: string | null };
}

export function addRunner(state: SimulatorState, fields: NewRunner): Runner {
  const { info, ...settings } = fields;
  const runner: Runner = {
    id: state.nextId('runners'),
    ...settings,
    tagList: [...new Set(settings.tagList)],
    name: info?.name ?? null,
    // Registering is not contacting: the runner shows as never_contacted until it asks for jobs.
    connectivity: 'never_contacted',
    contactedAt: null,
    createdAt: new Date().toISOString(),
    ipAddress: '',
    version: info?.version ?? null,
    revision: info?.revision ?? null,
    platform: info?.platform ?? null,
    architecture: info?.architecture ?? null,
    token: newToken('glrt-'),
    tokenExpiresAt: null,
  };
  state.runners.set(runner.id, runner);
  return runner;
}

/**
 * The settings a new runner takes, alike in `POST /runners` (registration) and `POST /user/runners`
 * (creation): both of GitLab's endpoints declare them the same way.
 */
export function newRunnerSettingParams() {
  return {
    description: p.string(),
    maintenance_note: p.string(),
    paused: p.boolean(),
    locked: p.boolean(),
    run_untagged: p.boolean(),
    tag_list: p.stringArray().commaSeparated(),
    access_level: p.string().values(['not_protected', 'ref_protected']),
    maximum_timeout: p.integer(),
  };
}
