import type { Job, JobStatus, Project, Runner } from '../model.js';
import { minutesBefore, type Rng } from '../rng.js';
import type { SimulatorState } from '../state.js';

/** Runners with more than 100 jobs, so that paging their jobs is real. */
export const BUSY_RUNNERS: Record<number, number> = { 1: 230, 16: 150, 36: 120 };

const STAGES: [stage: string, names: string[]][] = [
  ['build', ['compile', 'build-image', 'assets']],
  ['test', ['rspec', 'jest', 'go-test', 'integration']],
  ['lint', ['eslint', 'rubocop', 'golangci-lint']],
  ['deploy', ['deploy-staging', 'deploy-production']],
];
const TITLES = [
  'Fix flaky pipeline on main',
  'Update dependencies',
  'Add pagination to the runners list',
  'Refactor the job scheduler',
  'Bump version to 18.1',
  'Merge branch into main',
  'Improve error messages',
  'Remove dead code',
];
const COMMITTERS = [1, 2, 3, 4, 6, 7, 8, 9, 10, 11];

/** Projects a runner can pick jobs from. */
function candidateProjects(state: SimulatorState, runner: Runner): Project[] {
  const jobsOn = (p: Project | undefined): p is Project => p !== undefined && p.jobsEnabled;
  if (runner.runnerType === 'project_type') return runner.projectIds.map((id) => state.projects.get(id)).filter(jobsOn);
  if (runner.runnerType === 'group_type') {
    const group = runner.groupId === null ? undefined : state.groups.get(runner.groupId);
    if (!group) return [];
    const ids = new Set(state.groupSubtree(group).map((g) => g.id));
    return [...state.projects.values()].filter((p) => p.namespace.kind === 'group' && ids.has(p.namespace.groupId) && jobsOn(p));
  }
  return [...state.projects.values()].filter((p) => p.sharedRunnersEnabled && jobsOn(p));
}

function jobCount(rng: Rng, runner: Runner): number {
  const busy = BUSY_RUNNERS[runner.id];
  if (busy !== undefined) return busy;
  if (runner.contactedAt === null) return 0; // never contacted: never ran anything
  if (runner.id % 4 === 3) return 0; // some contacted runners have no jobs either
  return rng.int(1, 12);
}

interface Draft {
  runner: Runner;
  project: Project;
  createdMinutesAgo: number;
  running: boolean;
}

export function seedJobs(state: SimulatorState, rng: Rng): void {
  const drafts: Draft[] = [];
  for (const runner of state.runners.values()) {
    const projects = candidateProjects(state, runner);
    if (projects.length === 0) continue;
    const count = jobCount(rng, runner);
    const lastContactMinutes = runner.contactedAt ? (state.now.getTime() - Date.parse(runner.contactedAt)) / 60_000 : 0;
    for (let i = 0; i < count; i++) {
      drafts.push({ runner, project: rng.pick(projects), createdMinutesAgo: lastContactMinutes + 35 + rng.int(0, 90 * 24 * 60), running: false });
    }
  }
  // The newest job of an active online runner is still running.
  const newest = new Map<number, Draft>();
  for (const draft of drafts) {
    const current = newest.get(draft.runner.id);
    if (!current || draft.createdMinutesAgo < current.createdMinutesAgo) newest.set(draft.runner.id, draft);
  }
  for (const draft of newest.values()) {
    if (draft.runner.connectivity === 'online' && draft.runner.active) {
      draft.running = true;
      draft.createdMinutesAgo = rng.int(2, 20);
    }
  }
  // Ids grow with creation time, across runners, like real job ids.
  drafts.sort((a, b) => b.createdMinutesAgo - a.createdMinutesAgo);

  let id = 1;
  for (const draft of drafts) {
    const { runner, project, running } = draft;
    const status: JobStatus = running ? 'running' : rng.chance(0.72) ? 'success' : rng.chance(0.65) ? 'failed' : 'canceled';
    const [stage, names] = rng.pick(STAGES);
    const user = state.users.get(rng.pick(COMMITTERS));
    const sha = rng.hex(40);
    const queued = Math.round(rng.next() * 3000) / 100;
    const duration = running ? Math.round(draft.createdMinutesAgo * 60 - queued) : rng.int(20, 1800) + Math.round(rng.next() * 1000) / 1000;
    const createdAt = minutesBefore(state.now, draft.createdMinutesAgo);
    const startedAt = new Date(Date.parse(createdAt) + queued * 1000).toISOString();
    const isTag = rng.chance(0.08);
    const ref = isTag ? `v18.${rng.int(0, 3)}.${rng.int(0, 9)}` : rng.chance(0.7) ? project.defaultBranch : `feature/${rng.pick(['runners', 'boards', 'search', 'billing'])}-${rng.int(1, 99)}`;
    const title = rng.pick(TITLES);
    const authorName = user?.name ?? 'Unknown';
    const authorEmail = user?.email ?? 'unknown@example.com';
    const committed = minutesBefore(state.now, draft.createdMinutesAgo + 1);
    const job: Job = {
      id,
      runnerId: runner.id,
      projectId: project.id,
      userId: user?.id ?? 1,
      status,
      stage,
      name: rng.pick(names),
      ref,
      tag: isTag,
      coverage: stage === 'test' && status === 'success' ? Math.round((60 + rng.next() * 39) * 100) / 100 : null,
      createdAt,
      startedAt,
      finishedAt: running ? null : new Date(Date.parse(startedAt) + duration * 1000).toISOString(),
      duration,
      queuedDuration: queued,
      commit: {
        id: sha,
        shortId: sha.slice(0, 8),
        title,
        message: `${title}\n\nSee merge request !${rng.int(1, 4000)}`,
        createdAt: committed,
        parentIds: [rng.hex(40)],
        authorName,
        authorEmail,
        authoredDate: committed,
        committerName: authorName,
        committerEmail: authorEmail,
        committedDate: committed,
      },
      pipeline: { id: 10_000 + id, sha, ref, status },
    };
    state.jobs.set(id, job);
    id++;
  }
}
