// A project's pipelines as lib/api/ci/pipelines.rb presents them: Entities::Ci::PipelineBasic in
// lists, Entities::Ci::Pipeline for one pipeline (and a merge request's `head_pipeline`). The demo
// data holds pipelines in two places: the runners' jobs carry theirs (`id`, `sha`, `ref`, `status`),
// and the repositories' commits have pipelines of their own with commit statuses for jobs. Both are
// a project's pipelines here. A job pipeline is created with its first job and updated with its
// last; its timing, user and coverage come from its jobs (or statuses) as Ci::Pipeline derives them.
import type { CommitPipeline, CommitStatus } from '../data/commits.js';
import { projectAccessLevel } from '../data/access.js';
import { AccessLevel, type Job, type Project, type User } from '../data/model.js';
import type { SimulatorState } from '../data/state.js';
import { pipelineStatus } from './commits.js';
import type { PresentContext } from './context.js';
import { extend } from './extend.js';
import { userSummary } from './users.js';

/** Gitlab::Git::SHA1_BLANK_SHA: the `before_sha` of a pipeline that no push preceded. */
const BLANK_SHA = '0'.repeat(40);

/** Ci::HasStatus::COMPLETED_STATUSES: a pipeline in one of these has finished. */
export const COMPLETED_STATUSES: ReadonlySet<string> = new Set(['success', 'failed', 'canceled', 'skipped']);

/** `read_pipeline`: public pipelines of a public or internal project, or Reporter and above. */
export function mayReadPipelines(state: SimulatorState, user: User | null, project: Project): boolean {
  if (user?.isAdmin) return true;
  if (project.publicJobs && project.visibility !== 'private') return true;
  return projectAccessLevel(state, user, project) >= AccessLevel.REPORTER;
}

export interface PipelineRow {
  id: number;
  iid: number;
  projectId: number;
  sha: string;
  ref: string;
  status: string;
  /** Whether the pipeline ran for a tag. */
  tag: boolean;
  /** Ci::Pipeline.sources key (`push`, `external`, ...). */
  source: string;
  userId: number | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Seconds some job ran, overlaps counted once (Gitlab::Ci::Pipeline::Duration); null until finished. */
  duration: number | null;
  /** Seconds from creation to start (Ci::Pipeline#queued_duration). */
  queuedDuration: number | null;
  /** Average coverage of the jobs that report one (Ci::Pipeline#coverage). */
  coverage: number | null;
}

/** When a job or status ran, as far as it did. */
interface Run {
  startedAt: string | null;
  finishedAt: string | null;
  coverage: number | null;
}

const seconds = (iso: string) => Date.parse(iso) / 1000;

/** The union of the finished runs' intervals, in whole seconds. */
function runningSeconds(runs: readonly Run[]): number {
  const intervals = runs
    .filter((run) => run.startedAt !== null && run.finishedAt !== null)
    .map((run) => [seconds(run.startedAt!), seconds(run.finishedAt!)] as const)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let reach = -Infinity;
  for (const [start, end] of intervals) {
    if (end <= reach) continue;
    total += end - Math.max(start, reach);
    reach = end;
  }
  return Math.round(total);
}

/** Timing and coverage of a pipeline from its runs, as Ci::Pipeline keeps them. */
function timing(runs: readonly Run[], status: string, createdAt: string): Pick<PipelineRow, 'startedAt' | 'finishedAt' | 'duration' | 'queuedDuration' | 'coverage'> {
  const starts = runs.map((run) => run.startedAt).filter((at): at is string => at !== null).sort();
  const finishes = runs.map((run) => run.finishedAt).filter((at): at is string => at !== null).sort();
  const startedAt = starts[0] ?? null;
  const complete = COMPLETED_STATUSES.has(status);
  const coverages = runs.map((run) => run.coverage).filter((coverage): coverage is number => coverage !== null);
  const queued = startedAt === null ? null : Math.round(seconds(startedAt) - seconds(createdAt));
  return {
    startedAt,
    finishedAt: complete ? (finishes[finishes.length - 1] ?? null) : null,
    duration: complete ? runningSeconds(runs) : null,
    // Ci::Pipeline#queued_duration is nil when the pipeline started as it was created.
    queuedDuration: queued === null || queued <= 0 ? null : queued,
    coverage: coverages.length === 0 ? null : Math.round((coverages.reduce((sum, coverage) => sum + coverage, 0) / coverages.length) * 100) / 100,
  };
}

function latest(job: Job): string {
  return job.finishedAt ?? job.startedAt ?? job.createdAt;
}

/** The runners' jobs of a project, by the pipeline each carries. */
function jobsByPipeline(state: SimulatorState, project: Project): Map<number, Job[]> {
  const jobsOf = new Map<number, Job[]>();
  for (const job of state.jobs.values()) {
    if (job.projectId !== project.id) continue;
    const jobs = jobsOf.get(job.pipeline.id);
    if (jobs) jobs.push(job);
    else jobsOf.set(job.pipeline.id, [job]);
  }
  return jobsOf;
}

/** The pipeline some of the runners' jobs carry, from those jobs, without its `iid`. */
function jobPipelineRow(project: Project, jobs: readonly Job[]): PipelineRow {
  const first = jobs.reduce((a, b) => (b.createdAt < a.createdAt ? b : a));
  const { id, sha, ref, status } = first.pipeline;
  const createdAt = first.createdAt;
  const updatedAt = jobs.map(latest).reduce((a, b) => (b > a ? b : a));
  return { id, iid: 0, projectId: project.id, sha, ref, status, tag: first.tag, source: 'push', userId: first.userId, createdAt, updatedAt, ...timing(jobs, status, createdAt) };
}

/** The highest `iid` of the project's repository pipelines; the jobs' pipelines are numbered after it. */
function lastCommitPipelineIid(state: SimulatorState, project: Project): number {
  let last = 0;
  for (const pipeline of state.commitPipelines.values()) if (pipeline.projectId === project.id) last = Math.max(last, pipeline.iid);
  return last;
}

/** A repository commit's pipeline, its status and timing from its latest commit statuses. */
function commitPipelineRow(state: SimulatorState, pipeline: CommitPipeline): PipelineRow {
  const statuses: CommitStatus[] = [...state.commitStatuses.values()].filter((status) => status.pipelineId === pipeline.id && !status.retried);
  const status = pipelineStatus(statuses);
  const { id, iid, projectId, sha, ref, tag, source, userId, createdAt, updatedAt } = pipeline;
  return { id, iid, projectId, sha, ref, status, tag, source, userId, createdAt, updatedAt, ...timing(statuses, status, createdAt) };
}

/**
 * The project's pipelines, by ascending id. The commits' pipelines keep their numbers; the jobs'
 * pipelines are numbered after them, in the order they were created.
 */
export function pipelinesOfProject(state: SimulatorState, project: Project): PipelineRow[] {
  const ofCommits = [...state.commitPipelines.values()].filter((pipeline) => pipeline.projectId === project.id).map((pipeline) => commitPipelineRow(state, pipeline));
  const lastIid = lastCommitPipelineIid(state, project);
  const ofJobs = [...jobsByPipeline(state, project).values()].map((jobs) => jobPipelineRow(project, jobs)).sort((a, b) => a.id - b.id);
  ofJobs.forEach((row, index) => (row.iid = lastIid + index + 1));
  return [...ofCommits, ...ofJobs].sort((a, b) => a.id - b.id);
}

/**
 * The pipeline a job ran in, as pipelinesOfProject lists it (a job record's `pipeline`), worked out
 * for that one pipeline: a page of jobs presents one each, and the whole list cost a millisecond.
 */
export function pipelineOfJob(state: SimulatorState, job: Job): PipelineRow | undefined {
  const project = state.projects.get(job.projectId);
  const byPipeline = project && jobsByPipeline(state, project);
  const jobs = byPipeline?.get(job.pipeline.id);
  if (!project || !byPipeline || !jobs) return undefined;
  const row = jobPipelineRow(project, jobs);
  const earlier = [...byPipeline.keys()].filter((id) => id < row.id).length;
  return { ...row, iid: lastCommitPipelineIid(state, project) + earlier + 1 };
}

/**
 * MergeRequest#diff_head_pipeline: the newest pipeline of the source branch for the merge
 * request's head commit, if any.
 */
export function headPipelineOf(state: SimulatorState, project: Project, sourceBranch: string, sha: string): PipelineRow | undefined {
  return pipelinesOfProject(state, project)
    .filter((row) => row.ref === sourceBranch && row.sha === sha)
    .reduce<PipelineRow | undefined>((newest, row) => (!newest || row.id > newest.id ? row : newest), undefined);
}

/** Entities::Ci::PipelineBasic: a pipeline as lists show it. */
export function pipelineEntity(ctx: PresentContext, row: PipelineRow) {
  const project = ctx.state.projects.get(row.projectId);
  return {
    id: row.id,
    iid: row.iid,
    project_id: row.projectId,
    sha: row.sha,
    ref: row.ref,
    status: row.status,
    source: row.source,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    web_url: project ? `${ctx.origin}/${ctx.state.projectFullPath(project)}/-/pipelines/${row.id}` : null,
  };
}

/** Entities::Ci::Pipeline: one pipeline, as `GET .../pipelines/:pipeline_id` and a merge request's `head_pipeline` show it. */
export function pipelineDetailEntity(ctx: PresentContext, row: PipelineRow) {
  const user = row.userId === null ? undefined : ctx.state.users.get(row.userId);
  const basic = pipelineEntity(ctx, row);
  return extend(basic, {
    before_sha: BLANK_SHA,
    tag: row.tag,
    yaml_errors: null,
    user: user ? userSummary(ctx, user) : null,
    started_at: row.startedAt,
    finished_at: row.finishedAt,
    committed_at: null,
    duration: row.duration,
    queued_duration: row.queuedDuration,
    // Ci::PipelinePresenter#coverage: two decimals, as a string.
    coverage: row.coverage === null ? null : row.coverage.toFixed(2),
    detailed_status: detailedStatusOf(row.status, basic.web_url === null ? null : new URL(basic.web_url).pathname),
  });
}

/** What one `Gitlab::Ci::Status::<Status>` core class answers. */
interface CoreStatus {
  text: string;
  label: string;
  icon: string;
  favicon: string;
  group: string;
}

/**
 * The core statuses of GitLab 16.2, by status value: lower-case texts (GitLab capitalised them
 * later, in gitlab-org/gitlab!130269), as the REST documentation's bodies show ("text": "passed").
 * The gateway keeps its own table; a test holds the two equal.
 */
const CORE_STATUSES: Readonly<Record<string, CoreStatus>> = {
  created: { text: 'created', label: 'created', icon: 'status_created', favicon: 'favicon_status_created', group: 'created' },
  waiting_for_resource: { text: 'waiting', label: 'waiting for resource', icon: 'status_pending', favicon: 'favicon_status_pending', group: 'waiting-for-resource' },
  preparing: { text: 'preparing', label: 'preparing', icon: 'status_preparing', favicon: 'favicon_status_preparing', group: 'preparing' },
  pending: { text: 'pending', label: 'pending', icon: 'status_pending', favicon: 'favicon_status_pending', group: 'pending' },
  running: { text: 'running', label: 'running', icon: 'status_running', favicon: 'favicon_status_running', group: 'running' },
  success: { text: 'passed', label: 'passed', icon: 'status_success', favicon: 'favicon_status_success', group: 'success' },
  failed: { text: 'failed', label: 'failed', icon: 'status_failed', favicon: 'favicon_status_failed', group: 'failed' },
  // Newer than 16.2; GitLab's later class, in 16.2's lower case.
  canceling: { text: 'canceling', label: 'canceling', icon: 'status_canceled', favicon: 'favicon_status_canceled', group: 'canceling' },
  canceled: { text: 'canceled', label: 'canceled', icon: 'status_canceled', favicon: 'favicon_status_canceled', group: 'canceled' },
  skipped: { text: 'skipped', label: 'skipped', icon: 'status_skipped', favicon: 'favicon_status_skipped', group: 'skipped' },
  manual: { text: 'manual', label: 'manual action', icon: 'status_manual', favicon: 'favicon_status_manual', group: 'manual' },
  scheduled: { text: 'delayed', label: 'delayed', icon: 'status_scheduled', favicon: 'favicon_status_scheduled', group: 'scheduled' },
};

/**
 * Gitlab::Ci::Status::Pipeline::Blocked and ::Delayed: a manual or scheduled pipeline's own text
 * and label. They delegate the rest to the core status, so the tooltip stays the core label.
 */
const PIPELINE_EXTENDED: Readonly<Record<string, Pick<CoreStatus, 'text' | 'label'>>> = {
  manual: { text: 'blocked', label: 'waiting for manual action' },
  scheduled: { text: 'delayed', label: 'waiting for delayed job' },
};

/** DetailedStatusEntity of Gitlab::Ci::Status::Pipeline::Factory's status for a pipeline's status. */
function detailedStatusOf(status: string, path: string | null) {
  const core = CORE_STATUSES[status] ?? { text: status, label: status, icon: `status_${status}`, favicon: `favicon_status_${status}`, group: status };
  const { text, label } = PIPELINE_EXTENDED[status] ?? core;
  return {
    icon: core.icon,
    text,
    label,
    group: core.group,
    tooltip: core.label,
    has_details: path !== null,
    details_path: path,
    illustration: null,
    favicon: `/assets/ci_favicons/${core.favicon}.png`,
  };
}
