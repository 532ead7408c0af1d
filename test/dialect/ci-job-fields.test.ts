// The CiJob fields GitLab derives from a job's status and times (active, cancelable, scheduled,
// queuedAt) and the one REST's job record gives (erasedAt): each derivation for every status GitLab
// has, then GitLab-style documents validated against the schema and run over HTTP against the
// embedded v4 server (and a stub upstream for an erased job), checked against REST's job records
// with their call counts.
import { parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { jobIsActive, jobIsCancelable, jobIsScheduled, jobQueuedAt } from '../../src/resolvers/runners/job-status.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';
import { readFixture, startStubUpstream } from '../support/stub-upstream.js';

// [REST status, active?, cancelable?, scheduled?] as Ci::HasStatus and Ci::Build decide them.
const BY_STATUS: Array<[string, boolean, boolean, boolean]> = [
  ['created', false, true, false],
  ['waiting_for_resource', true, true, false],
  ['preparing', true, true, false],
  ['waiting_for_callback', true, true, false],
  ['pending', true, true, false],
  ['running', true, true, false],
  ['success', false, false, false],
  ['failed', false, false, false],
  ['canceling', false, false, false],
  ['canceled', false, false, false],
  ['skipped', false, false, false],
  ['manual', false, false, false],
  ['scheduled', false, false, true],
];

describe('what GitLab derives from a job\'s status', () => {
  it.each(BY_STATUS)('%s: active %s, cancelable %s, scheduled %s', (status, active, cancelable, scheduled) => {
    expect(jobIsActive(status)).toBe(active);
    expect(jobIsCancelable(status)).toBe(cancelable);
    expect(jobIsScheduled(status)).toBe(scheduled);
  });
});

describe('when a job was queued', () => {
  const now = new Date('2026-01-02T03:04:05.000Z');

  it.each([
    ['a started job: its start less its wait', { started_at: '2026-01-01T10:00:30.000Z', queued_duration: 30 }, '2026-01-01T10:00:00.000Z'],
    ['a fractional wait, to the millisecond', { started_at: '2026-01-01T10:00:01.000Z', queued_duration: 0.2505 }, '2026-01-01T10:00:00.750Z'],
    ['a job not yet started: now less its wait so far', { started_at: null, queued_duration: 5 }, '2026-01-02T03:04:00.000Z'],
    ['a job never queued (no queued duration)', { started_at: null, queued_duration: null }, null],
    ['a record without the times', {}, null],
  ])('%s', (_case, job, expected) => {
    expect(jobQueuedAt(job, now)).toBe(expected);
  });
});

const JOB_STATE_FRAGMENT = `fragment JobStateParts on CiJob {
  id
  status
  active
  cancelable
  scheduled
  startedAt
  queuedDuration
  queuedAt
  erasedAt
}`;

const PROJECT_JOBS_STATE = `query getProjectJobsState($fullPath: ID!, $statuses: [CiJobStatus!], $first: Int) {
  project(fullPath: $fullPath) {
    id
    jobs(statuses: $statuses, first: $first) {
      nodes {
        ...JobStateParts
      }
    }
  }
}
${JOB_STATE_FRAGMENT}`;

const RUNNER_JOBS_STATE = `query getRunnerJobsState($id: CiRunnerID!, $first: Int) {
  runner(id: $id) {
    id
    jobs(first: $first) {
      nodes {
        ...JobStateParts
      }
    }
  }
}
${JOB_STATE_FRAGMENT}`;

interface RestJob {
  id: number;
  status: string;
  started_at: string | null;
  queued_duration: number | null;
  erased_at?: string | null;
  project?: { id: number };
}
interface JobState {
  id: string;
  status: string;
  active: boolean;
  cancelable: boolean;
  scheduled: boolean;
  startedAt: string | null;
  queuedDuration: number | null;
  queuedAt: string | null;
  erasedAt: string | null;
}

/** What the gateway must answer for a REST job, with its record's `erased_at`. */
function expectedState(job: RestJob, erasedAt: string | null): Omit<JobState, 'queuedAt'> & { queuedAt?: string | null } {
  const started = job.started_at !== null && job.queued_duration !== null;
  return {
    id: `gid://gitlab/Ci::Build/${job.id}`,
    status: job.status.toUpperCase(),
    active: ['waiting_for_resource', 'preparing', 'pending', 'running'].includes(job.status),
    cancelable: ['created', 'waiting_for_resource', 'preparing', 'pending', 'running'].includes(job.status),
    scheduled: job.status === 'scheduled',
    startedAt: job.started_at,
    queuedDuration: job.queued_duration,
    erasedAt,
    // A started job's queue time is fixed; an unstarted one's moves with the clock (checked apart).
    ...(started || job.queued_duration === null ? { queuedAt: started ? new Date(Date.parse(job.started_at!) - job.queued_duration! * 1000).toISOString() : null } : {}),
  };
}

const PROJECT = 'gitlab-org/gitlab';
const { maintainer } = DEMO_TOKENS;

describe('a job\'s state fields over HTTP', () => {
  const harness = gatewayOverSimulator();

  it('validates against the schema', () => {
    for (const document of [PROJECT_JOBS_STATE, RUNNER_JOBS_STATE]) expect(validate(createExecutableSchema(), parse(document))).toEqual([]);
  });

  it('answers a project\'s jobs from the list\'s own records, with no call per job', async () => {
    const statuses = ['running', 'success', 'failed', 'canceled'];
    const expected = await harness.oracle.get<RestJob[]>(`/projects/1/jobs?${statuses.map((s) => `scope[]=${s}`).join('&')}&per_page=20`, maintainer);
    expect(new Set(expected.map((job) => job.status)).size).toBeGreaterThan(1);
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<{ project: { jobs: { nodes: JobState[] } } }>(
      PROJECT_JOBS_STATE,
      { fullPath: PROJECT, statuses: statuses.map((s) => s.toUpperCase()), first: 20 },
      maintainer,
    );
    expect(result.errors).toBeUndefined();
    // The project and its jobs by the same path, in one wave (the list's lookahead).
    expect(restCalls(harness.simulator).sort()).toEqual(['GET /projects/gitlab-org%2Fgitlab', 'GET /projects/gitlab-org%2Fgitlab/jobs']);
    const nodes = result.data!.project.jobs.nodes;
    expect(nodes).toHaveLength(expected.length);
    for (const [index, job] of expected.entries()) expect(nodes[index]).toMatchObject(expectedState(job, job.erased_at ?? null));
  });

  // GitLab 16+'s job record (Entities::Ci::JobBasic) has a `project` that holds only its job
  // token setting; the job's project is the one its pipeline names.
  it('names a project job\'s project, and where its artifacts are, from the job\'s pipeline', async () => {
    const [job] = await harness.oracle.get<Array<{ id: number; project: unknown; pipeline: { project_id: number } }>>('/projects/1/jobs?per_page=1', maintainer);
    expect(job!.project).toEqual({ ci_job_token_scope_enabled: false });
    expect(job!.pipeline.project_id).toBe(1);
    const result = await harness.gateway.query<{ project: { jobs: { nodes: unknown[] } } }>(
      'query getJobProjects($fullPath: ID!) { project(fullPath: $fullPath) { jobs(first: 1) { nodes { id project { id fullPath } artifactsDownload { archivePath } } } } }',
      { fullPath: PROJECT },
      maintainer,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data!.project.jobs.nodes).toEqual([
      { id: `gid://gitlab/Ci::Build/${job!.id}`, project: { id: 'gid://gitlab/Project/1', fullPath: PROJECT }, artifactsDownload: { archivePath: `/artifacts/projects/1/jobs/${job!.id}/artifacts` } },
    ]);
  });

  // Entities::Ci::JobBasic, which GET /runners/:id/jobs presents, carries erased_at itself.
  it('answers a runner\'s jobs, erasedAt included, from the list\'s own records, with no call per job', async () => {
    const owned = await harness.oracle.get<Array<{ id: number }>>('/runners?type=project_type&per_page=100', maintainer);
    let runnerId = 0;
    let jobs: RestJob[] = [];
    for (const runner of owned) {
      jobs = await harness.oracle.get<RestJob[]>(`/runners/${runner.id}/jobs?per_page=5`, maintainer);
      runnerId = runner.id;
      if (jobs.length >= 2) break;
    }
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs) expect(job).toHaveProperty('erased_at');
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<{ runner: { jobs: { nodes: JobState[] } } }>(RUNNER_JOBS_STATE, { id: `gid://gitlab/Ci::Runner/${runnerId}`, first: 5 }, maintainer);
    expect(result.errors).toBeUndefined();
    const nodes = result.data!.runner.jobs.nodes;
    for (const [index, job] of jobs.entries()) expect(nodes[index]).toMatchObject(expectedState(job, job.erased_at ?? null));
    const calls = restCalls(harness.simulator);
    expect(calls.filter((call) => call.startsWith(`GET /runners/${runnerId}/jobs`))).toHaveLength(1);
    expect(calls.filter((call) => /^GET \/projects\/\d+\/jobs\/\d+$/.test(call))).toEqual([]);
  });

  it('answers no erasedAt read when the query does not ask for it', async () => {
    const [runner] = await harness.oracle.get<Array<{ id: number }>>('/runners?type=project_type&per_page=1', maintainer);
    harness.simulator.resetRequests();
    const result = await harness.gateway.query(
      'query getRunnerJobStates($id: CiRunnerID!) { runner(id: $id) { jobs(first: 5) { nodes { id active cancelable scheduled queuedAt } } } }',
      { id: `gid://gitlab/Ci::Runner/${runner!.id}` },
      maintainer,
    );
    expect(result.errors).toBeUndefined();
    expect(restCalls(harness.simulator).filter((call) => /^GET \/projects\/\d+\/jobs\/\d+$/.test(call))).toEqual([]);
  });
});

describe('a job\'s duration over HTTP', () => {
  const harness = gatewayOverSimulator();

  it('is REST\'s seconds with the fraction dropped, as GitLab\'s Int truncates (Ruby\'s to_i), never rounded up', async () => {
    // A finished job of the seed whose REST duration has a fraction of one half or more.
    const jobs = await harness.oracle.get<Array<{ id: number; duration: number | null }>>('/projects/1/jobs?scope[]=success&scope[]=failed&per_page=100', maintainer);
    const job = jobs.find((candidate) => candidate.duration !== null && candidate.duration % 1 >= 0.5);
    expect(job).toBeDefined();
    const result = await harness.gateway.query<{ project: { jobs: { nodes: Array<{ id: string; duration: number | null }> } } }>(
      'query getJobDurations($fullPath: ID!, $statuses: [CiJobStatus!]) { project(fullPath: $fullPath) { jobs(statuses: $statuses, first: 100) { nodes { id duration } } } }',
      { fullPath: PROJECT, statuses: ['SUCCESS', 'FAILED'] },
      maintainer,
    );
    expect(result.errors).toBeUndefined();
    const node = result.data!.project.jobs.nodes.find((candidate) => candidate.id === `gid://gitlab/Ci::Build/${job!.id}`);
    expect(Number.isInteger(node!.duration)).toBe(true);
    // Below REST's value by its fraction, which is at least one half: rounding would have gone up.
    expect(job!.duration! - node!.duration!).toBeGreaterThanOrEqual(0.5);
    expect(job!.duration! - node!.duration!).toBeLessThan(1);
  });
});

describe('an erased job of a runner, from the REST documentation\'s bodies', () => {
  const runner = readFixture('runners/get-runner.json') as { id: number };
  const [listed] = readFixture('runners/list-runner-jobs.json') as Array<RestJob & { project: { id: number } }>;
  const erasedAt = '2017-11-16T09:00:00.000Z';
  let stub: Awaited<ReturnType<typeof startStubUpstream>>;
  let gateway: TestGateway;

  beforeAll(async () => {
    stub = await startStubUpstream([
      { method: 'GET', path: `/runners/${runner.id}`, body: runner },
      { method: 'GET', path: `/runners/${runner.id}/jobs`, body: [listed] },
      { method: 'GET', path: `/projects/${listed!.project.id}/jobs/${listed!.id}`, body: { ...listed, erased_at: erasedAt } },
    ]);
    gateway = await startTestGateway(stub.url);
  });
  afterAll(async () => {
    await gateway?.close();
    await stub?.close();
  });

  it('gives the record\'s erasedAt and GitLab\'s queue time of the running job', async () => {
    const result = await gateway.query<{ runner: { jobs: { nodes: JobState[] } } }>(RUNNER_JOBS_STATE, { id: `gid://gitlab/Ci::Runner/${runner.id}`, first: 5 }, 'token');
    expect(result.errors).toBeUndefined();
    expect(result.data!.runner.jobs.nodes).toEqual([
      {
        id: `gid://gitlab/Ci::Build/${listed!.id}`,
        status: 'RUNNING',
        active: true,
        cancelable: true,
        scheduled: false,
        startedAt: listed!.started_at,
        queuedDuration: listed!.queued_duration,
        queuedAt: new Date(Date.parse(listed!.started_at!) - listed!.queued_duration! * 1000).toISOString(),
        erasedAt,
      },
    ]);
    expect(stub.requests.filter((request) => request.path === `/projects/${listed!.project.id}/jobs/${listed!.id}`)).toHaveLength(1);
  });
});
