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
    expect(validate(createExecutableSchema(), parse(PROJECT_JOBS_QUERY))).toEqual([]);
  });

  it('lists the jobs in the asked statuses, newest first, from one REST page', async () => {
    const expected = await harness.oracle.get<RestJob[]>('/projects/1/jobs?scope[]=failed&scope[]=canceled&per_page=5', maintainer);
    const all = await harness.oracle.all<RestJob>('/projects/1/jobs?scope[]=failed&scope[]=canceled', maintainer);
    expect(expected.length).toBeGreaterThan(0);
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<ProjectJobsData>(PROJECT_JOBS_QUERY, { fullPath: PROJECT, statuses: ['FAILED', 'CANCELED'], first: 5 }, maintainer);
    expect(result.errors).toBeUndefined();
    expect(restCalls(harness.simulator)).toEqual(['GET /projects/gitlab-org%2Fgitlab', 'GET /projects/1/jobs']);
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
});
