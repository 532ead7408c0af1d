// A project's jobs as GitLab's pipeline pages list them: a named query with a fragment and
// `statuses` typed with GitLab's CiJobStatus, validated against the schema and run over HTTP against
// the embedded v4 server, checked against REST's `GET /projects/:id/jobs`, with its call count.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const JOB_FRAGMENT = `fragment ProjectJobParts on CiJob {
  id
  name
  stage
  status
  refName
  shortSha
  webPath
  tags
  pipeline {
    id
  }
}`;

const PROJECT_JOBS_QUERY = `query getProjectJobs($fullPath: ID!, $statuses: [CiJobStatus!], $first: Int, $after: String) {
  project(fullPath: $fullPath) {
    id
    jobs(statuses: $statuses, first: $first, after: $after) {
      count
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        ...ProjectJobParts
      }
    }
  }
}
${JOB_FRAGMENT}`;

const PROJECT_PIPELINE_QUERY = `query getPipelineBySha($fullPath: ID!, $sha: String) {
  project(fullPath: $fullPath) {
    id
    pipeline(sha: $sha) {
      id
      iid
      sha
      ref
      status
      path
    }
  }
}`;

interface RestPipeline {
  id: number;
  iid: number;
  sha: string;
  ref: string;
  status: string;
  web_url: string;
}
interface ProjectPipelineData {
  project: { id: string; pipeline: unknown };
}

interface RestJob {
  id: number;
  name: string;
  stage: string;
  status: string;
  ref: string;
  tag_list: string[];
  web_url: string;
  commit: { id: string };
  pipeline: { id: number };
}
interface ProjectJobsData {
  project: { id: string; jobs: { count: number; pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: unknown[] } };
}

const PROJECT = 'gitlab-org/gitlab';
const { maintainer } = DEMO_TOKENS;

const asNode = (job: RestJob) => ({
  id: `gid://gitlab/Ci::Build/${job.id}`,
  name: job.name,
  stage: job.stage,
  status: job.status.toUpperCase(),
  refName: job.ref,
  shortSha: job.commit.id.slice(0, 8),
  webPath: new URL(job.web_url).pathname,
  tags: job.tag_list,
  pipeline: { id: `gid://gitlab/Ci::Pipeline/${job.pipeline.id}` },
});

describe("a project's jobs in GitLab style", () => {
  const harness = gatewayOverSimulator();

  it('validates against the schema', () => {
    for (const document of [PROJECT_JOBS_QUERY, PROJECT_PIPELINE_QUERY]) expect(validate(createExecutableSchema(), parse(document))).toEqual([]);
  });

  it('lists the jobs in the asked statuses, newest first, from one REST page', async () => {
    const expected = await harness.oracle.get<RestJob[]>('/projects/1/jobs?scope[]=failed&scope[]=canceled&per_page=5', maintainer);
    const all = await harness.oracle.all<RestJob>('/projects/1/jobs?scope[]=failed&scope[]=canceled', maintainer);
    expect(expected.length).toBeGreaterThan(0);
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<ProjectJobsData>(PROJECT_JOBS_QUERY, { fullPath: PROJECT, statuses: ['FAILED', 'CANCELED'], first: 5 }, maintainer);
    expect(result.errors).toBeUndefined();
    // The project and its jobs by the same path, in one wave (the list's lookahead).
    expect(restCalls(harness.simulator).sort()).toEqual(['GET /projects/gitlab-org%2Fgitlab', 'GET /projects/gitlab-org%2Fgitlab/jobs']);
    const { jobs } = result.data!.project;
    expect(jobs.nodes).toEqual(expected.map(asNode));
    expect(jobs.count).toBe(all.length);
    expect(jobs.pageInfo.hasNextPage).toBe(all.length > 5);
  });

  it('lists every job without statuses', async () => {
    const expected = await harness.oracle.get<RestJob[]>('/projects/1/jobs?per_page=3', maintainer);
    const result = await harness.gateway.query<ProjectJobsData>(PROJECT_JOBS_QUERY, { fullPath: PROJECT, first: 3 }, maintainer);
    expect(result.errors).toBeUndefined();
    expect(result.data!.project.jobs.nodes).toEqual(expected.map(asNode));
  });

  it("finds the newest pipeline of a SHA with one REST call, null for a SHA without one", async () => {
    const [newest] = await harness.oracle.get<RestPipeline[]>('/projects/1/pipelines?per_page=1', maintainer);
    const [expected] = await harness.oracle.get<RestPipeline[]>(`/projects/1/pipelines?sha=${newest!.sha}&per_page=1`, maintainer);
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<ProjectPipelineData>(PROJECT_PIPELINE_QUERY, { fullPath: PROJECT, sha: newest!.sha }, maintainer);
    expect(result.errors).toBeUndefined();
    expect(restCalls(harness.simulator)).toEqual(['GET /projects/gitlab-org%2Fgitlab', 'GET /projects/1/pipelines']);
    expect(result.data!.project.pipeline).toEqual({
      id: `gid://gitlab/Ci::Pipeline/${expected!.id}`,
      iid: String(expected!.iid),
      sha: expected!.sha,
      ref: expected!.ref,
      status: expected!.status.toUpperCase(),
      path: new URL(expected!.web_url).pathname,
    });
    const none = await harness.gateway.query<ProjectPipelineData>(PROJECT_PIPELINE_QUERY, { fullPath: PROJECT, sha: '0000000000000000000000000000000000000000' }, maintainer);
    expect(none.errors).toBeUndefined();
    expect(none.data!.project.pipeline).toBeNull();
  });

  it('refuses a pipeline without a SHA before asking REST for it', async () => {
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<ProjectPipelineData>(PROJECT_PIPELINE_QUERY, { fullPath: PROJECT }, maintainer);
    expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect(restCalls(harness.simulator).filter((call) => call.includes('/pipelines'))).toEqual([]);
  });
});
