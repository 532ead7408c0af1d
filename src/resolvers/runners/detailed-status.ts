// GitLab's `DetailedStatus` of a job or a pipeline, computed as its `Gitlab::Ci::Status` classes do
// (lib/gitlab/ci/status/*.rb): a core status per status value (text, label, icon, group), then
// what the job and pipeline factories change.
//
// The texts are GitLab 16.2's, the version the gateway's dialect follows: lower case, mostly the
// label's words ("passed"; a delayed job's text and label are both "delayed"). GitLab put the texts
// in sentence case only after 16.2, in gitlab-org/gitlab!130269 ("Update text in CI status badges",
// for issue #423029; !121876 of May 2023 had held the change back): "Passed", "Scheduled", and
// "Warning" for a pass with warnings. The REST documentation's bodies have the lower case too
// ("text": "passed"). A pipeline that passed with allowed failures is GitLab's `SuccessWarning`
// ("passed with warnings"), which REST's pipeline record does not reveal: it is not served.
// The embedded server keeps its own copy of this table (simulator/entities/pipelines.ts), and
// test/dialect/detailed-status-parity.test.ts holds the two equal over HTTP.
import type { DetailedStatusRecord } from '../../records/runners.js';

/** What `Gitlab::Ci::Status::<Status>` answers for one status value. */
interface CoreStatus {
  text: string;
  label: string;
  icon: string;
  group: string;
}

/** The core statuses, by REST status value. */
const CORE_STATUSES: Readonly<Record<string, CoreStatus>> = {
  created: { text: 'created', label: 'created', icon: 'status_created', group: 'created' },
  waiting_for_resource: { text: 'waiting', label: 'waiting for resource', icon: 'status_pending', group: 'waiting-for-resource' },
  preparing: { text: 'preparing', label: 'preparing', icon: 'status_preparing', group: 'preparing' },
  pending: { text: 'pending', label: 'pending', icon: 'status_pending', group: 'pending' },
  running: { text: 'running', label: 'running', icon: 'status_running', group: 'running' },
  success: { text: 'passed', label: 'passed', icon: 'status_success', group: 'success' },
  failed: { text: 'failed', label: 'failed', icon: 'status_failed', group: 'failed' },
  // Later than 16.2 (a newer server may send it): GitLab's class, in 16.2's lower case.
  canceling: { text: 'canceling', label: 'canceling', icon: 'status_canceled', group: 'canceling' },
  canceled: { text: 'canceled', label: 'canceled', icon: 'status_canceled', group: 'canceled' },
  skipped: { text: 'skipped', label: 'skipped', icon: 'status_skipped', group: 'skipped' },
  manual: { text: 'manual', label: 'manual action', icon: 'status_manual', group: 'manual' },
  scheduled: { text: 'delayed', label: 'delayed', icon: 'status_scheduled', group: 'scheduled' },
};

/** `Gitlab::Ci::Status::Build::Failed::REASONS`: the failure reasons REST reports, as tooltips word them. */
const FAILURE_REASONS: Readonly<Record<string, string>> = {
  unknown_failure: 'unknown failure',
  script_failure: 'script failure',
  api_failure: 'API failure',
  stuck_or_timeout_failure: 'stuck or timeout failure',
  runner_system_failure: 'runner system failure',
  missing_dependency_failure: 'missing dependency failure',
  runner_unsupported: 'unsupported runner',
  stale_schedule: 'stale schedule',
  job_execution_timeout: 'job execution timeout',
  archived_failure: 'archived failure',
  unmet_prerequisites: 'unmet prerequisites',
  scheduler_failure: 'scheduler failure',
  data_integrity_failure: 'data integrity failure',
  forward_deployment_failure: 'forward deployment failure',
  protected_environment_failure: 'protected environment failure',
  user_blocked: 'pipeline user was blocked',
  ci_quota_exceeded: 'no more CI minutes available',
  no_matching_runner: 'no matching runner available',
  trace_size_exceeded: 'log size limit exceeded',
  builds_disabled: 'project builds are disabled',
  environment_creation_failure: 'environment creation failure',
  deployment_rejected: 'deployment rejected',
  ip_restriction_failure: 'IP address restriction failure',
  failed_outdated_deployment_job: 'failed outdated deployment job',
};

/** The core status of a value; an unknown one (a newer server's) reads as its own name. */
function coreStatus(status: string): CoreStatus {
  return CORE_STATUSES[status] ?? { text: status, label: status, icon: `status_${status}`, group: status };
}

function detailed(core: CoreStatus, subjectId: number, detailsPath: string | null): DetailedStatusRecord {
  // Core#id is "#{group}-#{subject.id}"; Core#status_tooltip is the label.
  return { id: `${core.group}-${subjectId}`, ...core, tooltip: core.label, hasDetails: true, detailsPath };
}

/** What REST tells of a job that the status classes read. */
export interface JobStatusFacts {
  id: number;
  status: string;
  allowFailure?: boolean | undefined;
  failureReason?: string | undefined;
}

/**
 * A job's detailed status, as `Gitlab::Ci::Status::Build::Factory` builds it: `Build::Common` links
 * every status to the job's page; `Failed` adds the failure reason to the tooltip when REST says it
 * (runner job lists do not); `FailedAllowed`, wrapped around it, marks a failure that may fail as a
 * warning. The id stays the core status's: the wrappers delegate it.
 */
export function jobDetailedStatus(job: JobStatusFacts, jobPath: string | null): DetailedStatusRecord {
  const status = detailed(coreStatus(job.status), job.id, jobPath);
  if (job.status !== 'failed') return status;
  const reason = job.failureReason ? FAILURE_REASONS[job.failureReason] : undefined;
  const failed = reason ? { ...status, tooltip: `failed - (${reason})` } : status;
  if (job.allowFailure !== true) return failed;
  return { ...failed, label: 'failed (allowed to fail)', icon: 'status_warning', group: 'failed_with_warnings', tooltip: `${failed.tooltip} (allowed to fail)` };
}

/**
 * A pipeline's detailed status, as `Gitlab::Ci::Status::Pipeline::Factory` builds it:
 * `Pipeline::Common` links it to the pipeline's page; a manual pipeline is `Blocked` and a scheduled
 * one `Delayed`. Those change the text and label only: they are SimpleDelegators over the core
 * status, whose own `status_tooltip` still answers the core label ("manual action", "delayed").
 */
export function pipelineDetailedStatus(pipeline: { id: number; status: string }, pipelinePath: string | null): DetailedStatusRecord {
  const status = detailed(coreStatus(pipeline.status), pipeline.id, pipelinePath);
  if (pipeline.status === 'manual') return { ...status, text: 'blocked', label: 'waiting for manual action' };
  if (pipeline.status === 'scheduled') return { ...status, text: 'delayed', label: 'waiting for delayed job' };
  return status;
}
