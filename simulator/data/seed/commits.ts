// Demo pipelines, commit statuses and commit comments on the seeded repositories: the newest
// main-line commits of every project and the heads of open merge-request branches have CI
// pipelines (one still running, one failed, one with a retried job), some commits an external
// status, and a few commits comments on diff lines (with a reply) and on the commit as a whole.
import { commitDiff, lineCode } from '../../repository/commit-diff.js';
import type { GitCommit, Repository } from '../../repository/repository.js';
import type { CommitStatus, CommitStatusState } from '../commits.js';
import type { Project } from '../model.js';
import type { Rng } from '../rng.js';
import type { SimulatorState } from '../state.js';
import { USER_IDS } from './users.js';

/**
 * Pipeline ids start here, clear of the runner jobs' pipelines (10,001 and up) and of the artifact
 * demo's (20,001 and up): GET /projects/:id/pipelines lists them all, and an id names one pipeline.
 */
export const FIRST_COMMIT_PIPELINE_ID = 30_001;
/** Status ids start here, clear of the runner jobs (the same id space as CI jobs in GitLab). */
export const FIRST_COMMIT_STATUS_ID = 5_001;
export const FIRST_COMMIT_NOTE_ID = 3_001;

/** Projects whose commits carry demo comments. */
const COMMENTED_PROJECTS = [1, 2, 6, 23];

type JobPlan = [stage: string, name: string, status: CommitStatusState];

/** The pipelines of the newest main-line commits, newest first. */
const MAIN_PIPELINES: JobPlan[][] = [
  [['build', 'compile', 'success'], ['test', 'rspec', 'running'], ['test', 'jest', 'pending'], ['lint', 'eslint', 'created']],
  [['build', 'compile', 'success'], ['test', 'rspec', 'failed'], ['test', 'jest', 'success'], ['lint', 'eslint', 'success']],
  [['build', 'compile', 'success'], ['test', 'rspec', 'success'], ['test', 'jest', 'success'], ['lint', 'eslint', 'success']],
  [['build', 'compile', 'success'], ['test', 'rspec', 'success'], ['lint', 'eslint', 'canceled']],
];

function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

function userIdOf(state: SimulatorState, commit: GitCommit): number {
  for (const user of state.users.values()) if (user.email === commit.author.email) return user.id;
  return USER_IDS.root;
}

class Ids {
  constructor(private next: number) {}
  take(): number {
    return this.next++;
  }
}

function addPipeline(state: SimulatorState, rng: Rng, ids: { pipelines: Ids; statuses: Ids }, project: Project, commit: GitCommit, ref: string, jobs: JobPlan[], iid: number): void {
  const start = commit.committer.time + 60 * rng.int(1, 10);
  const userId = userIdOf(state, commit);
  const pipelineId = ids.pipelines.take();
  state.commitPipelines.set(pipelineId, {
    id: pipelineId,
    iid,
    projectId: project.id,
    sha: commit.sha,
    ref,
    tag: false,
    source: 'push',
    userId,
    createdAt: iso(start),
    updatedAt: iso(start + 900),
  });
  jobs.forEach(([stage, name, status], index) => {
    const created = start + index;
    const started = status === 'created' || status === 'pending' ? null : created + 30;
    const finished = started === null || status === 'running' ? null : started + rng.int(40, 600);
    const record = (id: number, state: CommitStatusState, retried: boolean): CommitStatus => ({
      id,
      projectId: project.id,
      pipelineId,
      sha: commit.sha,
      ref,
      name,
      stage,
      status: state,
      targetUrl: `https://ci.example.com/${project.path}/jobs/${id}`,
      description: null,
      coverage: stage === 'test' && state === 'success' ? Math.round((70 + rng.next() * 29) * 100) / 100 : null,
      allowFailure: stage === 'lint',
      createdAt: iso(created),
      startedAt: started === null ? null : iso(started),
      finishedAt: finished === null ? null : iso(finished),
      authorId: userId,
      retried,
      external: false,
    });
    // A flaky rspec that passed on retry: the failed try stays, retried, behind `all=true`.
    if (name === 'rspec' && status === 'success' && iid % 3 === 0) {
      const retriedId = ids.statuses.take();
      state.commitStatuses.set(retriedId, record(retriedId, 'failed', true));
    }
    const id = ids.statuses.take();
    state.commitStatuses.set(id, record(id, status, false));
  });
}

function seedProjectStatuses(state: SimulatorState, rng: Rng, ids: { pipelines: Ids; statuses: Ids }, project: Project, repository: Repository): void {
  const head = repository.branchHead(repository.defaultBranch);
  if (!head) return;
  let iid = 0;
  const mainLine = [...repository.ancestors([head.sha], true)].slice(0, MAIN_PIPELINES.length).reverse();
  mainLine.forEach((sha, index) => {
    const plan = MAIN_PIPELINES[mainLine.length - 1 - index]!;
    addPipeline(state, rng, ids, project, repository.commits.get(sha)!, repository.defaultBranch, plan, ++iid);
  });
  for (const mr of state.mergeRequests.values()) {
    if (mr.projectId !== project.id || mr.state !== 'opened') continue;
    const commit = repository.commits.get(mr.sha);
    if (!commit) continue;
    addPipeline(state, rng, ids, project, commit, mr.sourceBranch, [['build', 'compile', 'success'], ['test', 'rspec', rng.chance(0.7) ? 'success' : 'failed']], ++iid);
  }
  // An external status (a coverage service) on the second newest main-line commit.
  const reported = mainLine[mainLine.length - 2];
  const pipeline = [...state.commitPipelines.values()].find((candidate) => candidate.projectId === project.id && candidate.sha === reported);
  if (reported && pipeline) {
    const commit = repository.commits.get(reported)!;
    const id = ids.statuses.take();
    const at = iso(commit.committer.time + 1200);
    state.commitStatuses.set(id, {
      id,
      projectId: project.id,
      pipelineId: pipeline.id,
      sha: reported,
      ref: repository.defaultBranch,
      name: 'ci/coverage',
      stage: 'external',
      status: 'success',
      targetUrl: `https://coverage.example.com/${project.path}`,
      description: 'Coverage report',
      coverage: 87.5,
      allowFailure: false,
      createdAt: at,
      startedAt: at,
      finishedAt: at,
      authorId: USER_IDS.maintainer,
      retried: false,
      external: true,
    });
  }
}

function seedProjectNotes(state: SimulatorState, ids: Ids, project: Project, repository: Repository): void {
  const head = repository.branchHead(repository.defaultBranch);
  const commit = head?.parents[0] === undefined ? undefined : repository.commits.get(head.parents[0]);
  if (!head || !commit) return;
  const base = commit.committer.time + 3600;
  const note = (sha: string, authorId: number, text: string, offset: number, placement?: { path: string; line: number; lineType: 'new' | 'old'; lineCode: string }) => {
    const id = ids.take();
    state.commitNotes.set(id, {
      id,
      projectId: project.id,
      sha,
      authorId,
      note: text,
      createdAt: iso(base + offset),
      path: placement?.path ?? null,
      line: placement?.line ?? null,
      lineType: placement?.lineType ?? null,
      lineCode: placement?.lineCode ?? null,
    });
  };
  const added = commitDiff(repository, commit)
    .flatMap(({ change, diff }) => diff.lines.filter((line) => line.type === 'new').map((line) => ({ path: change.newPath, line })))
    .find(() => true);
  if (added) {
    const placement = { path: added.path, line: added.line.newLine, lineType: 'new' as const, lineCode: lineCode(added.path, added.line) };
    note(commit.sha, USER_IDS.developer, 'Should this line handle an empty input?', 0, placement);
    note(commit.sha, USER_IDS.maintainer, 'Good catch: it returns the label alone.', 600, placement);
  }
  note(commit.sha, USER_IDS.maintainer, 'Nice piece of code!', 1200);
  note(head.sha, USER_IDS.developer, 'Pipeline is running on this one.', 1800);
}

export function seedCommitActivity(state: SimulatorState, rng: Rng): void {
  const ids = { pipelines: new Ids(FIRST_COMMIT_PIPELINE_ID), statuses: new Ids(FIRST_COMMIT_STATUS_ID) };
  const notes = new Ids(FIRST_COMMIT_NOTE_ID);
  for (const project of state.projects.values()) {
    const repository = state.repositories.get(project.id);
    if (!repository) continue;
    seedProjectStatuses(state, rng, ids, project, repository);
    if (COMMENTED_PROJECTS.includes(project.id)) seedProjectNotes(state, notes, project, repository);
  }
}
