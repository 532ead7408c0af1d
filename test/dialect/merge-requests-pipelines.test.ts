// Merge requests with their head pipeline, and GitLab's merge request list filters, asked the way
// GitLab's merge request widget and list ask: named operations, fragments on `Pipeline` and
// `MergeRequest`, variables typed with GitLab's MergeRequestState (lower case) and its negated
// params. Each document validates against the schema and runs over HTTP against the embedded v4
// server; every value is checked against REST's answer, with the REST calls it took.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const HEAD_PIPELINE_FRAGMENT = `fragment HeadPipelineParts on Pipeline {
  id
  iid
  sha
  ref
  status
  path
  beforeSha
  createdByTag
  yamlErrors
  yamlErrorMessages
  createdAt
  updatedAt
  startedAt
  finishedAt
  committedAt
  duration
  queuedDuration
  coverage
  user {
    id
    username
  }
  detailedStatus {
    icon
    text
    group
    detailsPath
  }
}`;

const MERGE_REQUEST_HEAD_PIPELINES_QUERY = `query issueMergeRequestPipelines($fullPath: ID!, $iid: String!) {
  project(fullPath: $fullPath) {
    id
    issue(iid: $iid) {
      id
      relatedMergeRequests {
        nodes {
          id
          iid
          state
          headPipeline {
            ...HeadPipelineParts
          }
        }
      }
    }
  }
}
${HEAD_PIPELINE_FRAGMENT}`;

const MERGE_REQUEST_LIST_PIPELINES_QUERY = `query getMergeRequestListPipelines($fullPath: ID!, $state: MergeRequestState, $first: Int) {
  project(fullPath: $fullPath) {
    id
    mergeRequests(state: $state, first: $first) {
      nodes {
        iid
        headPipeline {
          ...HeadPipelineParts
        }
      }
    }
  }
}
${HEAD_PIPELINE_FRAGMENT}`;

const MERGE_REQUEST_LIST_QUERY = `query getMergeRequests(
  $fullPath: ID!
  $state: MergeRequestState
  $reviewerUsername: String
  $mergedAfter: Time
  $mergedBefore: Time
  $not: MergeRequestsResolverNegatedParams
  $first: Int
) {
  project(fullPath: $fullPath) {
    id
    mergeRequests(state: $state, reviewerUsername: $reviewerUsername, mergedAfter: $mergedAfter, mergedBefore: $mergedBefore, not: $not, first: $first) {
      count
      nodes {
        ...MergeRequestListItem
      }
    }
  }
}
fragment MergeRequestListItem on MergeRequest {
  id
  iid
  state
}`;

interface RestUser {
  id: number;
  username: string;
}
interface RestPipeline {
  id: number;
  iid: number;
  sha: string;
  ref: string;
  status: string;
  web_url: string;
  before_sha: string;
  tag: boolean;
  yaml_errors: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  committed_at: string | null;
  duration: number | null;
  queued_duration: number | null;
  coverage: string | null;
  user: RestUser | null;
}
interface RestMergeRequest {
  id: number;
  iid: number;
  project_id: number;
  state: string;
  labels: string[];
  milestone: { title: string } | null;
  merged_at: string | null;
  reviewers: RestUser[];
  head_pipeline?: RestPipeline | null;
}
interface MergeRequestNode {
  id: string;
  iid: string;
  state: string;
}
interface ListData {
  project: { id: string; mergeRequests: { count: number; nodes: MergeRequestNode[] } };
}
interface HeadPipelineData {
  project: { issue: { relatedMergeRequests: { nodes: Array<MergeRequestNode & { headPipeline: Record<string, unknown> | null }> } } };
}

const PROJECT = 'gitlab-org/gitlab';
const { maintainer } = DEMO_TOKENS;

/** What the head pipeline fragment reads from REST's `head_pipeline`, by GitLab's rules. */
const asHeadPipeline = (pipeline: RestPipeline) => {
  const path = new URL(pipeline.web_url).pathname;
  return {
    id: `gid://gitlab/Ci::Pipeline/${pipeline.id}`,
    iid: String(pipeline.iid),
    sha: pipeline.sha,
    ref: pipeline.ref,
    status: pipeline.status.toUpperCase(),
    path,
    beforeSha: pipeline.before_sha,
    createdByTag: pipeline.tag,
    yamlErrors: pipeline.yaml_errors !== null,
    yamlErrorMessages: pipeline.yaml_errors,
    createdAt: pipeline.created_at,
    updatedAt: pipeline.updated_at,
    startedAt: pipeline.started_at,
    finishedAt: pipeline.finished_at,
    committedAt: pipeline.committed_at,
    duration: pipeline.duration,
    queuedDuration: pipeline.queued_duration,
    coverage: pipeline.coverage === null ? null : Number.parseFloat(pipeline.coverage),
    user: pipeline.user ? { id: `gid://gitlab/User/${pipeline.user.id}`, username: pipeline.user.username } : null,
    detailedStatus: { icon: expect.stringMatching(/^status_/) as unknown, text: expect.any(String) as unknown, group: expect.any(String) as unknown, detailsPath: path },
  };
};
const asListItem = (mergeRequest: RestMergeRequest): MergeRequestNode => ({ id: `gid://gitlab/MergeRequest/${mergeRequest.id}`, iid: String(mergeRequest.iid), state: mergeRequest.state });

describe('merge requests with their pipelines and GitLab\'s list filters', () => {
  const harness = gatewayOverSimulator();

  it('validates every document against the schema', () => {
    const schema = createExecutableSchema();
    for (const document of [MERGE_REQUEST_HEAD_PIPELINES_QUERY, MERGE_REQUEST_LIST_QUERY, MERGE_REQUEST_LIST_PIPELINES_QUERY]) expect(validate(schema, parse(document))).toEqual([]);
  });

  /** An issue of the project one of whose related merge requests has a head pipeline, as REST lists them. */
  async function issueWithHeadPipeline(): Promise<{ iid: number; mergeRequests: RestMergeRequest[] }> {
    const issues = await harness.oracle.all<{ iid: number }>('/projects/1/issues?scope=all&state=all', maintainer);
    for (const issue of issues) {
      const mergeRequests = await harness.oracle.get<RestMergeRequest[]>(`/projects/1/issues/${issue.iid}/related_merge_requests`, maintainer);
      if (mergeRequests.some((mergeRequest) => mergeRequest.head_pipeline)) return { iid: issue.iid, mergeRequests };
    }
    throw new Error('The seed has no issue with a merge request that has a head pipeline');
  }

  it("serves a merge request's head pipeline as GitLab's Pipeline, from the record REST embeds, with no further call", async () => {
    const { iid, mergeRequests } = await issueWithHeadPipeline();
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<HeadPipelineData>(MERGE_REQUEST_HEAD_PIPELINES_QUERY, { fullPath: PROJECT, iid: String(iid) }, maintainer);
    expect(result.errors).toBeUndefined();
    expect(result.data!.project.issue.relatedMergeRequests.nodes).toEqual(
      mergeRequests.map((mergeRequest) => ({ ...asListItem(mergeRequest), headPipeline: mergeRequest.head_pipeline ? asHeadPipeline(mergeRequest.head_pipeline) : null })),
    );
    // REST's head_pipeline is the pipeline's own record: the one `GET .../pipelines/:pipeline_id` answers.
    for (const mergeRequest of mergeRequests.filter((candidate) => candidate.head_pipeline)) {
      expect(await harness.oracle.get<RestPipeline>(`/projects/1/pipelines/${mergeRequest.head_pipeline!.id}`, maintainer)).toEqual(mergeRequest.head_pipeline);
    }
    expect(restCalls(harness.simulator)).toEqual(['GET /projects/gitlab-org%2Fgitlab', `GET /projects/1/issues/${iid}`, expect.stringMatching(new RegExp(`^GET /projects/1/issues/${iid}/related_merge_requests`))]);
  });

  it("reads a listed merge request's head pipeline from its own record, once per merge request", async () => {
    const listed = await harness.oracle.get<RestMergeRequest[]>('/projects/1/merge_requests?state=opened&per_page=5', maintainer);
    const records = await Promise.all(listed.map((mergeRequest) => harness.oracle.get<RestMergeRequest>(`/projects/1/merge_requests/${mergeRequest.iid}`, maintainer)));
    expect(records.some((mergeRequest) => mergeRequest.head_pipeline)).toBe(true);
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<{ project: { mergeRequests: { nodes: unknown[] } } }>(MERGE_REQUEST_LIST_PIPELINES_QUERY, { fullPath: PROJECT, state: 'opened', first: 5 }, maintainer);
    expect(result.errors).toBeUndefined();
    expect(result.data!.project.mergeRequests.nodes).toEqual(records.map((mergeRequest) => ({ iid: String(mergeRequest.iid), headPipeline: mergeRequest.head_pipeline ? asHeadPipeline(mergeRequest.head_pipeline) : null })));
    const calls = restCalls(harness.simulator);
    expect(calls.slice(0, 2)).toEqual(['GET /projects/gitlab-org%2Fgitlab', 'GET /projects/1/merge_requests']);
    expect(calls.slice(2).sort()).toEqual(listed.map((mergeRequest) => `GET /projects/1/merge_requests/${mergeRequest.iid}`).sort());
  });

  it('answers every state in lower case, and `all` as no state filter', async () => {
    const every = await harness.oracle.all<RestMergeRequest>('/projects/1/merge_requests', maintainer);
    const result = await harness.gateway.query<ListData>(MERGE_REQUEST_LIST_QUERY, { fullPath: PROJECT, state: 'all', first: 100 }, maintainer);
    expect(result.errors).toBeUndefined();
    expect(result.data!.project.mergeRequests.nodes).toEqual(every.map(asListItem));
    expect(new Set(every.map((mergeRequest) => mergeRequest.state))).toEqual(new Set(result.data!.project.mergeRequests.nodes.map((node) => node.state)));
    expect(restCalls(harness.simulator)).toEqual(['GET /projects/gitlab-org%2Fgitlab', 'GET /projects/1/merge_requests']);

    for (const state of ['opened', 'closed', 'merged', 'locked'] as const) {
      const expected = await harness.oracle.all<RestMergeRequest>(`/projects/1/merge_requests?state=${state}`, maintainer);
      const filtered = await harness.gateway.query<ListData>(MERGE_REQUEST_LIST_QUERY, { fullPath: PROJECT, state, first: 100 }, maintainer);
      expect(filtered.data!.project.mergeRequests.nodes).toEqual(expected.map(asListItem));
    }
  });

  it('filters by reviewer as REST does, in one call', async () => {
    const every = await harness.oracle.all<RestMergeRequest>('/projects/1/merge_requests', maintainer);
    const reviewer = every.flatMap((mergeRequest) => mergeRequest.reviewers)[0]!.username;
    const expected = await harness.oracle.all<RestMergeRequest>(`/projects/1/merge_requests?reviewer_username=${reviewer}`, maintainer);
    expect(expected.length).toBeGreaterThan(0);
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<ListData>(MERGE_REQUEST_LIST_QUERY, { fullPath: PROJECT, reviewerUsername: reviewer, first: 100 }, maintainer);
    expect(result.errors).toBeUndefined();
    expect(result.data!.project.mergeRequests).toEqual({ count: expected.length, nodes: expected.map(asListItem) });
    expect(restCalls(harness.simulator)).toEqual(['GET /projects/gitlab-org%2Fgitlab', 'GET /projects/1/merge_requests']);
  });

  it('filters by merge time as REST does, both ends inclusive', async () => {
    const { state } = harness.simulator;
    const merged = [...state.mergeRequests.values()].find((mergeRequest) => mergeRequest.mergedAt !== null)!;
    const fullPath = state.projectFullPath(state.projects.get(merged.projectId)!);
    for (const [argument, parameter] of [['mergedAfter', 'merged_after'], ['mergedBefore', 'merged_before']] as const) {
      const expected = await harness.oracle.all<RestMergeRequest>(`/projects/${merged.projectId}/merge_requests?${parameter}=${encodeURIComponent(merged.mergedAt!)}`, DEMO_TOKENS.admin);
      expect(expected.map((mergeRequest) => mergeRequest.iid)).toContain(merged.iid);
      harness.simulator.resetRequests();
      const result = await harness.gateway.query<ListData>(MERGE_REQUEST_LIST_QUERY, { fullPath, [argument]: merged.mergedAt, first: 100 }, DEMO_TOKENS.admin);
      expect(result.errors).toBeUndefined();
      expect(result.data!.project.mergeRequests.nodes).toEqual(expected.map(asListItem));
      expect(restCalls(harness.simulator).filter((call) => call.includes('/merge_requests'))).toEqual([`GET /projects/${merged.projectId}/merge_requests`]);
    }
  });

  it('leaves out what `not` names, as REST\'s not[labels] and not[milestone] do', async () => {
    const every = await harness.oracle.all<RestMergeRequest>('/projects/1/merge_requests', maintainer);
    const label = every.flatMap((mergeRequest) => mergeRequest.labels)[0]!;
    const expected = await harness.oracle.all<RestMergeRequest>(`/projects/1/merge_requests?not[labels]=${encodeURIComponent(label)}`, maintainer);
    expect(expected.length).toBeLessThan(every.length);
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<ListData>(MERGE_REQUEST_LIST_QUERY, { fullPath: PROJECT, not: { labels: [label] }, first: 100 }, maintainer);
    expect(result.errors).toBeUndefined();
    expect(result.data!.project.mergeRequests.nodes).toEqual(expected.map(asListItem));
    expect(restCalls(harness.simulator)).toEqual(['GET /projects/gitlab-org%2Fgitlab', 'GET /projects/1/merge_requests']);

    const withMilestone = await harness.oracle.all<RestMergeRequest>(`/projects/1/merge_requests?not[milestone]=${encodeURIComponent('No such milestone')}`, maintainer);
    const unfiltered = await harness.gateway.query<ListData>(MERGE_REQUEST_LIST_QUERY, { fullPath: PROJECT, not: { milestoneTitle: 'No such milestone' }, first: 100 }, maintainer);
    expect(unfiltered.data!.project.mergeRequests.nodes).toEqual(withMilestone.map(asListItem));
  });
});
