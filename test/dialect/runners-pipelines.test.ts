// Pipelines in GitLab's own dialect, asked the way GitLab's pipeline and commit pages ask (named
// operations, fragments, typed variables): every document validates against the schema, and runs
// over real HTTP against the gateway and the embedded v4 server, with the answers checked against REST.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const { admin, guest } = DEMO_TOKENS;
const schema = createExecutableSchema();

const PIPELINE_FRAGMENT = `
fragment PipelineFields on Pipeline {
  id
  iid
  sha
  ref
  status
  path
  createdAt
  updatedAt
  detailedStatus { id icon text group detailsPath }
}`;

const PROJECT_PIPELINES = `${PIPELINE_FRAGMENT}
query getPipelines($fullPath: ID!, $first: Int, $status: PipelineStatusEnum, $ref: String, $scope: PipelineScopeEnum) {
  project(fullPath: $fullPath) {
    id
    pipelines(first: $first, status: $status, ref: $ref, scope: $scope) { count nodes { ...PipelineFields } pageInfo { hasNextPage } }
  }
}`;

const COMMIT_PIPELINES = `${PIPELINE_FRAGMENT}
query getJobCommitPipelines($id: CiRunnerID!) {
  runner(id: $id) { jobs(first: 3) { nodes { id commit { sha pipelines(first: 10) { count edges { node { ...PipelineFields } } } } } } }
}`;

const JOB_PIPELINES = `
query getRunnerJobPipelines($id: CiRunnerID!) {
  runner(id: $id) { jobs(first: 5) { nodes { id pipeline { id iid createdAt finishedAt } } } }
}`;

const DOCUMENTS = { PROJECT_PIPELINES, COMMIT_PIPELINES, JOB_PIPELINES };

interface RestPipeline {
  id: number;
  iid: number;
  sha: string;
  ref: string;
  status: string;
  created_at: string;
  updated_at: string;
  web_url: string;
  finished_at: string | null;
}

describe('pipelines in GitLab\'s dialect', () => {
  const harness = gatewayOverSimulator();

  it.each(Object.entries(DOCUMENTS))('%s validates against the schema', (_name, document) => {
    expect(validate(schema, parse(document))).toEqual([]);
  });

  /** What the gateway answers for a REST pipeline of gitlab-org/gitlab. */
  const expected = (pipeline: RestPipeline) => {
    const path = new URL(pipeline.web_url).pathname;
    return {
      id: `gid://gitlab/Ci::Pipeline/${pipeline.id}`,
      iid: String(pipeline.iid),
      sha: pipeline.sha,
      ref: pipeline.ref,
      status: pipeline.status.toUpperCase(),
      path,
      createdAt: pipeline.created_at,
      updatedAt: pipeline.updated_at,
      detailedStatus: { id: expect.stringMatching(new RegExp(`-${pipeline.id}$`)) as unknown, icon: expect.stringMatching(/^status_/) as unknown, text: expect.any(String) as unknown, group: expect.any(String) as unknown, detailsPath: path },
    };
  };

  it('lists a project\'s pipelines as REST does, newest first, with their filters, in one call', async () => {
    const all = await harness.oracle.get<RestPipeline[]>('/projects/1/pipelines?per_page=10', admin);
    const result = await harness.gateway.query<{ project: { pipelines: { count: number; nodes: unknown[] } } }>(PROJECT_PIPELINES, { fullPath: 'gitlab-org/gitlab', first: 10 }, admin);
    expect(result.errors).toBeUndefined();
    expect(result.data!.project.pipelines.nodes).toEqual(all.map(expected));
    expect(restCalls(harness.simulator).filter((call) => call.includes('/pipelines'))).toHaveLength(1);

    const failed = await harness.oracle.get<RestPipeline[]>(`/projects/1/pipelines?status=failed&ref=${all[0]!.ref}&per_page=10`, admin);
    const filtered = await harness.gateway.query<{ project: { pipelines: { nodes: Array<{ id: string }> } } }>(
      PROJECT_PIPELINES,
      { fullPath: 'gitlab-org/gitlab', first: 10, status: 'FAILED', ref: all[0]!.ref },
      admin,
    );
    expect(filtered.data!.project.pipelines.nodes.map((node) => node.id)).toEqual(failed.map((pipeline) => `gid://gitlab/Ci::Pipeline/${pipeline.id}`));

    const branches = await harness.oracle.get<RestPipeline[]>('/projects/1/pipelines?scope=branches&per_page=10', admin);
    const scoped = await harness.gateway.query<{ project: { pipelines: { nodes: Array<{ id: string }> } } }>(PROJECT_PIPELINES, { fullPath: 'gitlab-org/gitlab', first: 10, scope: 'BRANCHES' }, admin);
    expect(scoped.data!.project.pipelines.nodes.map((node) => node.id)).toEqual(branches.map((pipeline) => `gid://gitlab/Ci::Pipeline/${pipeline.id}`));
  });

  it('lists a commit\'s pipelines in its project through REST\'s sha filter', async () => {
    const jobs = await harness.oracle.get<Array<{ id: number; commit: { id: string }; project: { id: number } }>>('/runners/1/jobs?per_page=3', admin);
    const result = await harness.gateway.query<{ runner: { jobs: { nodes: Array<{ commit: { sha: string; pipelines: { count: number; edges: Array<{ node: unknown }> } } }> } } }>(
      COMMIT_PIPELINES,
      { id: 'gid://gitlab/Ci::Runner/1' },
      admin,
    );
    expect(result.errors).toBeUndefined();
    for (const [index, job] of jobs.entries()) {
      const ofSha = await harness.oracle.get<RestPipeline[]>(`/projects/${job.project.id}/pipelines?sha=${job.commit.id}&per_page=10`, admin);
      expect(ofSha.length).toBeGreaterThan(0);
      const { pipelines } = result.data!.runner.jobs.nodes[index]!.commit;
      expect(pipelines.count).toBe(ofSha.length);
      expect(pipelines.edges.map((edge) => edge.node)).toEqual(ofSha.map(expected));
    }
  });

  // A job's `pipeline` is PipelineBasic (iid, created_at, ...); what only the pipeline's own record
  // (Entities::Ci::Pipeline) has, such as finished_at, is read from it.
  it('completes a job\'s pipeline from the pipeline\'s record, once per pipeline, for what PipelineBasic lacks', async () => {
    const jobs = await harness.oracle.get<Array<{ id: number; pipeline: RestPipeline; project: { id: number } }>>('/runners/1/jobs?per_page=5', admin);
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<{ runner: { jobs: { nodes: Array<{ pipeline: { iid: string; createdAt: string } }> } } }>(JOB_PIPELINES, { id: 'gid://gitlab/Ci::Runner/1' }, admin);
    expect(result.errors).toBeUndefined();
    for (const [index, job] of jobs.entries()) {
      const pipeline = await harness.oracle.get<RestPipeline>(`/projects/${job.project.id}/pipelines/${job.pipeline.id}`, admin);
      expect(job.pipeline).toMatchObject({ iid: pipeline.iid, created_at: pipeline.created_at });
      expect(job.pipeline).not.toHaveProperty('finished_at');
      expect(result.data!.runner.jobs.nodes[index]!.pipeline).toMatchObject({ iid: String(pipeline.iid), createdAt: pipeline.created_at, finishedAt: pipeline.finished_at });
    }
    const pipelineReads = restCalls(harness.simulator).filter((call) => /\/pipelines\/\d+$/.test(call));
    expect(pipelineReads).toHaveLength(new Set(jobs.map((job) => `${job.project.id}/${job.pipeline.id}`)).size);
  });

  it('refuses the pipelines of a private project to a caller without access, as REST does', async () => {
    const result = await harness.gateway.query<{ project: { pipelines: unknown } | null }>(PROJECT_PIPELINES, { fullPath: 'gitlab-org/gitlab', first: 1 }, guest);
    const rest = await harness.oracle.call('GET', '/projects/1/pipelines?per_page=1', guest);
    if (rest.status === 200) expect(result.errors).toBeUndefined();
    else expect(result.errors?.[0]?.extensions).toMatchObject({ restStatus: rest.status });
  });
});
