// GitLab's `CiJob.failureMessage`: Ci::BuildPresenter#failure_message is
// `callout_failure_message if build.failed?`, and CommitStatusPresenter#callout_failure_message
// looks the job's failure reason up in CALLOUT_FAILURE_MESSAGES (app/presenters/commit_status_presenter.rb),
// adding a "How do I fix it?" link for the reasons GitLab documents a fix for. REST names the
// reason in the job record's `failure_reason`, which it sends only for a failed job.

/**
 * GitLab's message for each failure reason (the English of its `Job|` messages). A script failure
 * has none: the job's log tells why.
 */
const CALLOUT_FAILURE_MESSAGES: Readonly<Record<string, string | null>> = {
  unknown_failure: 'There is an unknown failure, please try again',
  script_failure: null,
  api_failure: 'There has been an API failure, please try again',
  stuck_or_timeout_failure: 'There has been a timeout failure or the job got stuck. Check your timeout limits or try again',
  runner_system_failure: 'There has been a runner system failure, please try again',
  runner_configuration_error: 'There has been a configuration error. Check your job configuration or contact your runner administrator.',
  runner_external_dependency_failure: 'The runner could not reach an external dependency. Please try again.',
  runner_interrupted: 'The runner process was interrupted before this job could finish. The job is safe to retry.',
  missing_dependency_failure: 'There has been a missing dependency failure',
  runner_unsupported: 'No runners support the requirements to run this job.',
  stale_schedule: 'Delayed job could not be executed by some reason, please try again',
  job_execution_timeout: 'The script exceeded the maximum execution time set for the job',
  job_execution_server_timeout: 'The script exceeded the maximum execution time set for the job',
  stuck_pending_with_matching_runners: 'The job was stuck in pending state with matching runners available. Check your job configuration or try again',
  stuck_pending_no_matching_runners: 'The job was stuck in pending state with no matching runners available. Check your runner tags or configuration',
  no_updates_running: 'The job was running but showed no activity for an extended period. Check your job script or try again',
  no_updates_canceling: 'The job was canceling but showed no activity for an extended period. Try again',
  server_timeout_running: 'The running job exceeded the maximum execution time set for the job',
  server_timeout_canceling: 'The canceling job exceeded the maximum execution time set for the job',
  archived_failure: 'The job is archived and cannot be run',
  unmet_prerequisites: 'The job failed to complete prerequisite tasks',
  scheduler_failure: 'The scheduler failed to assign job to the runner, please try again or contact system administrator',
  data_integrity_failure: 'There has been an unknown job problem, please contact your system administrator with the job ID to review the logs',
  forward_deployment_failure: 'The deployment job is older than the previously succeeded deployment job, and therefore cannot be run',
  pipeline_loop_detected: 'This job could not be executed because it would create infinitely looping pipelines',
  insufficient_upstream_permissions: 'This job could not be executed because of insufficient permissions to track the upstream project.',
  upstream_bridge_project_not_found: 'This job could not be executed because upstream bridge project could not be found.',
  invalid_bridge_trigger: 'This job could not be executed because downstream pipeline trigger definition is invalid',
  downstream_project_trigger_resolved_to_empty:
    'This job could not be executed because the trigger:project value resolved to a blank value. Check that the variables or inputs used in trigger:project are set.',
  downstream_bridge_project_not_found: 'This job could not be executed because downstream bridge project could not be found',
  protected_environment_failure: 'The environment this job is deploying to is protected. Only users with permission may successfully run this job.',
  insufficient_bridge_permissions: 'This job could not be executed because of insufficient permissions to create a downstream pipeline',
  bridge_pipeline_is_child_pipeline: 'This job belongs to a child pipeline and cannot create further child pipelines',
  downstream_pipeline_creation_failed: 'The downstream pipeline could not be created',
  secrets_provider_not_found: 'The secrets provider can not be found. Check your CI/CD variables and try again.',
  secrets_manager_access_denied:
    'This job could not retrieve secrets because the namespace does not have access to GitLab Secrets Manager. To restore access, start a trial or purchase GitLab Secrets Manager for the top-level group, or make sure the group has GitLab credits available and on-demand billing enabled.',
  reached_max_descendant_pipelines_depth: 'You reached the maximum depth of child pipelines',
  reached_max_pipeline_hierarchy_size: 'The downstream pipeline tree is too large',
  project_deleted: 'The job belongs to a deleted project',
  user_blocked: 'The user who created this job is blocked',
  ci_quota_exceeded: 'No more compute minutes available',
  no_matching_runner: 'No matching runner available',
  trace_size_exceeded: 'The job log size limit was reached',
  builds_disabled: 'The CI/CD is disabled for this project',
  environment_creation_failure: 'This job could not be executed because it would create an environment with an invalid parameter.',
  deployment_rejected: 'This deployment job was rejected.',
  ip_restriction_failure:
    "This job could not be executed because group IP address restrictions are enabled, and the runner's IP address is not in the allowed range.",
  duo_workflow_not_allowed:
    'Duo Agent Platform cannot run on this runner. Duo jobs can only run on instance wide or top level group runners. Be sure to remove the gitlab--duo tag from this runner to avoid it picking these jobs.',
  duo_workflow_connection_failure:
    'The Duo Workflow job failed because the runner could not connect to the Duo Agent Platform. Check your network configuration and try again.',
  failed_outdated_deployment_job: 'The deployment job is older than the latest deployment, and therefore failed.',
  reached_downstream_pipeline_trigger_rate_limit: 'Too many downstream pipelines triggered in the last minute. Try again later.',
  job_router_failure: 'The Job Router failed to run this job.',
  job_token_expired: 'The CI job token has expired. The job may have exceeded the maximum time limit.',
  id_token_burned_project_path:
    "ID token issuance is disabled in CI because this project's path was previously used by a different project. " +
    'To restore ID tokens, set `ci_id_token_sub_claim_components` to start with `project_id` ' +
    '(for example, `["project_id", "ref_type", "ref"]`) and update your cloud trust policy to match.',
};

/** The failure reasons GitLab words a message for (script_failure's being none). */
export const FAILURE_MESSAGE_REASONS: readonly string[] = Object.keys(CALLOUT_FAILURE_MESSAGES);

/**
 * The help pages GitLab links after the message (`troubleshooting_doc`), as `help_page_path` routes
 * them. The path is the instance root's: an instance under a relative URL root would prefix it,
 * which REST's records do not tell apart from the project's path.
 */
const TROUBLESHOOTING_DOCS: Readonly<Record<string, string>> = {
  environment_creation_failure: '/help/ci/environments/_index.md#error-job-would-create-an-environment-with-an-invalid-parameter',
  failed_outdated_deployment_job: '/help/ci/environments/deployment_safety.md#prevent-outdated-deployment-jobs',
  secrets_manager_access_denied: '/help/ci/secrets/secrets_manager/_index.md#error-namespace-does-not-have-access-to-gitlab-secrets-manager',
  id_token_burned_project_path: '/help/ci/secrets/id_token_authentication.md#error-id-token-issuance-is-disabled',
};

/**
 * What GitLab appends to a job router failure: the job's first error message, which REST does not
 * serve, so GitLab's own words for a job without one.
 */
const JOB_ROUTER_FAILURE_DETAIL = 'Please contact your administrator.';

/**
 * CommitStatusPresenter#callout_failure_message for a failure reason. A failed job whose record
 * names no reason is GitLab's `unknown_failure` (the enum's nil). A reason this table lacks (one a
 * newer GitLab added) reads as an unknown failure too, where GitLab's own `fetch` would know it.
 */
export function calloutFailureMessage(reason: string | null | undefined): string | null {
  const known = reason != null && Object.hasOwn(CALLOUT_FAILURE_MESSAGES, reason) ? reason : 'unknown_failure';
  let message = CALLOUT_FAILURE_MESSAGES[known] ?? null;
  if (message === null) return null;
  if (known === 'job_router_failure') message = `${message} ${JOB_ROUTER_FAILURE_DETAIL}`;
  const doc = TROUBLESHOOTING_DOCS[known];
  // ActionController's link_to, as GitLab renders it.
  return doc ? `${message} <a href="${doc}">How do I fix it?</a>` : message;
}

/** Ci::BuildPresenter#failure_message: the callout message of a failed job, else null. */
export function jobFailureMessage(job: { status: string; failure_reason?: string | null }): string | null {
  return job.status === 'failed' ? calloutFailureMessage(job.failure_reason) : null;
}
