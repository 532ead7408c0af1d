import type { Runner, RunnerConnectivity, RunnerType } from '../model.js';
import { minutesBefore, type Rng } from '../rng.js';
import type { SimulatorState } from '../state.js';

/** Instance-wide registration token (Admin Area). */
export const INSTANCE_REGISTRATION_TOKEN = 'GR1348941-demo-instance';

/** Id ranges of the seeded runners by type. */
export const RUNNER_IDS = {
  instance: { first: 1, last: 15 },
  group: { first: 16, last: 35 },
  project: { first: 36, last: 70 },
} as const;

/**
 * Status by position within its type (index % 10), so every type has every status:
 * 0 online, 1 online, 2 offline, 3 online+paused, 4 stale, 5 never_contacted, 6 online,
 * 7 offline+paused, 8 not_connected, 9 online.
 */
const STATUS_PATTERN: [RunnerConnectivity, boolean][] = [
  ['online', true],
  ['online', true],
  ['offline', true],
  ['online', false],
  ['stale', true],
  ['never_contacted', true],
  ['online', true],
  ['offline', false],
  ['not_connected', true],
  ['online', true],
];

/** Owner group of each group runner (ids 16..35 in order). */
const GROUP_RUNNER_GROUPS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1, 2, 4, 6, 8, 9, 1, 11];

/** Projects of each project runner (ids 36..70 in order); several are enabled in 2-3 projects. */
const PROJECT_RUNNER_PROJECTS: number[][] = [
  [1], // 36: the busy one (>100 jobs)
  [6, 1], // 37: web-ui + gitlab (the developer user owns it through web-ui)
  [6], // 38: web-ui only
  [2],
  [16, 17, 18], // 40: acme
  [3],
  [5],
  [7],
  [23, 24], // 44: opensource
  [8],
  [9],
  [12],
  [9, 10, 11], // 48: backend
  [13],
  [14],
  [15],
  [26, 27], // 52: opensource/tools
  [16],
  [17],
  [19],
  [20, 21], // 56: acme/platform/infra
  [22],
  [23],
  [25],
  [28],
  [30],
  [31],
  [32],
  [33], // 64: personal project of the maintainer user
  [34], // 65: personal project of alice
  [35],
  [4],
  [10],
  [1, 2, 3], // 69: three gitlab-org projects
  [11],
];

const TAG_POOL = ['docker', 'linux', 'shell', 'kubernetes', 'macos', 'windows', 'gpu', 'arm64', 'ruby', 'node', 'postgres', 'large'];
const VERSIONS: [string, string][] = [
  ['18.0.1', '3ec5ab03'],
  ['17.11.0', '0f67ff19'],
  ['18.1.0', 'a2b3c4d5'],
  ['16.11.1', '535ced5f'],
  ['18.2.0', '91a27b2a'],
];
const PLATFORMS: [string, string][] = [
  ['linux', 'amd64'],
  ['linux', 'arm64'],
  ['darwin', 'arm64'],
  ['windows', 'amd64'],
];

function contactedAt(rng: Rng, now: Date, connectivity: RunnerConnectivity): string | null {
  switch (connectivity) {
    case 'online':
      return minutesBefore(now, rng.int(0, 50));
    case 'offline':
      return minutesBefore(now, rng.int(3 * 60, 5 * 24 * 60));
    case 'stale':
      return minutesBefore(now, rng.int(100 * 24 * 60, 200 * 24 * 60));
    default:
      return null;
  }
}

function buildRunner(state: SimulatorState, rng: Rng, id: number, type: RunnerType, index: number): Runner {
  const [connectivity, active] = STATUS_PATTERN[index % STATUS_PATTERN.length] ?? ['online', true];
  const contacted = contactedAt(rng, state.now, connectivity);
  const neverContacted = contacted === null;
  const [version, revision] = rng.pick(VERSIONS);
  const [platform, architecture] = rng.pick(PLATFORMS);
  const tagCount = index % 6 === 5 ? 0 : rng.int(1, 3);
  const tags = new Set<string>();
  while (tags.size < tagCount) tags.add(rng.pick(TAG_POOL));
  let description: string;
  let groupId: number | null = null;
  let projectIds: number[] = [];
  if (type === 'instance_type') {
    description = `shared-runner-${index + 1}`;
  } else if (type === 'group_type') {
    groupId = GROUP_RUNNER_GROUPS[index] ?? 1;
    const group = state.groups.get(groupId);
    description = `${group ? state.groupFullPath(group).replaceAll('/', '-') : 'group'}-runner-${index + 1}`;
  } else {
    projectIds = [...(PROJECT_RUNNER_PROJECTS[index] ?? [1])];
    const project = state.projects.get(projectIds[0] ?? 1);
    description = `${project?.path ?? 'project'}-runner-${index + 1}`;
  }
  return {
    id,
    runnerType: type,
    groupId,
    projectIds,
    description,
    name: neverContacted ? null : 'gitlab-runner',
    active,
    connectivity,
    contactedAt: contacted,
    createdAt: minutesBefore(state.now, 400 * 24 * 60 - id * 24 * 60),
    ipAddress: '', // rest-conventions §1: ip_address is now always ""
    tagList: [...tags].sort(),
    runUntagged: tags.size === 0 || index % 3 !== 1,
    locked: type === 'project_type' && index % 4 === 2,
    accessLevel: index % 5 === 4 ? 'ref_protected' : 'not_protected',
    maximumTimeout: index % 4 === 0 ? null : [3600, 7200, 10800][index % 3] ?? 3600,
    maintenanceNote: index % 7 === 3 ? `Scheduled for an OS upgrade (${type.replace('_type', '')} runner ${id})` : null,
    version: neverContacted ? null : version,
    revision: neverContacted ? null : revision,
    platform: neverContacted ? null : platform,
    architecture: neverContacted ? null : architecture,
    token: `glrt-${rng.alnum(20)}`,
    tokenExpiresAt: null,
  };
}

export function seedRunners(state: SimulatorState, rng: Rng): void {
  state.instanceRunnersToken = INSTANCE_REGISTRATION_TOKEN;
  const ranges: [RunnerType, { first: number; last: number }][] = [
    ['instance_type', RUNNER_IDS.instance],
    ['group_type', RUNNER_IDS.group],
    ['project_type', RUNNER_IDS.project],
  ];
  for (const [type, range] of ranges) {
    for (let id = range.first; id <= range.last; id++) {
      state.runners.set(id, buildRunner(state, rng, id, type, id - range.first));
    }
  }
}
