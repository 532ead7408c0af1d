// CiJob.retryable as GitLab's Ci::Processable#retryable? decides it: the rule for every status,
// retried, archived and deployment-rejected job, then GitLab-style documents validated against the
// schema and run over HTTP against the embedded v4 server (a job retried in its state) and a stub
// upstream (archived and rejected jobs), checked against REST's pipeline job lists with their calls.
import { parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { jobIsRetryable } from '../../src/resolvers/runners/job-status.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';
import { retryJobInState } from '../support/retried-jobs.js';
import { readFixture, startStubUpstream } from '../support/stub-upstream.js';

const STATUSES = ['created', 'waiting_for_resource', 'preparing', 'waiting_for_callback', 'pending', 'running', 'success', 'failed', 'canceling', 'canceled', 'skipped', 'manual', 'scheduled'];
const COMPLETED = new Set(['success', 'failed', 'canceled', 'canceling']);

describe('Ci::Processable#retryable?', () => {
  it.each(STATUSES)('%s: retryable only when completed or canceling, and neither retried nor archived', (status) => {
    expect(jobIsRetryable({ status, retried: false })).toBe(COMPLETED.has(status));
    expect(jobIsRetryable({ status, retried: false, archived: false })).toBe(COMPLETED.has(status));
    expect(jobIsRetryable({ status, retried: true })).toBe(false);
    expect(jobIsRetryable({ status, retried: false, archived: true })).toBe(false);
  });

  it('refuses a rejected deployment, a failure for another reason being retryable', () => {
    expect(jobIsRetryable({ status: 'failed', failure_reason: 'deployment_rejected', retried: false })).toBe(false);
    expect(jobIsRetryable({ status: 'failed', failure_reason: 'script_failure', retried: false })).toBe(true);
  });
});

const JOB_RETRY_FRAGMENT = `fragment JobRetryParts on CiJob {
  id
  status
  retryable
  cancelable
}`;

const PROJECT_JOBS_RETRY = `query getProjectJobsRetry($fullPath: ID!, $statuses: [CiJobStatus!], $first: Int) {
  project(fullPath: $fullPath) {
    id
    jobs(statuses: $statuses, first: $first) {
      nodes {
        ...JobRetryParts
      }
    }
  }
}
${JOB_RETRY_FRAGMENT}`;

const RUNNER_JOBS_RETRY = `query getRunnerJobsRetry($id: CiRunnerID!, $first: Int) {
  runner(id: $id) {
    id
    jobs(first: $first) {
      nodes {
        ...JobRetryParts
      }
    }
  }
}
${JOB_RETRY_FRAGMENT}`;

interface RestJob {
  id: number;
  status: string;
  archived?: boolean;
  failure_reason?: string;
  pipeline: { id: number };
  project?: { id: number };
}
interface JobNode {
  id: string;
  status: string;
  retryable: boolean;
}

const PROJECT = 'gitlab-org/gitlab';
const { maintainer } = DEMO_TOKENS;

describe('a job\'s retryable over HTTP', () => {
  const harness = gatewayOverSimulator();
  const latestOf = async (project: number, pipeline: number) =>
    new Set((await harness.oracle.get<RestJob[]>(`/projects/${project}/pipelines/${pipeline}/jobs?per_page=100`, maintainer)).map((job) => job.id));

  it('validates against the schema', () => {
    for (const document of [PROJECT_JOBS_RETRY, RUNNER_JOBS_RETRY]) expect(validate(createExecutableSchema(), parse(document))).toEqual([]);
  });

  it('tells a retried job from its new try by its pipeline\'s latest jobs, read once per pipeline of a completed job', async () => {
    const state = harness.simulator.state;
    const failed = [...state.jobs.values()].filter((job) => job.projectId === 1 && job.status === 'failed').sort((a, b) => b.id - a.id)[0]!;
    const retry = retryJobInState(state, failed.id, 'success');
    const all = await harness.oracle.get<RestJob[]>('/projects/1/jobs?per_page=100', maintainer);
    expect(all.map((job) => job.id)).toEqual(expect.arrayContaining([failed.id, retry.id]));
    const completedPipelines = [...new Set(all.filter((job) => COMPLETED.has(job.status)).map((job) => job.pipeline.id))];
    const latest = new Map(await Promise.all(completedPipelines.map(async (id) => [id, await latestOf(1, id)] as const)));
    harness.simulator.resetRequests();

    const result = await harness.gateway.query<{ project: { jobs: { nodes: JobNode[] } } }>(PROJECT_JOBS_RETRY, { fullPath: PROJECT, first: 100 }, maintainer);
    expect(result.errors).toBeUndefined();
    const nodes = result.data!.project.jobs.nodes;
    expect(nodes.map((node) => node.id)).toEqual(all.map((job) => `gid://gitlab/Ci::Build/${job.id}`));
    for (const [index, job] of all.entries()) {
      const expected = COMPLETED.has(job.status) && job.archived !== true && latest.get(job.pipeline.id)!.has(job.id);
      expect(nodes[index]!.retryable, `job ${job.id} (${job.status})`).toBe(expected);
    }
    const byId = new Map(nodes.map((node) => [node.id, node]));
    expect(byId.get(`gid://gitlab/Ci::Build/${failed.id}`)!.retryable).toBe(false);
    expect(byId.get(`gid://gitlab/Ci::Build/${retry.id}`)!.retryable).toBe(true);

    // The project, its job list (whose records carry `archived`), and each completed job's pipeline once.
    const calls = restCalls(harness.simulator);
    const pipelineLists = calls.filter((call) => /^GET \/projects\/1\/pipelines\/\d+\/jobs$/.test(call));
    expect(pipelineLists.sort()).toEqual(completedPipelines.map((id) => `GET /projects/1/pipelines/${id}/jobs`).sort());
    expect(calls).toHaveLength(2 + completedPipelines.length);
    expect(harness.simulator.requests.some((request) => request.query?.['include_retried'] !== undefined)).toBe(false);
  });

  it('reads no pipeline when no job asked could be retried by its status', async () => {
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<{ project: { jobs: { nodes: JobNode[] } } }>(
      PROJECT_JOBS_RETRY,
      { fullPath: PROJECT, statuses: ['RUNNING', 'PENDING', 'CREATED', 'MANUAL', 'SKIPPED'], first: 20 },
      maintainer,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data!.project.jobs.nodes.every((node) => !node.retryable)).toBe(true);
    // The project and its jobs by the same path, in one wave (the list's lookahead).
    expect(restCalls(harness.simulator).sort()).toEqual(['GET /projects/gitlab-org%2Fgitlab', 'GET /projects/gitlab-org%2Fgitlab/jobs']);
  });

  it('reads a runner\'s completed jobs\' records for `archived`, once per job, and their pipelines once each', async () => {
    const owned = await harness.oracle.get<Array<{ id: number }>>('/runners?type=project_type&per_page=100', maintainer);
    let runnerId = 0;
    let jobs: RestJob[] = [];
    for (const runner of owned) {
      jobs = await harness.oracle.get<RestJob[]>(`/runners/${runner.id}/jobs?per_page=10`, maintainer);
      runnerId = runner.id;
      if (jobs.some((job) => COMPLETED.has(job.status))) break;
    }
    const completed = jobs.filter((job) => COMPLETED.has(job.status));
    expect(completed.length).toBeGreaterThan(0);
    const latest = new Map<string, Set<number>>();
    for (const job of completed) latest.set(`${job.project!.id}/${job.pipeline.id}`, await latestOf(job.project!.id, job.pipeline.id));
    harness.simulator.resetRequests();

    const result = await harness.gateway.query<{ runner: { jobs: { nodes: JobNode[] } } }>(RUNNER_JOBS_RETRY, { id: `gid://gitlab/Ci::Runner/${runnerId}`, first: 10 }, maintainer);
    expect(result.errors).toBeUndefined();
    for (const [index, job] of jobs.entries()) {
      const expected = COMPLETED.has(job.status) && latest.get(`${job.project!.id}/${job.pipeline.id}`)!.has(job.id);
      expect(result.data!.runner.jobs.nodes[index]!.retryable).toBe(expected);
    }
    const calls = restCalls(harness.simulator);
    expect(calls.filter((call) => /^GET \/projects\/\d+\/jobs\/\d+$/.test(call))).toHaveLength(completed.length);
    expect(calls.filter((call) => /^GET \/projects\/\d+\/pipelines\/\d+\/jobs$/.test(call))).toHaveLength(latest.size);
  });
});

describe('archived and rejected jobs of a runner, from the REST documentation\'s bodies', () => {
  const runner = readFixture('runners/get-runner.json') as { id: number };
  const [listed] = readFixture('runners/list-runner-jobs.json') as Array<RestJob & { project: { id: number } }>;
  const archived = { ...listed!, id: listed!.id + 1, status: 'success' };
  const rejected = { ...listed!, id: listed!.id + 2, status: 'failed', failure_reason: 'deployment_rejected' };
  let stub: Awaited<ReturnType<typeof startStubUpstream>>;
  let gateway: TestGateway;

  beforeAll(async () => {
    stub = await startStubUpstream([
      { method: 'GET', path: `/runners/${runner.id}`, body: runner },
      { method: 'GET', path: `/runners/${runner.id}/jobs`, body: [archived, rejected] },
      { method: 'GET', path: `/projects/${listed!.project.id}/jobs/${archived.id}`, body: { ...archived, archived: true } },
      { method: 'GET', path: `/projects/${listed!.project.id}/jobs/${rejected.id}`, body: { ...rejected, archived: false } },
      { method: 'GET', path: `/projects/${listed!.project.id}/pipelines/${listed!.pipeline.id}/jobs`, body: [archived, rejected] },
    ]);
    gateway = await startTestGateway(stub.url);
  });
  afterAll(async () => {
    await gateway?.close();
    await stub?.close();
  });

  it('answers false for both without reading their pipeline, though it still lists them', async () => {
    const result = await gateway.query<{ runner: { jobs: { nodes: JobNode[] } } }>(RUNNER_JOBS_RETRY, { id: `gid://gitlab/Ci::Runner/${runner.id}`, first: 5 }, 'token');
    expect(result.errors).toBeUndefined();
    expect(result.data!.runner.jobs.nodes.map((node) => [node.status, node.retryable])).toEqual([
      ['SUCCESS', false],
      ['FAILED', false],
    ]);
    expect(stub.requests.filter((request) => request.path.endsWith('/jobs') && request.path.includes('/pipelines/'))).toEqual([]);
    expect(stub.requests.filter((request) => /^\/projects\/\d+\/jobs\/\d+$/.test(request.path))).toHaveLength(2);
  });
});
