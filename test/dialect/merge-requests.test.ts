// A merge request as GitLab's web frontend reads it beside an issue: a named query with a fragment
// and variables, selecting GitLab's own shapes (assignees and labels as connections, the reference
// with `full`, time spent in seconds and in human form). The document validates against the schema
// and runs over HTTP against the embedded v4 server; every value is checked against REST's record.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { formatHumanDuration } from '../../src/resolvers/issues/human-duration.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const MERGE_REQUEST_FRAGMENT = `fragment MergeRequestSidebarParts on MergeRequest {
  id
  iid
  title
  reference
  fullReference: reference(full: true)
  totalTimeSpent
  humanTotalTimeSpent
  assignees(first: 20) {
    nodes {
      id
      username
      name
      webPath
    }
  }
}`;

const LABELS_FRAGMENT = `fragment MergeRequestLabels on MergeRequest {
  labels {
    nodes {
      id
      title
      color
    }
  }
}`;

const RELATED_MERGE_REQUESTS_QUERY = `query issueRelatedMergeRequests($fullPath: ID!, $iid: String!) {
  project(fullPath: $fullPath) {
    id
    issue(iid: $iid) {
      id
      relatedMergeRequests {
        count
        nodes {
          ...MergeRequestSidebarParts
          labels {
            nodes {
              title
            }
          }
        }
      }
    }
  }
}
${MERGE_REQUEST_FRAGMENT}`;

const RELATED_MERGE_REQUEST_LABELS_QUERY = `query issueRelatedMergeRequestLabels($fullPath: ID!, $iid: String!) {
  project(fullPath: $fullPath) {
    issue(iid: $iid) {
      relatedMergeRequests {
        nodes {
          id
          ...MergeRequestLabels
        }
      }
    }
  }
}
${LABELS_FRAGMENT}`;

const PROJECT_MERGE_REQUESTS_QUERY = `query projectMergeRequests(
  $fullPath: ID!
  $state: MergeRequestState
  $labels: [String!]
  $sourceBranches: [String!]
  $iids: [String!]
  $sort: MergeRequestSort
  $first: Int
  $after: String
) {
  project(fullPath: $fullPath) {
    id
    mergeRequests(state: $state, labels: $labels, sourceBranches: $sourceBranches, iids: $iids, sort: $sort, first: $first, after: $after) {
      count
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        ...MergeRequestSidebarParts
      }
    }
  }
}
${MERGE_REQUEST_FRAGMENT}`;

interface RestUser {
  id: number;
  username: string;
  name: string;
}
interface RestMergeRequest {
  id: number;
  iid: number;
  title: string;
  labels: string[];
  assignees: RestUser[];
  references: { short: string; full: string };
  time_stats: { total_time_spent: number };
}
interface RestLabel {
  id: number;
  name: string;
  color: string;
}
interface Connection<T> {
  count?: number;
  nodes: T[];
}
interface RelatedData {
  project: {
    id: string;
    issue: {
      id: string;
      relatedMergeRequests: Connection<{
        id: string;
        iid: string;
        title: string;
        reference: string;
        fullReference: string;
        totalTimeSpent: number;
        humanTotalTimeSpent: string | null;
        assignees: Connection<{ id: string; username: string; name: string; webPath: string }>;
        labels: Connection<{ title: string }>;
      }>;
    };
  };
}
type SidebarNode = RelatedData['project']['issue']['relatedMergeRequests']['nodes'][number];
interface ProjectMergeRequestsData {
  project: { id: string; mergeRequests: Connection<Omit<SidebarNode, 'labels'>> & { pageInfo: { hasNextPage: boolean; endCursor: string | null } } };
}
interface LabelsData {
  project: { issue: { relatedMergeRequests: Connection<{ id: string; labels: Connection<{ id: string; title: string; color: string }> }> } };
}

const PROJECT = 'gitlab-org/gitlab';

/** What the sidebar fragment reads from a REST merge request record. */
const asSidebarNode = (mergeRequest: RestMergeRequest) => ({
  id: `gid://gitlab/MergeRequest/${mergeRequest.id}`,
  iid: String(mergeRequest.iid),
  title: mergeRequest.title,
  reference: mergeRequest.references.short,
  fullReference: mergeRequest.references.full,
  totalTimeSpent: mergeRequest.time_stats.total_time_spent,
  humanTotalTimeSpent: formatHumanDuration(mergeRequest.time_stats.total_time_spent),
  assignees: { nodes: mergeRequest.assignees.map((user) => ({ id: `gid://gitlab/User/${user.id}`, username: user.username, name: user.name, webPath: `/${user.username}` })) },
});
const { maintainer } = DEMO_TOKENS;

describe('merge requests in GitLab style', () => {
  const harness = gatewayOverSimulator();

  /** An issue of the project whose related merge requests have labels and an assignee, as REST lists them. */
  async function issueWithLabelledMergeRequests(): Promise<{ iid: number; mergeRequests: RestMergeRequest[] }> {
    const issues = await harness.oracle.all<{ iid: number; merge_requests_count: number }>('/projects/1/issues?scope=all&state=all', maintainer);
    for (const issue of issues) {
      const mergeRequests = await harness.oracle.get<RestMergeRequest[]>(`/projects/1/issues/${issue.iid}/related_merge_requests`, maintainer);
      if (mergeRequests.some((mergeRequest) => mergeRequest.labels.length > 0 && mergeRequest.assignees.length > 0)) return { iid: issue.iid, mergeRequests };
    }
    throw new Error('The seed has no issue with a labelled, assigned merge request');
  }

  it('validates every document against the schema', () => {
    const schema = createExecutableSchema();
    for (const document of [RELATED_MERGE_REQUESTS_QUERY, RELATED_MERGE_REQUEST_LABELS_QUERY, PROJECT_MERGE_REQUESTS_QUERY]) expect(validate(schema, parse(document))).toEqual([]);
  });

  it('reads assignees, label titles, references and time spent from the merge request records alone', async () => {
    const { iid, mergeRequests } = await issueWithLabelledMergeRequests();
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<RelatedData>(RELATED_MERGE_REQUESTS_QUERY, { fullPath: PROJECT, iid: String(iid) }, maintainer);
    expect(result.errors).toBeUndefined();
    const calls = restCalls(harness.simulator);
    expect(result.data!.project.issue.relatedMergeRequests.nodes).toEqual(
      mergeRequests.map((mergeRequest) => ({ ...asSidebarNode(mergeRequest), labels: { nodes: mergeRequest.labels.map((title) => ({ title })) } })),
    );
    // The project, the issue, its merge requests: the records embed everything else.
    expect(calls).toEqual(['GET /projects/gitlab-org%2Fgitlab', `GET /projects/1/issues/${iid}`, expect.stringMatching(new RegExp(`^GET /projects/1/issues/${iid}/related_merge_requests`))]);
  });

  it('reads label details from one look-up of the project labels, shared by every merge request', async () => {
    const { iid, mergeRequests } = await issueWithLabelledMergeRequests();
    const projectLabels = await harness.oracle.all<RestLabel>('/projects/1/labels?include_ancestor_groups=true', maintainer);
    const labelNamed = (name: string) => projectLabels.find((label) => label.name === name)!;
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<LabelsData>(RELATED_MERGE_REQUEST_LABELS_QUERY, { fullPath: PROJECT, iid: String(iid) }, maintainer);
    expect(result.errors).toBeUndefined();
    const calls = restCalls(harness.simulator);
    expect(result.data!.project.issue.relatedMergeRequests.nodes).toEqual(
      mergeRequests.map((mergeRequest) => ({
        id: `gid://gitlab/MergeRequest/${mergeRequest.id}`,
        labels: { nodes: mergeRequest.labels.map((name) => ({ id: `gid://gitlab/Label/${labelNamed(name).id}`, title: name, color: labelNamed(name).color })) },
      })),
    );
    expect(calls.filter((call) => call.startsWith('GET /projects/1/labels'))).toHaveLength(1);
    expect(calls).toHaveLength(4);
  });

  it("lists the project's merge requests with GitLab's filters, page by page, as REST does", async () => {
    const expected = await harness.oracle.get<RestMergeRequest[]>('/projects/1/merge_requests?state=opened&order_by=updated_at&sort=asc&per_page=3', maintainer);
    harness.simulator.resetRequests();
    const variables = { fullPath: PROJECT, state: 'opened', sort: 'UPDATED_ASC', first: 3 };
    const result = await harness.gateway.query<ProjectMergeRequestsData>(PROJECT_MERGE_REQUESTS_QUERY, variables, maintainer);
    expect(result.errors).toBeUndefined();
    const calls = restCalls(harness.simulator);
    const { mergeRequests } = result.data!.project;
    expect(mergeRequests.nodes).toEqual(expected.map(asSidebarNode));
    const total = (await harness.oracle.all<RestMergeRequest>('/projects/1/merge_requests?state=opened', maintainer)).length;
    expect(mergeRequests.count).toBe(total);
    expect(mergeRequests.pageInfo.hasNextPage).toBe(total > 3);
    // The project by path, then one page of its merge requests: the records embed the rest.
    expect(calls).toEqual(['GET /projects/gitlab-org%2Fgitlab', 'GET /projects/1/merge_requests']);

    const next = await harness.gateway.query<ProjectMergeRequestsData>(PROJECT_MERGE_REQUESTS_QUERY, { ...variables, after: mergeRequests.pageInfo.endCursor }, maintainer);
    const expectedNext = await harness.oracle.get<RestMergeRequest[]>('/projects/1/merge_requests?state=opened&order_by=updated_at&sort=asc&per_page=3&page=2', maintainer);
    expect(next.data!.project.mergeRequests.nodes.map((node) => node.iid)).toEqual(expectedNext.map((mergeRequest) => String(mergeRequest.iid)));
  });

  it('filters by labels, source branch and iids as REST does', async () => {
    const all = await harness.oracle.all<RestMergeRequest & { source_branch: string }>('/projects/1/merge_requests', maintainer);
    const labelled = all.find((mergeRequest) => mergeRequest.labels.length > 0)!;
    const variables = { fullPath: PROJECT, labels: [labelled.labels[0]!], sourceBranches: [labelled.source_branch], iids: [String(labelled.iid)] };
    const result = await harness.gateway.query<ProjectMergeRequestsData>(PROJECT_MERGE_REQUESTS_QUERY, variables, maintainer);
    expect(result.errors).toBeUndefined();
    expect(result.data!.project.mergeRequests.nodes).toEqual([asSidebarNode(labelled)]);
  });

  it('refuses two source branches or a malformed iid before any REST call', async () => {
    for (const variables of [{ sourceBranches: ['main', 'feature'] }, { iids: ['one'] }]) {
      harness.simulator.resetRequests();
      const result = await harness.gateway.query<ProjectMergeRequestsData>(PROJECT_MERGE_REQUESTS_QUERY, { fullPath: PROJECT, ...variables }, maintainer);
      expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
      expect(restCalls(harness.simulator).filter((call) => call.includes('/merge_requests'))).toEqual([]);
    }
  });
});
