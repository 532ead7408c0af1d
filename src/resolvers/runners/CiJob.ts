import type { CiJobResolvers, CiRunnerManagerResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { embedded } from '../../cost/field-cost.js';
import { ID_ONLY, PIPELINE_OF_JOB, RUNNER_SUMMARY, USER_SUMMARY } from '../../cost/shapes.js';
import type { JobSchema } from '../../datasources/artifacts.js';
import { declared } from '../../fields/declaration.js';
import type { GatewayContext } from '../../server/context.js';
import { projectIdOfJob } from '../artifacts/artifact-files.js';
import { toGlobalId } from '../global-id.js';
import { jobDetailedStatus } from './detailed-status.js';
import { wholeSeconds } from './duration.js';
import { jobFailureMessage } from './failure-message.js';
import { jobIsActive, jobIsCancelable, jobIsRetryable, jobIsScheduled, jobQueuedAt, jobStatusMayRetry } from './job-status.js';
import { browseArtifactsPath, commitPath, jobPath, pipelinePath, refPath, shaOfJob, type JobRecord } from './job-paths.js';
import { recordField } from '../../fields/patterns.js';
import { withFields } from '../../datasources/with-fields.js';

/**
 * The job record that holds `key`: the parent when it carries it (the job record and the keep
 * answer), else the job's full record (`GET /projects/:id/jobs/:job_id`, once per job and request),
 * which runner job lists need. Null when the parent names no project to ask.
 */
/** The job loader's read: the full record runner job lists lack. */
const JOB_RECORD = 'GET /projects/:id/jobs/:job_id';

export function jobRecordWith(job: JobRecord, key: keyof JobSchema, context: GatewayContext): Promise<JobSchema | null> {
  if (key in job) return Promise.resolve(job as JobSchema);
  const project = job.project?.id;
  return project === undefined ? Promise.resolve(null) : context.loaders.job.load({ project, jobId: job.id });
}

/**
 * Ci::Processable#retryable? for a job: from its status alone when no retry could follow it (no
 * call), else from its record's `archived` and failure reason (the job loader for runner job lists,
 * which lack `archived`) and whether its pipeline's latest jobs still list it (REST leaves retried
 * jobs out unless `include_retried`), read once per pipeline and request.
 */
async function jobRetryable(job: JobRecord, context: GatewayContext): Promise<boolean> {
  if (!jobStatusMayRetry(job.status)) return false;
  const record = await jobRecordWith(job, 'archived', context);
  const project = job.project?.id ?? job.pipeline?.project_id;
  if (record === null || !job.pipeline || project === undefined) return false;
  // Archived or rejected, the job is not retryable whether or not it was retried: no list to read.
  if (!jobIsRetryable(withFields(record, { status: job.status, retried: false }))) return false;
  const latest = await context.loaders.latestPipelineJobIds.load({ project, pipelineId: job.pipeline.id });
  // A retried job is one its pipeline's latest jobs no longer list.
  return latest.has(job.id);
}

/**
 * Ci::BuildPresenter#failure_message: null, with no call, unless the job failed; then the message
 * for REST's `failure_reason`, which REST sends only for a failed job and runner job lists lack
 * (their failed jobs read their record through the job loader, once per job and request).
 */
async function jobFailureMessageOf(job: JobRecord, context: GatewayContext): Promise<string | null> {
  if (job.status !== 'failed') return null;
  const record = await jobRecordWith(job, 'failure_reason', context);
  return jobFailureMessage({ status: job.status, failure_reason: record?.failure_reason });
}

// Every other field of a job, its user, commit and project comes straight from the REST record.
export const CiJob: CiJobResolvers = {
  user: recordField(embedded(USER_SUMMARY)),
  runner: recordField(embedded(RUNNER_SUMMARY)),
  id: (job) => toGlobalId('Ci::Build', job.id),
  refName: (job) => job.ref ?? null,
  createdByTag: (job) => job.tag === true,
  // Ci::Build#short_sha: Gitlab::Git::Commit.truncate_sha, the first 8 characters.
  shortSha: (job) => (shaOfJob(job) ?? '').slice(0, 8),
  duration: (job) => wholeSeconds(job.duration),
  queuedDuration: (job) => job.queued_duration ?? null,
  queuedAt: (job) => jobQueuedAt(job, new Date()),
  // The same job record's `erased_at`, which runner job lists lack too.
  erasedAt: declared({ reads: ['erased_at'], loader: 'job', rest: [JOB_RECORD] }, async (job, _args, context) =>
    (await jobRecordWith(job, 'erased_at', context))?.erased_at ?? null,
  ),
  active: (job) => jobIsActive(job.status),
  cancelable: (job) => jobIsCancelable(job.status),
  scheduled: (job) => jobIsScheduled(job.status),
  // For a completed job: its record's `archived` (the job loader for runner job lists) and its
  // pipeline's latest jobs, every page of GET .../pipelines/:pipeline_id/jobs (one for up to 100
  // jobs), once per pipeline and request through the latestPipelineJobIds loader.
  retryable: declared({ calls: 1, reads: ['archived'], loader: 'job', rest: [JOB_RECORD, 'GET /projects/:id/pipelines/:pipeline_id/jobs'] }, (job, _args, context) =>
    jobRetryable(job, context),
  ),
  // A failed job's `failure_reason`, which runner job lists lack: the same job record.
  failureMessage: declared({ reads: ['failure_reason'], loader: 'job', rest: [JOB_RECORD] }, (job, _args, context) => jobFailureMessageOf(job, context)),
  detailedStatus: (job) => {
    const record: Partial<JobSchema> = job;
    return jobDetailedStatus({ id: job.id, status: job.status, allowFailure: record.allow_failure, failureReason: record.failure_reason }, jobPath(job));
  },
  webPath: (job) => jobPath(job),
  commitPath: (job) => commitPath(job),
  refPath: (job) => refPath(job),
  browseArtifactsPath: (job) => browseArtifactsPath(job),
  // GET /projects/:id/jobs/:job_id through the job loader, which runner job lists need.
  tags: declared({ reads: ['tag_list'], loader: 'job', rest: [JOB_RECORD] }, async (job, _args, context) =>
    (await jobRecordWith(job, 'tag_list', context))?.tag_list ?? null,
  ),
  // The job's project is the pipeline's: its other fields are read from it (full-records.ts).
  pipeline: declared(embedded(PIPELINE_OF_JOB), (job) =>
    job.pipeline ? { project_id: job.project?.id, ...job.pipeline, path: pipelinePath(job, job.pipeline.id) } : null,
  ),
  // A runner job list's `project` is the project's identity; a project's job record's (GitLab 16+,
  // Entities::Ci::JobBasic) holds only `ci_job_token_scope_enabled`, so the project is then the one
  // its pipeline names, its fields read from its record (full-records.ts). The estimate cannot tell
  // the lists apart here, so it takes the ID-only form, the upper bound: identity fields of a
  // runner's jobs are counted as reads.
  project: declared(embedded(ID_ONLY), (job) => {
    if (job.project?.id !== undefined) return job.project;
    const id = projectIdOfJob(job);
    return id === null ? null : { id };
  }),
};

export const CiRunnerManager: CiRunnerManagerResolvers = {
  id: (manager) => toGlobalId('Ci::RunnerManager', manager.id),
  platformName: (manager) => manager.platform ?? null,
  architectureName: (manager) => manager.architecture ?? null,
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { CiJob, CiRunnerManager };
