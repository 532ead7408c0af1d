// What GitLab derives from a job's status and times, as its models do: the status groups of
// Ci::HasStatus (app/models/concerns/ci/has_status.rb), Ci::Build#cancelable? and #scheduled?
// (app/models/ci/build.rb), Ci::Processable#retryable?, and the queue time behind
// Ci::Build#queued_duration.
//
// A job's groups are not a pipeline's: `canceling` is in none of HasStatus's groups, so a canceling
// job is neither active nor cancelable (Ci::Build#cancelable? says `&& !canceling?` besides).

/**
 * Ci::HasStatus::ACTIVE_STATUSES. `waiting_for_callback` is a newer GitLab's status that REST may
 * send although CiJobStatus lacks it; GitLab counts it active.
 */
const ACTIVE_JOB_STATUSES: ReadonlySet<string> = new Set(['waiting_for_resource', 'preparing', 'waiting_for_callback', 'pending', 'running']);

/** Ci::Build#active?: the job waits for a resource, prepares, is queued or runs. */
export function jobIsActive(status: string): boolean {
  return ACTIVE_JOB_STATUSES.has(status);
}

/** Ci::Build#cancelable?: `(active? || created?) && !canceling?`. */
export function jobIsCancelable(status: string): boolean {
  return (jobIsActive(status) || status === 'created') && status !== 'canceling';
}

/** Ci::Build#scheduled?: a delayed job waiting for its time. */
export function jobIsScheduled(status: string): boolean {
  return status === 'scheduled';
}

/** The statuses a job may be retried from (Ci::Processable#retryable?): it completed, or is being canceled. */
const RETRYABLE_JOB_STATUSES: ReadonlySet<string> = new Set(['success', 'failed', 'canceled', 'canceling']);

/** Whether the job's status lets it be retried at all; the rest of `retryable?` needs the job's record. */
export function jobStatusMayRetry(status: string): boolean {
  return RETRYABLE_JOB_STATUSES.has(status);
}

/** What Ci::Processable#retryable? decides from, as REST's job record and pipeline job list give it. */
export interface JobRetryFacts {
  status: string;
  failure_reason?: string;
  /** REST's `archived` (Ci::Build#archived?). */
  archived?: boolean;
  /** Whether a newer try of the job superseded it: REST lists it in its pipeline only with `include_retried`. */
  retried: boolean;
}

/**
 * Ci::Processable#retryable?: `false if retried? || archived? || deployment_rejected?`, then
 * `success? || failed? || canceled? || canceling?`. A deployment rejected is a failure for the
 * reason `deployment_rejected`.
 */
export function jobIsRetryable(job: JobRetryFacts): boolean {
  if (job.retried || job.archived === true || job.failure_reason === 'deployment_rejected') return false;
  return jobStatusMayRetry(job.status);
}

/** The job times `queuedAt` is derived from, as REST's job records give them. */
export interface JobQueueTimes {
  started_at?: string | null;
  queued_duration?: number | null;
}

/**
 * GitLab's `queued_at`, which REST does not send, from what it does: `queued_duration` is
 * `(started_at || Time.current) - queued_at` (HasStatus#calculate_duration), so the job was queued
 * that long before its start, or, not yet started, that long before REST answered, which `now`
 * stands for (the gateway asks within the request). Null without a queued duration: the job was
 * never queued.
 */
export function jobQueuedAt(job: JobQueueTimes, now: Date): string | null {
  const waited = job.queued_duration;
  if (typeof waited !== 'number' || !Number.isFinite(waited)) return null;
  const end = job.started_at ? Date.parse(job.started_at) : now.getTime();
  if (Number.isNaN(end)) return null;
  return new Date(Math.round(end - waited * 1000)).toISOString();
}
