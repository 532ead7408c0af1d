// GitLab's DetailedStatus of jobs and pipelines, status by status, as lib/gitlab/ci/status/*.rb
// compute it in GitLab 16.2 (lower-case texts; sentence case came later). The embedded server's
// statuses are checked over HTTP against its REST `detailed_status` in detailed-status-parity.test.ts,
// and this file checks every status GitLab has.
import { describe, expect, it } from 'vitest';
import { jobDetailedStatus, pipelineDetailedStatus } from '../../src/resolvers/runners/detailed-status.js';
import { graphqlRunnerStatus } from '../../src/resolvers/runners/runner-status.js';

/** [status, text, label, icon, group] of Gitlab::Ci::Status::<Status>. */
const CORE: Array<[string, string, string, string, string]> = [
  ['created', 'created', 'created', 'status_created', 'created'],
  ['waiting_for_resource', 'waiting', 'waiting for resource', 'status_pending', 'waiting-for-resource'],
  ['preparing', 'preparing', 'preparing', 'status_preparing', 'preparing'],
  ['pending', 'pending', 'pending', 'status_pending', 'pending'],
  ['running', 'running', 'running', 'status_running', 'running'],
  ['success', 'passed', 'passed', 'status_success', 'success'],
  ['failed', 'failed', 'failed', 'status_failed', 'failed'],
  ['canceling', 'canceling', 'canceling', 'status_canceled', 'canceling'],
  ['canceled', 'canceled', 'canceled', 'status_canceled', 'canceled'],
  ['skipped', 'skipped', 'skipped', 'status_skipped', 'skipped'],
  ['manual', 'manual', 'manual action', 'status_manual', 'manual'],
  ['scheduled', 'delayed', 'delayed', 'status_scheduled', 'scheduled'],
];

describe('a job\'s detailed status', () => {
  it.each(CORE)('%s: text %s, label %s, icon %s, group %s, linked to the job', (status, text, label, icon, group) => {
    expect(jobDetailedStatus({ id: 42, status }, '/g/p/-/jobs/42')).toEqual({
      id: `${group}-42`,
      text,
      label,
      icon,
      group,
      tooltip: label,
      hasDetails: true,
      detailsPath: '/g/p/-/jobs/42',
    });
  });

  it('names the failure reason in the tooltip when REST gives it (Build::Failed)', () => {
    expect(jobDetailedStatus({ id: 7, status: 'failed', failureReason: 'script_failure' }, null)).toMatchObject({
      text: 'failed',
      label: 'failed',
      tooltip: 'failed - (script failure)',
      detailsPath: null,
    });
    expect(jobDetailedStatus({ id: 7, status: 'failed', failureReason: 'stuck_or_timeout_failure' }, null).tooltip).toBe('failed - (stuck or timeout failure)');
  });

  it('marks a failure that may fail as a warning, keeping the core id (Build::FailedAllowed)', () => {
    expect(jobDetailedStatus({ id: 7, status: 'failed', allowFailure: true, failureReason: 'script_failure' }, '/g/p/-/jobs/7')).toEqual({
      id: 'failed-7',
      text: 'failed',
      label: 'failed (allowed to fail)',
      icon: 'status_warning',
      group: 'failed_with_warnings',
      tooltip: 'failed - (script failure) (allowed to fail)',
      hasDetails: true,
      detailsPath: '/g/p/-/jobs/7',
    });
  });

  it('changes nothing for a passed job that was allowed to fail', () => {
    expect(jobDetailedStatus({ id: 7, status: 'success', allowFailure: true }, null)).toMatchObject({ group: 'success', icon: 'status_success' });
  });
});

describe('a pipeline\'s detailed status', () => {
  it.each(CORE.filter(([status]) => status !== 'manual' && status !== 'scheduled'))(
    '%s: text %s, label %s, icon %s, group %s, linked to the pipeline',
    (status, text, label, icon, group) => {
      expect(pipelineDetailedStatus({ id: 9, status }, '/g/p/-/pipelines/9')).toEqual({
        id: `${group}-9`,
        text,
        label,
        icon,
        group,
        tooltip: label,
        hasDetails: true,
        detailsPath: '/g/p/-/pipelines/9',
      });
    },
  );

  it('shows a manual pipeline as blocked (Pipeline::Blocked) and a scheduled one as delayed (Pipeline::Delayed), the tooltip still the core label', () => {
    expect(pipelineDetailedStatus({ id: 9, status: 'manual' }, null)).toMatchObject({
      id: 'manual-9',
      text: 'blocked',
      label: 'waiting for manual action',
      tooltip: 'manual action',
      icon: 'status_manual',
      group: 'manual',
    });
    expect(pipelineDetailedStatus({ id: 9, status: 'scheduled' }, null)).toMatchObject({
      id: 'scheduled-9',
      text: 'delayed',
      label: 'waiting for delayed job',
      tooltip: 'delayed',
      icon: 'status_scheduled',
      group: 'scheduled',
    });
  });
});

describe('a runner\'s status', () => {
  // [REST status, REST online, GitLab's status, GitLab's status in legacy mode 14.5]
  it.each([
    ['online', true, 'online', 'online'],
    ['offline', false, 'offline', 'offline'],
    ['stale', false, 'stale', 'stale'],
    ['never_contacted', null, 'never_contacted', 'never_contacted'],
    ['not_connected', null, 'never_contacted', 'not_connected'],
    ['paused', true, 'online', 'paused'],
    ['paused', false, 'offline', 'paused'],
  ] as const)('REST %s (online: %s) is %s, and %s in legacy mode', (status, online, expected, legacy) => {
    expect(graphqlRunnerStatus({ status, online }, null)).toBe(expected);
    expect(graphqlRunnerStatus({ status, online }, '14.5')).toBe(legacy);
  });
});
