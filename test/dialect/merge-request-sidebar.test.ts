// A merge request's sidebar, asked the way GitLab's merge request sidebar asks: one merge request
// of a project by its iid (`workspace: project { issuable: mergeRequest(iid:) }`), with its
// participants, reviewers, milestone, reference, subscription and to-dos; fragments on `User` and
// `Milestone`, variables typed as GitLab types them. Each document validates against the schema and
// runs over HTTP against the embedded v4 server; every value is checked against REST's answer,
// with the REST calls it took.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const SIDEBAR_USER_FRAGMENT = `fragment SidebarUser on User {
  id
  username
  name
  avatarUrl
  webUrl
  webPath
}`;
const SIDEBAR_USER_AVAILABILITY_FRAGMENT = `fragment SidebarUserAvailability on User {
  status {
    availability
  }
}`;

const SIDEBAR_DETAILS_QUERY = `query mergeRequestSidebarInfo($fullPath: ID!, $iid: String!) {
  project(fullPath: $fullPath) {
    id
    mergeRequest(iid: $iid) {
      id
      iid
      webUrl
      webPath
    }
  }
}`;

const PARTICIPANTS_QUERY = `query mergeRequestSidebarParticipants($fullPath: ID!, $iid: String!, $withStatus: Boolean = false) {
  workspace: project(fullPath: $fullPath) {
    id
    issuable: mergeRequest(iid: $iid) {
      id
      participants {
        nodes {
          ...SidebarUser
          ...SidebarUserAvailability @include(if: $withStatus)
        }
      }
    }
  }
}
${SIDEBAR_USER_FRAGMENT}
${SIDEBAR_USER_AVAILABILITY_FRAGMENT}`;

const REVIEWERS_QUERY = `query mergeRequestSidebarReviewers($fullPath: ID!, $iid: String!) {
  workspace: project(fullPath: $fullPath) {
    id
    issuable: mergeRequest(iid: $iid) {
      id
      reviewers {
        count
        nodes {
          ...SidebarUser
        }
      }
      assignees {
        nodes {
          ...SidebarUser
        }
      }
    }
  }
}
${SIDEBAR_USER_FRAGMENT}`;

const ATTRIBUTES_QUERY = `query mergeRequestSidebarAttributes($fullPath: ID!, $iid: String!) {
  workspace: project(fullPath: $fullPath) {
    __typename
    issuable: mergeRequest(iid: $iid) {
      __typename
      id
      reference(full: true)
      subscribed
      attribute: milestone {
        ...SidebarMilestone
      }
      currentUserTodos(state: pending) {
        nodes {
          id
        }
      }
    }
  }
}
fragment SidebarMilestone on Milestone {
  id
  title
  webUrl
}`;

const LISTED_RECORD_FIELDS_QUERY = `query mergeRequestListDetails($fullPath: ID!, $first: Int) {
  project(fullPath: $fullPath) {
    id
    mergeRequests(first: $first) {
      nodes {
        iid
        webPath
        squash
        changesCount
        mergeError
        subscribed
        timeEstimate
        humanTimeEstimate
        diffRefs {
          baseSha
          headSha
          startSha
        }
        taskCompletionStatus {
          count
          completedCount
        }
        userPermissions {
          canMerge
        }
      }
    }
  }
}`;

const SET_MILESTONE_MUTATION = `mutation mergeRequestSidebarSetMilestone($fullPath: ID!, $iid: String!, $milestoneId: MilestoneID) {
  issuableSetAttribute: mergeRequestSetMilestone(input: { projectPath: $fullPath, iid: $iid, milestoneId: $milestoneId }) {
    __typename
    errors
    issuable: mergeRequest {
      __typename
      id
      attribute: milestone {
        ...SidebarMilestone
      }
    }
  }
}
fragment SidebarMilestone on Milestone {
  id
  title
  webUrl
}`;

const SET_SUBSCRIPTION_MUTATION = `mutation mergeRequestSidebarSetSubscription($fullPath: ID!, $iid: String!, $subscribedState: Boolean!) {
  updateIssuableSubscription: mergeRequestSetSubscription(input: { projectPath: $fullPath, iid: $iid, subscribedState: $subscribedState }) {
    issuable: mergeRequest {
      id
      subscribed
    }
    errors
  }
}`;

interface RestUser {
  id: number;
  username: string;
  name: string;
  avatar_url: string | null;
  web_url: string;
}
interface RestMergeRequest {
  id: number;
  iid: number;
  web_url: string;
  reviewers: RestUser[];
  assignees: RestUser[];
  references: { full: string };
  subscribed?: boolean;
  milestone: { id: number; title: string; web_url: string } | null;
  squash: boolean;
  changes_count: string;
  merge_error: string | null;
  diff_refs: { base_sha: string; head_sha: string; start_sha: string };
  task_completion_status: { count: number; completed_count: number };
  time_stats: { time_estimate: number };
  user: { can_merge: boolean };
}

const PROJECT = 'gitlab-org/gitlab';
const { maintainer, developer } = DEMO_TOKENS;

const pathOf = (url: string) => new URL(url).pathname;
const asSidebarUser = (user: RestUser) => ({
  id: `gid://gitlab/User/${user.id}`,
  username: user.username,
  name: user.name,
  avatarUrl: user.avatar_url,
  webUrl: user.web_url,
  webPath: pathOf(user.web_url),
});

describe("GitLab's merge request sidebar", () => {
  const harness = gatewayOverSimulator();

  /** The project's merge requests as REST lists them, and one asking a reviewer. */
  async function mergeRequests(): Promise<{ listed: RestMergeRequest[]; reviewed: RestMergeRequest }> {
    const listed = await harness.oracle.all<RestMergeRequest>('/projects/1/merge_requests', maintainer);
    return { listed, reviewed: listed.find((mergeRequest) => mergeRequest.reviewers.length > 0)! };
  }

  it('validates every document against the schema', () => {
    const schema = createExecutableSchema();
    for (const document of [SIDEBAR_DETAILS_QUERY, PARTICIPANTS_QUERY, REVIEWERS_QUERY, ATTRIBUTES_QUERY, LISTED_RECORD_FIELDS_QUERY, SET_MILESTONE_MUTATION, SET_SUBSCRIPTION_MUTATION]) expect(validate(schema, parse(document))).toEqual([]);
  });

  it('finds one merge request by its iid in one REST read, and answers null for one that does not exist', async () => {
    const { reviewed } = await mergeRequests();
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<{ project: { mergeRequest: unknown } }>(SIDEBAR_DETAILS_QUERY, { fullPath: PROJECT, iid: String(reviewed.iid) }, maintainer);
    expect(result.errors).toBeUndefined();
    expect(result.data!.project.mergeRequest).toEqual({ id: `gid://gitlab/MergeRequest/${reviewed.id}`, iid: String(reviewed.iid), webUrl: reviewed.web_url, webPath: pathOf(reviewed.web_url) });
    expect(restCalls(harness.simulator)).toEqual(['GET /projects/gitlab-org%2Fgitlab', `GET /projects/1/merge_requests/${reviewed.iid}`]);

    harness.simulator.resetRequests();
    const missing = await harness.gateway.query<{ project: { mergeRequest: unknown } }>(SIDEBAR_DETAILS_QUERY, { fullPath: PROJECT, iid: '999999' }, maintainer);
    expect(missing.errors).toBeUndefined();
    expect(missing.data!.project.mergeRequest).toBeNull();
    expect(restCalls(harness.simulator)).toEqual(['GET /projects/gitlab-org%2Fgitlab', 'GET /projects/1/merge_requests/999999']);
  });

  it('refuses an iid that is no number before any REST call', async () => {
    const result = await harness.gateway.query(SIDEBAR_DETAILS_QUERY, { fullPath: PROJECT, iid: 'first' }, maintainer);
    expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect(restCalls(harness.simulator).filter((call) => call.includes('/merge_requests'))).toEqual([]);
  });

  it('lists the participants as REST does, with their availability only when asked', async () => {
    const { reviewed } = await mergeRequests();
    const participants = await harness.oracle.all<RestUser>(`/projects/1/merge_requests/${reviewed.iid}/participants`, maintainer);
    expect(participants.length).toBeGreaterThan(1);
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<{ workspace: { issuable: { participants: { nodes: unknown[] } } } }>(PARTICIPANTS_QUERY, { fullPath: PROJECT, iid: String(reviewed.iid) }, maintainer);
    expect(result.errors).toBeUndefined();
    expect(result.data!.workspace.issuable.participants.nodes).toEqual(participants.map(asSidebarUser));
    expect(restCalls(harness.simulator)).toEqual(['GET /projects/gitlab-org%2Fgitlab', `GET /projects/1/merge_requests/${reviewed.iid}`, `GET /projects/1/merge_requests/${reviewed.iid}/participants`]);

    harness.simulator.resetRequests();
    const withStatus = await harness.gateway.query<{ workspace: { issuable: { participants: { nodes: Array<{ status: unknown }> } } } }>(PARTICIPANTS_QUERY, { fullPath: PROJECT, iid: String(reviewed.iid), withStatus: true }, maintainer);
    expect(withStatus.errors).toBeUndefined();
    for (const [index, participant] of participants.entries()) {
      const status = await harness.oracle.get<{ availability: string | null } | null>(`/users/${participant.id}/status`, maintainer);
      // A user who never set a status has every field null in REST, and no status in GitLab's GraphQL.
      expect(withStatus.data!.workspace.issuable.participants.nodes[index]!.status).toEqual(status?.availability ? { availability: status.availability.toUpperCase() } : null);
    }
    expect(restCalls(harness.simulator).filter((call) => call.startsWith('GET /users/')).sort()).toEqual(participants.map((participant) => `GET /users/${participant.id}/status`).sort());
  });

  it("serves the reviewers from the record REST embeds, with no further call", async () => {
    const { reviewed } = await mergeRequests();
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<{ workspace: { issuable: { reviewers: { count: number; nodes: unknown[] }; assignees: { nodes: unknown[] } } } }>(REVIEWERS_QUERY, { fullPath: PROJECT, iid: String(reviewed.iid) }, maintainer);
    expect(result.errors).toBeUndefined();
    expect(result.data!.workspace.issuable.reviewers).toEqual({ count: reviewed.reviewers.length, nodes: reviewed.reviewers.map(asSidebarUser) });
    expect(result.data!.workspace.issuable.assignees.nodes).toEqual(reviewed.assignees.map(asSidebarUser));
    expect(restCalls(harness.simulator)).toEqual(['GET /projects/gitlab-org%2Fgitlab', `GET /projects/1/merge_requests/${reviewed.iid}`]);
  });

  it("answers the reference, the caller's subscription, the milestone and the to-dos as REST does", async () => {
    const { listed } = await mergeRequests();
    for (const token of [maintainer, developer]) {
      for (const { iid } of listed.slice(0, 4)) {
        const record = await harness.oracle.get<RestMergeRequest>(`/projects/1/merge_requests/${iid}`, token);
        const todos = await harness.oracle.get<Array<{ id: number; target: { iid: number } }>>('/todos?project_id=1&type=MergeRequest&state=pending', token);
        harness.simulator.resetRequests();
        const result = await harness.gateway.query<{ workspace: { issuable: unknown } }>(ATTRIBUTES_QUERY, { fullPath: PROJECT, iid: String(iid) }, token);
        expect(result.errors).toBeUndefined();
        expect(result.data!.workspace).toEqual({
          __typename: 'Project',
          issuable: {
            __typename: 'MergeRequest',
            id: `gid://gitlab/MergeRequest/${record.id}`,
            reference: record.references.full,
            subscribed: record.subscribed,
            attribute: record.milestone ? { id: `gid://gitlab/Milestone/${record.milestone.id}`, title: record.milestone.title, webUrl: record.milestone.web_url } : null,
            currentUserTodos: { nodes: todos.filter((todo) => todo.target.iid === iid).map((todo) => ({ id: `gid://gitlab/Todo/${todo.id}` })) },
          },
        });
        expect(restCalls(harness.simulator)).toEqual(['GET /projects/gitlab-org%2Fgitlab', `GET /projects/1/merge_requests/${iid}`, 'GET /todos']);
      }
    }
  });

  it("serves a merge request's to-do with the merge request as its Todoable target", async () => {
    const { listed } = await mergeRequests();
    const { iid } = listed[1]!;
    const marked = await harness.oracle.call('POST', `/projects/1/merge_requests/${iid}/todo`, developer);
    expect(marked.status).toBe(201);
    const again = await harness.oracle.call('POST', `/projects/1/merge_requests/${iid}/todo`, developer);
    expect(again.status).toBe(304);
    const todos = await harness.oracle.get<Array<{ id: number; target_type: string; target: { iid: number; title: string; web_url: string } }>>('/todos?project_id=1&type=MergeRequest', developer);
    const ours = todos.filter((todo) => todo.target.iid === iid);
    expect(ours).toHaveLength(1);
    const document = `query mergeRequestTodos($fullPath: ID!, $iid: String!) {
  project(fullPath: $fullPath) {
    mergeRequest(iid: $iid) {
      currentUserTodos(state: pending) {
        nodes {
          id
          targetType
          target {
            __typename
            webUrl
            ... on MergeRequest {
              iid
              title
            }
          }
        }
      }
    }
  }
}`;
    const result = await harness.gateway.query<{ project: { mergeRequest: { currentUserTodos: { nodes: unknown[] } } } }>(document, { fullPath: PROJECT, iid: String(iid) }, developer);
    expect(result.errors).toBeUndefined();
    expect(result.data!.project.mergeRequest.currentUserTodos.nodes).toEqual(
      ours.map((todo) => ({ id: `gid://gitlab/Todo/${todo.id}`, targetType: 'MERGEREQUEST', target: { __typename: 'MergeRequest', webUrl: todo.target.web_url, iid: String(todo.target.iid), title: todo.target.title } })),
    );
  });

  it('says whether the caller is subscribed as the subscription changes', async () => {
    const { listed } = await mergeRequests();
    const record = await harness.oracle.get<RestMergeRequest>(`/projects/1/merge_requests/${listed[0]!.iid}`, developer);
    const action = record.subscribed ? 'unsubscribe' : 'subscribe';
    expect((await harness.oracle.call('POST', `/projects/1/merge_requests/${record.iid}/${action}`, developer)).status).toBe(201);
    const result = await harness.gateway.query<{ workspace: { issuable: { subscribed: boolean } } }>(ATTRIBUTES_QUERY, { fullPath: PROJECT, iid: String(record.iid) }, developer);
    expect(result.data!.workspace.issuable.subscribed).toBe(!record.subscribed);
  });

  it("reads what only a merge request's whole record has from that record, once per listed merge request", async () => {
    const listed = await harness.oracle.get<RestMergeRequest[]>('/projects/1/merge_requests?per_page=4', maintainer);
    const records = await Promise.all(listed.map((mergeRequest) => harness.oracle.get<RestMergeRequest>(`/projects/1/merge_requests/${mergeRequest.iid}`, maintainer)));
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<{ project: { mergeRequests: { nodes: unknown[] } } }>(LISTED_RECORD_FIELDS_QUERY, { fullPath: PROJECT, first: 4 }, maintainer);
    expect(result.errors).toBeUndefined();
    expect(result.data!.project.mergeRequests.nodes).toEqual(
      records.map((record) => ({
        iid: String(record.iid),
        webPath: pathOf(record.web_url),
        squash: record.squash,
        changesCount: record.changes_count,
        mergeError: record.merge_error,
        subscribed: record.subscribed,
        timeEstimate: record.time_stats.time_estimate,
        humanTimeEstimate: record.time_stats.time_estimate === 0 ? null : (expect.any(String) as unknown),
        diffRefs: { baseSha: record.diff_refs.base_sha, headSha: record.diff_refs.head_sha, startSha: record.diff_refs.start_sha },
        taskCompletionStatus: { count: record.task_completion_status.count, completedCount: record.task_completion_status.completed_count },
        userPermissions: { canMerge: record.user.can_merge },
      })),
    );
    const calls = restCalls(harness.simulator);
    expect(calls.slice(0, 2)).toEqual(['GET /projects/gitlab-org%2Fgitlab', 'GET /projects/1/merge_requests']);
    expect(calls.slice(2).sort()).toEqual(listed.map((mergeRequest) => `GET /projects/1/merge_requests/${mergeRequest.iid}`).sort());
  });

  it('sets and takes away the milestone with one REST write, as REST then reads it', async () => {
    const { listed } = await mergeRequests();
    const { iid } = listed[2]!;
    const milestone = [...harness.simulator.state.milestones.values()].find((candidate) => 'projectId' in candidate && candidate.projectId === 1)!;
    harness.simulator.resetRequests();
    const set = await harness.gateway.query<{ issuableSetAttribute: unknown }>(SET_MILESTONE_MUTATION, { fullPath: PROJECT, iid: String(iid), milestoneId: `gid://gitlab/Milestone/${milestone.id}` }, maintainer);
    expect(set.errors).toBeUndefined();
    expect(restCalls(harness.simulator)).toEqual([`PUT /projects/gitlab-org%2Fgitlab/merge_requests/${iid}`]);
    const record = await harness.oracle.get<RestMergeRequest>(`/projects/1/merge_requests/${iid}`, maintainer);
    expect(record.milestone?.id).toBe(milestone.id);
    expect(set.data!.issuableSetAttribute).toEqual({
      __typename: 'MergeRequestSetMilestonePayload',
      errors: [],
      issuable: { __typename: 'MergeRequest', id: `gid://gitlab/MergeRequest/${record.id}`, attribute: { id: `gid://gitlab/Milestone/${milestone.id}`, title: milestone.title, webUrl: record.milestone!.web_url } },
    });

    const cleared = await harness.gateway.query<{ issuableSetAttribute: { issuable: { attribute: unknown } } }>(SET_MILESTONE_MUTATION, { fullPath: PROJECT, iid: String(iid), milestoneId: null }, maintainer);
    expect(cleared.errors).toBeUndefined();
    expect(cleared.data!.issuableSetAttribute.issuable.attribute).toBeNull();
    expect((await harness.oracle.get<RestMergeRequest>(`/projects/1/merge_requests/${iid}`, maintainer)).milestone).toBeNull();
  });

  it('refuses a milestone ID of another class before any REST call', async () => {
    const result = await harness.gateway.query(SET_MILESTONE_MUTATION, { fullPath: PROJECT, iid: '1', milestoneId: 'gid://gitlab/Label/1' }, maintainer);
    expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect(restCalls(harness.simulator)).toEqual([]);
  });

  it('subscribes and unsubscribes the caller, one REST write each, and a repeat (REST 304) reads the merge request as it stands', async () => {
    const { listed } = await mergeRequests();
    const { iid } = listed[3]!;
    const before = await harness.oracle.get<RestMergeRequest>(`/projects/1/merge_requests/${iid}`, developer);
    for (const subscribedState of [!before.subscribed, before.subscribed!]) {
      harness.simulator.resetRequests();
      const result = await harness.gateway.query<{ updateIssuableSubscription: unknown }>(SET_SUBSCRIPTION_MUTATION, { fullPath: PROJECT, iid: String(iid), subscribedState }, developer);
      expect(result.errors).toBeUndefined();
      expect(result.data!.updateIssuableSubscription).toEqual({ issuable: { id: `gid://gitlab/MergeRequest/${before.id}`, subscribed: subscribedState }, errors: [] });
      expect(restCalls(harness.simulator)).toEqual([`POST /projects/gitlab-org%2Fgitlab/merge_requests/${iid}/${subscribedState ? 'subscribe' : 'unsubscribe'}`]);
      expect((await harness.oracle.get<RestMergeRequest>(`/projects/1/merge_requests/${iid}`, developer)).subscribed).toBe(subscribedState);
    }
    harness.simulator.resetRequests();
    const repeated = await harness.gateway.query<{ updateIssuableSubscription: unknown }>(SET_SUBSCRIPTION_MUTATION, { fullPath: PROJECT, iid: String(iid), subscribedState: before.subscribed }, developer);
    expect(repeated.data!.updateIssuableSubscription).toEqual({ issuable: { id: `gid://gitlab/MergeRequest/${before.id}`, subscribed: before.subscribed }, errors: [] });
    expect(restCalls(harness.simulator)).toEqual([`POST /projects/gitlab-org%2Fgitlab/merge_requests/${iid}/${before.subscribed ? 'subscribe' : 'unsubscribe'}`, `GET /projects/gitlab-org%2Fgitlab/merge_requests/${iid}`]);
  });
});
