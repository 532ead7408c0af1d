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
interface LabelsData {
  project: { issue: { relatedMergeRequests: Connection<{ id: string; labels: Connection<{ id: string; title: string; color: string }> }> } };
}

const PROJECT = 'gitlab-org/gitlab';
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
    for (const document of [RELATED_MERGE_REQUESTS_QUERY, RELATED_MERGE_REQUEST_LABELS_QUERY]) expect(validate(schema, parse(document))).toEqual([]);
  });

  it('reads assignees, label titles, references and time spent from the merge request records alone', async () => {
    const { iid, mergeRequests } = await issueWithLabelledMergeRequests();
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<RelatedData>(RELATED_MERGE_REQUESTS_QUERY, { fullPath: PROJECT, iid: String(iid) }, maintainer);
    expect(result.errors).toBeUndefined();
    const calls = restCalls(harness.simulator);
    expect(result.data!.project.issue.relatedMergeRequests.nodes).toEqual(
      mergeRequests.map((mergeRequest) => ({
        id: `gid://gitlab/MergeRequest/${mergeRequest.id}`,
        iid: String(mergeRequest.iid),
        title: mergeRequest.title,
        reference: mergeRequest.references.short,
        fullReference: mergeRequest.references.full,
        totalTimeSpent: mergeRequest.time_stats.total_time_spent,
        humanTotalTimeSpent: formatHumanDuration(mergeRequest.time_stats.total_time_spent),
        assignees: { nodes: mergeRequest.assignees.map((user) => ({ id: `gid://gitlab/User/${user.id}`, username: user.username, name: user.name, webPath: `/${user.username}` })) },
        labels: { nodes: mergeRequest.labels.map((title) => ({ title })) },
      })),
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
});
