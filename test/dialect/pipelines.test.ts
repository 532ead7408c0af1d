// Pipeline lists with GitLab's filters (source, username, updatedAfter, updatedBefore) and the
// pipeline fields GitLab's pipeline pages read (timing, coverage, user, YAML errors), asked the way
// GitLab's frontend asks: named operations, a fragment on `Pipeline`, typed variables. Each document
// validates against the schema and runs over HTTP against the embedded v4 server, checked against
// REST's answers, with the REST calls it took.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { ACTIVE_PIPELINE_STATUSES, COMPLETED_PIPELINE_STATUSES } from '../../src/resolvers/runners/Pipeline.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const { admin } = DEMO_TOKENS;
const PROJECT = 'gitlab-org/gitlab';

const PIPELINE_SUMMARY_FRAGMENT = `fragment PipelineSummary on Pipeline {
  id
  iid
  status
  ref
  updatedAt
}`;

const PIPELINE_DETAILS_FRAGMENT = `fragment PipelineDetails on Pipeline {
  id
  beforeSha
  createdByTag
  yamlErrors
  startedAt
  finishedAt
  duration
  queuedDuration
  coverage
  user {
    username
  }
}`;

const PIPELINE_STATE_QUERY = `query getPipelineStates($fullPath: ID!, $first: Int) {
  project(fullPath: $fullPath) {
    id
    pipelines(first: $first) {
      nodes {
        id
        status
        active
        complete
        path
        commitPath
        project {
          id
        }
      }
    }
  }
}`;

const PROJECT_PIPELINES_QUERY = `query getProjectPipelines(
  $fullPath: ID!
  $source: String
  $username: String
  $updatedAfter: Time
  $updatedBefore: Time
  $first: Int
) {
  project(fullPath: $fullPath) {
    id
    pipelines(source: $source, username: $username, updatedAfter: $updatedAfter, updatedBefore: $updatedBefore, first: $first) {
      count
      nodes {
        ...PipelineSummary
      }
    }
  }
}
${PIPELINE_SUMMARY_FRAGMENT}`;

const PIPELINE_DETAILS_QUERY = `query getPipelineDetails($fullPath: ID!, $first: Int) {
  project(fullPath: $fullPath) {
    id
    pipelines(first: $first) {
      nodes {
        ...PipelineDetails
      }
    }
  }
}
${PIPELINE_DETAILS_FRAGMENT}`;

const COMMIT_PIPELINES_QUERY = `query getCommitPipelines($fullPath: ID!, $ref: String!, $sha: String, $source: String, $username: String) {
  project(fullPath: $fullPath) {
    id
    repository {
      commit(ref: $ref) {
        sha
        pipelines(sha: $sha, source: $source, username: $username) {
          count
          nodes {
            ...PipelineSummary
          }
        }
      }
    }
  }
}
${PIPELINE_SUMMARY_FRAGMENT}`;

interface RestPipeline {
  id: number;
  iid: number;
  status: string;
  ref: string;
  sha: string;
  source: string;
  updated_at: string;
}
interface RestPipelineDetail extends RestPipeline {
  before_sha: string;
  tag: boolean;
  yaml_errors: string | null;
  started_at: string | null;
  finished_at: string | null;
  duration: number | null;
  queued_duration: number | null;
  coverage: string | null;
  user: { username: string } | null;
}
interface Summary {
  id: string;
  iid: string;
  status: string;
  ref: string;
  updatedAt: string;
}
interface ProjectPipelinesData {
  project: { pipelines: { count: number; nodes: Summary[] } };
}

const asSummary = (pipeline: RestPipeline): Summary => ({
  id: `gid://gitlab/Ci::Pipeline/${pipeline.id}`,
  iid: String(pipeline.iid),
  status: pipeline.status.toUpperCase(),
  ref: pipeline.ref,
  updatedAt: pipeline.updated_at,
});

describe('pipeline lists with GitLab\'s filters', () => {
  const harness = gatewayOverSimulator();

  it('validates every document against the schema', () => {
    const schema = createExecutableSchema();
    for (const document of [PROJECT_PIPELINES_QUERY, PIPELINE_DETAILS_QUERY, COMMIT_PIPELINES_QUERY, PIPELINE_STATE_QUERY]) expect(validate(schema, parse(document))).toEqual([]);
  });

  it('filters a project\'s pipelines by source, username and update time as REST does, one list call each', async () => {
    const newest = (await harness.oracle.get<RestPipeline[]>('/projects/1/pipelines?per_page=1', admin))[0]!;
    const detail = await harness.oracle.get<RestPipelineDetail>(`/projects/1/pipelines/${newest.id}`, admin);
    const cases: Array<[Record<string, string>, string]> = [
      [{ source: 'external' }, 'source=external'],
      [{ source: 'push' }, 'source=push'],
      [{ username: detail.user!.username }, `username=${detail.user!.username}`],
      [{ updatedAfter: newest.updated_at }, `updated_after=${encodeURIComponent(newest.updated_at)}`],
      [{ updatedBefore: newest.updated_at }, `updated_before=${encodeURIComponent(newest.updated_at)}`],
    ];
    for (const [variables, query] of cases) {
      const expected = await harness.oracle.get<RestPipeline[]>(`/projects/1/pipelines?${query}&per_page=20`, admin);
      const total = (await harness.oracle.all<RestPipeline>(`/projects/1/pipelines?${query}`, admin)).length;
      harness.simulator.resetRequests();
      const result = await harness.gateway.query<ProjectPipelinesData>(PROJECT_PIPELINES_QUERY, { fullPath: PROJECT, first: 20, ...variables }, admin);
      expect(result.errors).toBeUndefined();
      expect(result.data!.project.pipelines).toEqual({ count: total, nodes: expected.map(asSummary) });
      expect(restCalls(harness.simulator).filter((call) => call.includes('/pipelines'))).toEqual(['GET /projects/1/pipelines']);
    }
  });

  it("filters a commit's pipelines the same way, within its SHA", async () => {
    const head = await harness.oracle.get<{ id: string }>('/projects/1/repository/commits/main', admin);
    const ofSha = await harness.oracle.all<RestPipeline>(`/projects/1/pipelines?sha=${head.id}`, admin);
    expect(ofSha.length).toBeGreaterThan(0);
    const detail = await harness.oracle.get<RestPipelineDetail>(`/projects/1/pipelines/${ofSha[0]!.id}`, admin);
    // GitLab's `sha` argument is overridden by the commit's own SHA, as in GitLab.
    for (const variables of [{ source: ofSha[0]!.source, sha: '0'.repeat(40) }, { username: detail.user!.username }, { username: 'nobody-at-all' }]) {
      const query = 'source' in variables ? `source=${variables.source}` : `username=${variables.username}`;
      const expected = await harness.oracle.all<RestPipeline>(`/projects/1/pipelines?sha=${head.id}&${query}`, admin);
      const result = await harness.gateway.query<{ project: { repository: { commit: { sha: string; pipelines: { count: number; nodes: Summary[] } } } } }>(
        COMMIT_PIPELINES_QUERY,
        { fullPath: PROJECT, ref: 'main', ...variables },
        admin,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data!.project.repository.commit.pipelines).toEqual({ count: expected.length, nodes: expected.map(asSummary) });
    }
  });

  it('reads what a listed pipeline lacks from its own record, once per pipeline', async () => {
    const listed = await harness.oracle.get<RestPipeline[]>('/projects/1/pipelines?per_page=4', admin);
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<{ project: { pipelines: { nodes: unknown[] } } }>(PIPELINE_DETAILS_QUERY, { fullPath: PROJECT, first: 4 }, admin);
    expect(result.errors).toBeUndefined();
    const calls = restCalls(harness.simulator);
    const expected = [];
    for (const pipeline of listed) {
      const detail = await harness.oracle.get<RestPipelineDetail>(`/projects/1/pipelines/${pipeline.id}`, admin);
      expected.push({
        id: `gid://gitlab/Ci::Pipeline/${detail.id}`,
        beforeSha: detail.before_sha,
        createdByTag: detail.tag,
        yamlErrors: detail.yaml_errors !== null,
        startedAt: detail.started_at,
        finishedAt: detail.finished_at,
        duration: detail.duration,
        queuedDuration: detail.queued_duration,
        coverage: detail.coverage === null ? null : Number.parseFloat(detail.coverage),
        user: detail.user ? { username: detail.user.username } : null,
      });
    }
    expect(result.data!.project.pipelines.nodes).toEqual(expected);
    expect(calls.filter((call) => /\/pipelines\/\d+$/.test(call)).sort()).toEqual(listed.map((pipeline) => `GET /projects/1/pipelines/${pipeline.id}`).sort());
    expect(calls.filter((call) => call.endsWith('/pipelines'))).toHaveLength(1);
  });

  it('refuses a source REST does not know before any pipeline call', async () => {
    const result = await harness.gateway.query<ProjectPipelinesData>(PROJECT_PIPELINES_QUERY, { fullPath: PROJECT, source: 'carrier_pigeon' }, admin);
    expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect(restCalls(harness.simulator).filter((call) => call.includes('/pipelines'))).toEqual([]);
    // REST refuses it too.
    expect((await harness.oracle.call('GET', '/projects/1/pipelines?source=carrier_pigeon', admin)).status).toBe(400);
  });

  // Ci::HasStatus: ACTIVE_STATUSES (with canceling, active wherever GitLab has that status) and COMPLETED_STATUSES.
  it.each([
    ['created', false, false],
    ['waiting_for_resource', true, false],
    ['preparing', true, false],
    ['pending', true, false],
    ['running', true, false],
    ['canceling', true, false],
    ['success', false, true],
    ['failed', false, true],
    ['canceled', false, true],
    ['skipped', false, true],
    ['manual', false, false],
    ['scheduled', false, false],
  ])('a %s pipeline is active: %s, complete: %s', (status, active, complete) => {
    expect(ACTIVE_PIPELINE_STATUSES.has(status)).toBe(active);
    expect(COMPLETED_PIPELINE_STATUSES.has(status)).toBe(complete);
  });

  it('covers every status of PipelineStatusEnum in that table', () => {
    const statuses = createExecutableSchema().getType('PipelineStatusEnum');
    const values = statuses && 'getValues' in statuses ? statuses.getValues().map((value) => String(value.value)) : [];
    expect(values.sort()).toEqual(['canceled', 'canceling', 'created', 'failed', 'manual', 'pending', 'preparing', 'running', 'scheduled', 'skipped', 'success', 'waiting_for_resource']);
  });

  it("derives active, complete, the commit's path and the project from the listed record alone", async () => {
    const listed = await harness.oracle.get<Array<RestPipeline & { project_id: number; web_url: string }>>('/projects/1/pipelines?per_page=20', admin);
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<{ project: { pipelines: { nodes: unknown[] } } }>(PIPELINE_STATE_QUERY, { fullPath: PROJECT, first: 20 }, admin);
    expect(result.errors).toBeUndefined();
    expect(result.data!.project.pipelines.nodes).toEqual(
      listed.map((pipeline) => ({
        id: `gid://gitlab/Ci::Pipeline/${pipeline.id}`,
        status: pipeline.status.toUpperCase(),
        active: ACTIVE_PIPELINE_STATUSES.has(pipeline.status),
        complete: COMPLETED_PIPELINE_STATUSES.has(pipeline.status),
        path: `/${PROJECT}/-/pipelines/${pipeline.id}`,
        commitPath: `/${PROJECT}/-/commit/${pipeline.sha}`,
        project: { id: `gid://gitlab/Project/${pipeline.project_id}` },
      })),
    );
    expect(restCalls(harness.simulator)).toEqual(['GET /projects/gitlab-org%2Fgitlab', 'GET /projects/1/pipelines']);
  });
});
