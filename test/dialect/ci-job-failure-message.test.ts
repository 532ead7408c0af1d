// CiJob.failureMessage as GitLab's Ci::BuildPresenter#failure_message words it: the message for
// every failure reason GitLab names (CommitStatusPresenter's CALLOUT_FAILURE_MESSAGES), null for
// any other status, GitLab's unknown failure for a failed job without a known reason; then
// GitLab-style documents validated against the schema and run over HTTP against the embedded v4
// server, checked against REST's job records with their call counts.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { calloutFailureMessage, FAILURE_MESSAGE_REASONS, jobFailureMessage } from '../../src/resolvers/runners/failure-message.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const UNKNOWN = 'There is an unknown failure, please try again';
const fixLink = (path: string) => ` <a href="/help/${path}">How do I fix it?</a>`;

// Every failure reason GitLab names, with the message its presenter gives a failed job.
const MESSAGES: Array<[string, string | null]> = [
  ['unknown_failure', UNKNOWN],
  ['script_failure', null],
  ['api_failure', 'There has been an API failure, please try again'],
  ['stuck_or_timeout_failure', 'There has been a timeout failure or the job got stuck. Check your timeout limits or try again'],
  ['runner_system_failure', 'There has been a runner system failure, please try again'],
  ['runner_configuration_error', 'There has been a configuration error. Check your job configuration or contact your runner administrator.'],
  ['runner_external_dependency_failure', 'The runner could not reach an external dependency. Please try again.'],
  ['runner_interrupted', 'The runner process was interrupted before this job could finish. The job is safe to retry.'],
  ['missing_dependency_failure', 'There has been a missing dependency failure'],
  ['runner_unsupported', 'No runners support the requirements to run this job.'],
  ['stale_schedule', 'Delayed job could not be executed by some reason, please try again'],
  ['job_execution_timeout', 'The script exceeded the maximum execution time set for the job'],
  ['job_execution_server_timeout', 'The script exceeded the maximum execution time set for the job'],
  ['stuck_pending_with_matching_runners', 'The job was stuck in pending state with matching runners available. Check your job configuration or try again'],
  ['stuck_pending_no_matching_runners', 'The job was stuck in pending state with no matching runners available. Check your runner tags or configuration'],
  ['no_updates_running', 'The job was running but showed no activity for an extended period. Check your job script or try again'],
  ['no_updates_canceling', 'The job was canceling but showed no activity for an extended period. Try again'],
  ['server_timeout_running', 'The running job exceeded the maximum execution time set for the job'],
  ['server_timeout_canceling', 'The canceling job exceeded the maximum execution time set for the job'],
  ['archived_failure', 'The job is archived and cannot be run'],
  ['unmet_prerequisites', 'The job failed to complete prerequisite tasks'],
  ['scheduler_failure', 'The scheduler failed to assign job to the runner, please try again or contact system administrator'],
  ['data_integrity_failure', 'There has been an unknown job problem, please contact your system administrator with the job ID to review the logs'],
  ['forward_deployment_failure', 'The deployment job is older than the previously succeeded deployment job, and therefore cannot be run'],
  ['pipeline_loop_detected', 'This job could not be executed because it would create infinitely looping pipelines'],
  ['insufficient_upstream_permissions', 'This job could not be executed because of insufficient permissions to track the upstream project.'],
  ['upstream_bridge_project_not_found', 'This job could not be executed because upstream bridge project could not be found.'],
  ['invalid_bridge_trigger', 'This job could not be executed because downstream pipeline trigger definition is invalid'],
  [
    'downstream_project_trigger_resolved_to_empty',
    'This job could not be executed because the trigger:project value resolved to a blank value. Check that the variables or inputs used in trigger:project are set.',
  ],
  ['downstream_bridge_project_not_found', 'This job could not be executed because downstream bridge project could not be found'],
  ['protected_environment_failure', 'The environment this job is deploying to is protected. Only users with permission may successfully run this job.'],
  ['insufficient_bridge_permissions', 'This job could not be executed because of insufficient permissions to create a downstream pipeline'],
  ['bridge_pipeline_is_child_pipeline', 'This job belongs to a child pipeline and cannot create further child pipelines'],
  ['downstream_pipeline_creation_failed', 'The downstream pipeline could not be created'],
  ['secrets_provider_not_found', 'The secrets provider can not be found. Check your CI/CD variables and try again.'],
  [
    'secrets_manager_access_denied',
    'This job could not retrieve secrets because the namespace does not have access to GitLab Secrets Manager. To restore access, start a trial or purchase GitLab Secrets Manager for the top-level group, or make sure the group has GitLab credits available and on-demand billing enabled.' +
      fixLink('ci/secrets/secrets_manager/_index.md#error-namespace-does-not-have-access-to-gitlab-secrets-manager'),
  ],
  ['reached_max_descendant_pipelines_depth', 'You reached the maximum depth of child pipelines'],
  ['reached_max_pipeline_hierarchy_size', 'The downstream pipeline tree is too large'],
  ['project_deleted', 'The job belongs to a deleted project'],
  ['user_blocked', 'The user who created this job is blocked'],
  ['ci_quota_exceeded', 'No more compute minutes available'],
  ['no_matching_runner', 'No matching runner available'],
  ['trace_size_exceeded', 'The job log size limit was reached'],
  ['builds_disabled', 'The CI/CD is disabled for this project'],
  [
    'environment_creation_failure',
    'This job could not be executed because it would create an environment with an invalid parameter.' +
      fixLink('ci/environments/_index.md#error-job-would-create-an-environment-with-an-invalid-parameter'),
  ],
  ['deployment_rejected', 'This deployment job was rejected.'],
  ['ip_restriction_failure', "This job could not be executed because group IP address restrictions are enabled, and the runner's IP address is not in the allowed range."],
  [
    'duo_workflow_not_allowed',
    'Duo Agent Platform cannot run on this runner. Duo jobs can only run on instance wide or top level group runners. Be sure to remove the gitlab--duo tag from this runner to avoid it picking these jobs.',
  ],
  ['duo_workflow_connection_failure', 'The Duo Workflow job failed because the runner could not connect to the Duo Agent Platform. Check your network configuration and try again.'],
  [
    'failed_outdated_deployment_job',
    'The deployment job is older than the latest deployment, and therefore failed.' + fixLink('ci/environments/deployment_safety.md#prevent-outdated-deployment-jobs'),
  ],
  ['reached_downstream_pipeline_trigger_rate_limit', 'Too many downstream pipelines triggered in the last minute. Try again later.'],
  ['job_router_failure', 'The Job Router failed to run this job. Please contact your administrator.'],
  ['job_token_expired', 'The CI job token has expired. The job may have exceeded the maximum time limit.'],
  [
    'id_token_burned_project_path',
    "ID token issuance is disabled in CI because this project's path was previously used by a different project. To restore ID tokens, set `ci_id_token_sub_claim_components` to start with `project_id` (for example, `[\"project_id\", \"ref_type\", \"ref\"]`) and update your cloud trust policy to match." +
      fixLink('ci/secrets/id_token_authentication.md#error-id-token-issuance-is-disabled'),
  ],
];

const BY_REASON = new Map(MESSAGES);

const OTHER_STATUSES = ['created', 'waiting_for_resource', 'preparing', 'waiting_for_callback', 'pending', 'running', 'success', 'canceling', 'canceled', 'skipped', 'manual', 'scheduled'];

describe('Ci::BuildPresenter#failure_message', () => {
  it('words every failure reason GitLab names, and no other', () => {
    expect([...FAILURE_MESSAGE_REASONS].sort()).toEqual(MESSAGES.map(([reason]) => reason).sort());
  });

  it.each(MESSAGES)('a job failed for %s', (reason, message) => {
    expect(jobFailureMessage({ status: 'failed', failure_reason: reason })).toBe(message);
    expect(calloutFailureMessage(reason)).toBe(message);
  });

  it.each(OTHER_STATUSES)('%s: no message, whatever reason the record holds', (status) => {
    expect(jobFailureMessage({ status })).toBeNull();
    expect(jobFailureMessage({ status, failure_reason: 'runner_system_failure' })).toBeNull();
  });

  it('reads a failed job without a reason, or with one GitLab does not name, as an unknown failure', () => {
    expect(jobFailureMessage({ status: 'failed' })).toBe(UNKNOWN);
    expect(jobFailureMessage({ status: 'failed', failure_reason: null })).toBe(UNKNOWN);
    expect(jobFailureMessage({ status: 'failed', failure_reason: 'a_reason_of_a_newer_gitlab' })).toBe(UNKNOWN);
    // Not a key of the table's prototype either.
    expect(jobFailureMessage({ status: 'failed', failure_reason: 'toString' })).toBe(UNKNOWN);
  });
});

const JOB_FAILURE_FRAGMENT = `fragment JobFailureParts on CiJob {
  id
  status
  failureMessage
}`;

const PROJECT_JOBS_FAILURES = `query getProjectJobsFailures($fullPath: ID!, $statuses: [CiJobStatus!], $first: Int) {
  project(fullPath: $fullPath) {
    id
    jobs(statuses: $statuses, first: $first) {
      nodes {
        ...JobFailureParts
      }
    }
  }
}
${JOB_FAILURE_FRAGMENT}`;

const RUNNER_JOBS_FAILURES = `query getRunnerJobsFailures($id: CiRunnerID!, $first: Int) {
  runner(id: $id) {
    id
    jobs(first: $first) {
      nodes {
        ...JobFailureParts
      }
    }
  }
}
${JOB_FAILURE_FRAGMENT}`;

interface RestJob {
  id: number;
  status: string;
  failure_reason?: string;
  project?: { id: number };
}
interface JobNode {
  id: string;
  status: string;
  failureMessage: string | null;
}

const PROJECT = 'gitlab-org/gitlab';
const { maintainer } = DEMO_TOKENS;

describe('a job\'s failureMessage over HTTP', () => {
  const harness = gatewayOverSimulator();
  const failedJobsOf = (projectId: number) =>
    [...harness.simulator.state.jobs.values()].filter((job) => job.projectId === projectId && job.status === 'failed').sort((a, b) => b.id - a.id);

  it('validates against the schema', () => {
    for (const document of [PROJECT_JOBS_FAILURES, RUNNER_JOBS_FAILURES]) expect(validate(createExecutableSchema(), parse(document))).toEqual([]);
  });

  it('words the project\'s jobs from their records\' failure_reason, with no call beyond the list', async () => {
    const failed = failedJobsOf(1);
    expect(failed.length).toBeGreaterThan(0);
    failed[0]!.failureReason = 'runner_system_failure';
    const all = await harness.oracle.get<RestJob[]>('/projects/1/jobs?per_page=100', maintainer);
    expect(all.find((job) => job.id === failed[0]!.id)?.failure_reason).toBe('runner_system_failure');
    harness.simulator.resetRequests();

    const result = await harness.gateway.query<{ project: { jobs: { nodes: JobNode[] } } }>(PROJECT_JOBS_FAILURES, { fullPath: PROJECT, first: 100 }, maintainer);
    expect(result.errors).toBeUndefined();
    const nodes = result.data!.project.jobs.nodes;
    expect(nodes.map((node) => node.id)).toEqual(all.map((job) => `gid://gitlab/Ci::Build/${job.id}`));
    for (const [index, job] of all.entries()) {
      const expected = job.status === 'failed' ? BY_REASON.get(job.failure_reason ?? 'unknown_failure') : null;
      expect(nodes[index]!.failureMessage, `job ${job.id} (${job.status}, ${job.failure_reason})`).toBe(expected);
    }
    expect(nodes.find((node) => node.id === `gid://gitlab/Ci::Build/${failed[0]!.id}`)!.failureMessage).toBe('There has been a runner system failure, please try again');
    // The project and its jobs by the same path, in one wave (the list's lookahead).
    expect(restCalls(harness.simulator).sort()).toEqual(['GET /projects/gitlab-org%2Fgitlab', 'GET /projects/gitlab-org%2Fgitlab/jobs']);
  });

  // Entities::Ci::JobBasic, which GET /runners/:id/jobs presents, sends failure_reason for a failed job.
  it('words a runner\'s failed jobs from the list\'s failure_reason, with no call per job', async () => {
    const owned = await harness.oracle.get<Array<{ id: number }>>('/runners?type=project_type&per_page=100', maintainer);
    let runnerId = 0;
    let jobs: RestJob[] = [];
    for (const runner of owned) {
      jobs = await harness.oracle.get<RestJob[]>(`/runners/${runner.id}/jobs?per_page=10`, maintainer);
      runnerId = runner.id;
      if (jobs.some((job) => job.status === 'failed') && jobs.some((job) => job.status !== 'failed')) break;
    }
    const failed = jobs.filter((job) => job.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    harness.simulator.state.jobs.get(failed[0]!.id)!.failureReason = 'stuck_or_timeout_failure';
    jobs = await harness.oracle.get<RestJob[]>(`/runners/${runnerId}/jobs?per_page=10`, maintainer);
    expect(jobs.find((job) => job.id === failed[0]!.id)?.failure_reason).toBe('stuck_or_timeout_failure');
    for (const job of jobs) expect(job.failure_reason === undefined).toBe(job.status !== 'failed');
    harness.simulator.resetRequests();

    const result = await harness.gateway.query<{ runner: { jobs: { nodes: JobNode[] } } }>(RUNNER_JOBS_FAILURES, { id: `gid://gitlab/Ci::Runner/${runnerId}`, first: 10 }, maintainer);
    expect(result.errors).toBeUndefined();
    const nodes = result.data!.runner.jobs.nodes;
    expect(nodes.map((node) => node.id)).toEqual(jobs.map((job) => `gid://gitlab/Ci::Build/${job.id}`));
    for (const [index, job] of jobs.entries()) {
      const expected = job.status === 'failed' ? calloutFailureMessage(job.failure_reason) : null;
      expect(nodes[index]!.failureMessage, `job ${job.id} (${job.status})`).toBe(expected);
    }
    expect(nodes.find((node) => node.id === `gid://gitlab/Ci::Build/${failed[0]!.id}`)!.failureMessage).toBe(
      'There has been a timeout failure or the job got stuck. Check your timeout limits or try again',
    );
    const calls = restCalls(harness.simulator);
    expect(calls.filter((call) => /^GET \/projects\/\d+\/jobs\/\d+$/.test(call))).toEqual([]);
    expect(calls).toHaveLength(2);
  });
});
