// A merge request sidebar's writes, asked the way GitLab's merge request sidebar asks them: labels
// (by label ID, replaced, added or removed), the discussion lock, the time estimate and other
// attributes through `mergeRequestUpdate`, assignees by username, and marking to-dos done. Each
// document validates against the schema and runs over HTTP against the embedded v4 server; every
// value is checked against REST's answer, with the REST calls it took.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS, USER_IDS } from '../../simulator/index.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const SIDEBAR_LABEL_FRAGMENT = `fragment SidebarLabel on Label {
  id
  title
  color
  description
}`;

const SET_LABELS_MUTATION = `mutation mergeRequestSetLabels($input: MergeRequestSetLabelsInput!) {
  updateIssuableLabels: mergeRequestSetLabels(input: $input) {
    errors
    issuable: mergeRequest {
      id
      labels {
        nodes {
          ...SidebarLabel
        }
      }
    }
  }
}
${SIDEBAR_LABEL_FRAGMENT}`;

const SET_LOCKED_MUTATION = `mutation mergeRequestSetLocked($fullPath: ID!, $iid: String!, $locked: Boolean!) {
  issuableSetLocked: mergeRequestSetLocked(input: { projectPath: $fullPath, iid: $iid, locked: $locked }) {
    errors
    issuable: mergeRequest {
      id
      discussionLocked
    }
  }
}`;

const SET_TIME_ESTIMATE_MUTATION = `mutation mergeRequestSetTimeEstimate($input: MergeRequestUpdateInput!) {
  issuableSetTimeEstimate: mergeRequestUpdate(input: $input) {
    errors
    issuable: mergeRequest {
      id
      timeEstimate
      humanTimeEstimate
    }
  }
}`;

const UPDATE_MUTATION = `mutation mergeRequestUpdateAttributes($fullPath: ID!, $iid: String!, $title: String, $targetBranch: String, $state: MergeRequestNewState) {
  mergeRequestUpdate(input: { projectPath: $fullPath, iid: $iid, title: $title, targetBranch: $targetBranch, state: $state }) {
    errors
    mergeRequest {
      id
      title
      targetBranch
      state
    }
  }
}`;

const SET_ASSIGNEES_MUTATION = `mutation mergeRequestSetAssignees($fullPath: ID!, $iid: String!, $assigneeUsernames: [String!]!, $operationMode: MutationOperationMode) {
  issuableSetAssignees: mergeRequestSetAssignees(input: { projectPath: $fullPath, iid: $iid, assigneeUsernames: $assigneeUsernames, operationMode: $operationMode }) {
    errors
    issuable: mergeRequest {
      id
      assignees {
        nodes {
          id
          username
        }
      }
    }
  }
}`;

const TODOS_MARK_ALL_DONE_MUTATION = `mutation issuableTodosMarkAllDone($input: TodosMarkAllDoneInput!) {
  todoMutation: todosMarkAllDone(input: $input) {
    errors
    todos {
      id
      state
    }
  }
}`;

interface RestLabel {
  id: number;
  name: string;
  color: string;
  description: string | null;
}
interface RestMergeRequest {
  id: number;
  iid: number;
  title: string;
  state: string;
  labels: string[];
  target_branch: string;
  source_branch: string;
  discussion_locked: boolean | null;
  assignees: Array<{ id: number; username: string }>;
  time_stats: { time_estimate: number; human_time_estimate: string | null };
}
interface RestTodo {
  id: number;
  target: { id: number };
}

const PROJECT = 'gitlab-org/gitlab';
const ENCODED = 'gitlab-org%2Fgitlab';
const { maintainer, developer } = DEMO_TOKENS;

describe("GitLab's merge request sidebar writes", () => {
  const harness = gatewayOverSimulator();

  /** The project's open merge requests as REST lists them. */
  const openMergeRequests = () => harness.oracle.all<RestMergeRequest>('/projects/1/merge_requests?state=opened', maintainer);
  const mergeRequestRecord = (iid: number) => harness.oracle.get<RestMergeRequest>(`/projects/1/merge_requests/${iid}`, maintainer);
  const asSidebarLabel = (label: RestLabel) => ({ id: `gid://gitlab/Label/${label.id}`, title: label.name, color: label.color, description: label.description });

  it('validates every document against the schema', () => {
    const schema = createExecutableSchema();
    for (const document of [SET_LABELS_MUTATION, SET_LOCKED_MUTATION, SET_TIME_ESTIMATE_MUTATION, UPDATE_MUTATION, SET_ASSIGNEES_MUTATION, TODOS_MARK_ALL_DONE_MUTATION]) {
      expect(validate(schema, parse(document))).toEqual([]);
    }
  });

  it('replaces, adds and removes labels by label ID: the project labels read once, then one PUT, as REST then reads them', async () => {
    const { iid, id } = (await openMergeRequests())[0]!;
    const labels = await harness.oracle.all<RestLabel>('/projects/1/labels', maintainer);
    const [first, second, third] = labels;
    const steps: Array<{ mode?: 'REPLACE' | 'APPEND' | 'REMOVE'; ids: RestLabel[]; expected: RestLabel[] }> = [
      { ids: [first!, second!], expected: [first!, second!] },
      { mode: 'APPEND', ids: [third!], expected: [first!, second!, third!] },
      { mode: 'REMOVE', ids: [first!], expected: [second!, third!] },
    ];
    for (const step of steps) {
      harness.simulator.resetRequests();
      const input = { projectPath: PROJECT, iid: String(iid), labelIds: step.ids.map((label) => `gid://gitlab/Label/${label.id}`), ...(step.mode ? { operationMode: step.mode } : {}) };
      const result = await harness.gateway.query<{ updateIssuableLabels: unknown }>(SET_LABELS_MUTATION, { input }, maintainer);
      expect(result.errors).toBeUndefined();
      expect(restCalls(harness.simulator)).toEqual([`GET /projects/${ENCODED}/labels`, `PUT /projects/${ENCODED}/merge_requests/${iid}`]);
      const record = await mergeRequestRecord(iid);
      expect(record.labels).toEqual(step.expected.map((label) => label.name));
      expect(result.data!.updateIssuableLabels).toEqual({
        errors: [],
        issuable: { id: `gid://gitlab/MergeRequest/${id}`, labels: { nodes: record.labels.map((name) => asSidebarLabel(labels.find((label) => label.name === name)!)) } },
      });
    }
  });

  it('refuses a label the project does not have before the write, and an ID of another class before any call', async () => {
    const { iid, labels } = (await openMergeRequests())[1]!;
    const unknown = await harness.gateway.query(SET_LABELS_MUTATION, { input: { projectPath: PROJECT, iid: String(iid), labelIds: ['gid://gitlab/Label/999999'] } }, maintainer);
    expect(unknown.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect(restCalls(harness.simulator)).toEqual([`GET /projects/${ENCODED}/labels`]);
    expect((await mergeRequestRecord(iid)).labels).toEqual(labels);
    harness.simulator.resetRequests();
    const otherClass = await harness.gateway.query(SET_LABELS_MUTATION, { input: { projectPath: PROJECT, iid: String(iid), labelIds: ['gid://gitlab/Milestone/1'] } }, maintainer);
    expect(otherClass.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect(restCalls(harness.simulator)).toEqual([]);
  });

  it('locks and unlocks the discussion with one PUT each, as REST then reads it', async () => {
    const { iid, id } = (await openMergeRequests())[1]!;
    for (const locked of [true, false]) {
      harness.simulator.resetRequests();
      const result = await harness.gateway.query<{ issuableSetLocked: unknown }>(SET_LOCKED_MUTATION, { fullPath: PROJECT, iid: String(iid), locked }, maintainer);
      expect(result.errors).toBeUndefined();
      expect(restCalls(harness.simulator)).toEqual([`PUT /projects/${ENCODED}/merge_requests/${iid}`]);
      expect((await mergeRequestRecord(iid)).discussion_locked).toBe(locked);
      expect(result.data!.issuableSetLocked).toEqual({ errors: [], issuable: { id: `gid://gitlab/MergeRequest/${id}`, discussionLocked: locked } });
    }
  });

  it("sets the time estimate through REST's estimate endpoint and resets it with 0, reading the merge request after", async () => {
    const { iid, id } = (await openMergeRequests())[0]!;
    for (const [timeEstimate, endpoint] of [
      ['1h 30m', 'time_estimate'],
      ['0', 'reset_time_estimate'],
    ] as const) {
      harness.simulator.resetRequests();
      const result = await harness.gateway.query<{ issuableSetTimeEstimate: unknown }>(SET_TIME_ESTIMATE_MUTATION, { input: { projectPath: PROJECT, iid: String(iid), timeEstimate } }, developer);
      expect(result.errors).toBeUndefined();
      expect(restCalls(harness.simulator)).toEqual([`POST /projects/${ENCODED}/merge_requests/${iid}/${endpoint}`, `GET /projects/${ENCODED}/merge_requests/${iid}`]);
      const record = await mergeRequestRecord(iid);
      expect(record.time_stats.time_estimate).toBe(endpoint === 'time_estimate' ? 5400 : 0);
      expect(result.data!.issuableSetTimeEstimate).toEqual({
        errors: [],
        issuable: { id: `gid://gitlab/MergeRequest/${id}`, timeEstimate: record.time_stats.time_estimate, humanTimeEstimate: record.time_stats.human_time_estimate },
      });
    }
  });

  it('refuses a malformed or negative time estimate before any REST call', async () => {
    for (const timeEstimate of ['soon', '-1h']) {
      const result = await harness.gateway.query(SET_TIME_ESTIMATE_MUTATION, { input: { projectPath: PROJECT, iid: '1', timeEstimate } }, developer);
      expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    }
    expect(restCalls(harness.simulator)).toEqual([]);
  });

  it('changes the title, target branch and state in one PUT, and answers REST\'s branch conflict as the payload\'s errors', async () => {
    const mergeRequest = (await openMergeRequests())[2]!;
    const result = await harness.gateway.query<{ mergeRequestUpdate: unknown }>(
      UPDATE_MUTATION,
      { fullPath: PROJECT, iid: String(mergeRequest.iid), title: 'Retitled in the sidebar', targetBranch: 'stable', state: 'CLOSED' },
      maintainer,
    );
    expect(result.errors).toBeUndefined();
    expect(restCalls(harness.simulator)).toEqual([`PUT /projects/${ENCODED}/merge_requests/${mergeRequest.iid}`]);
    const record = await mergeRequestRecord(mergeRequest.iid);
    expect(record).toMatchObject({ title: 'Retitled in the sidebar', target_branch: 'stable', state: 'closed' });
    expect(result.data!.mergeRequestUpdate).toEqual({ errors: [], mergeRequest: { id: `gid://gitlab/MergeRequest/${record.id}`, title: record.title, targetBranch: record.target_branch, state: 'closed' } });

    const reopened = await harness.gateway.query<{ mergeRequestUpdate: { mergeRequest: { state: string } } }>(UPDATE_MUTATION, { fullPath: PROJECT, iid: String(mergeRequest.iid), state: 'OPEN' }, maintainer);
    expect(reopened.data!.mergeRequestUpdate.mergeRequest.state).toBe('opened');
    expect((await mergeRequestRecord(mergeRequest.iid)).state).toBe('opened');

    const conflict = await harness.gateway.query<{ mergeRequestUpdate: unknown }>(UPDATE_MUTATION, { fullPath: PROJECT, iid: String(mergeRequest.iid), targetBranch: record.source_branch }, maintainer);
    expect(conflict.errors).toBeUndefined();
    expect(conflict.data!.mergeRequestUpdate).toEqual({ errors: ["You can't use same project/branch for source and target"], mergeRequest: null });
    expect((await mergeRequestRecord(mergeRequest.iid)).target_branch).toBe('stable');
  });

  it('refuses an empty title before any REST call', async () => {
    const result = await harness.gateway.query(UPDATE_MUTATION, { fullPath: PROJECT, iid: '1', title: '  ' }, maintainer);
    expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect(restCalls(harness.simulator)).toEqual([]);
  });

  it('sets the assignee by username (one look-up, one PUT), and REMOVE unassigns from the merge request as REST read it', async () => {
    const { iid, id } = (await openMergeRequests())[3]!;
    const set = await harness.gateway.query<{ issuableSetAssignees: unknown }>(SET_ASSIGNEES_MUTATION, { fullPath: PROJECT, iid: String(iid), assigneeUsernames: ['developer'] }, maintainer);
    expect(set.errors).toBeUndefined();
    expect(restCalls(harness.simulator)).toEqual(['GET /users', `PUT /projects/${ENCODED}/merge_requests/${iid}`]);
    const record = await mergeRequestRecord(iid);
    expect(record.assignees.map((user) => user.id)).toEqual([USER_IDS.developer]);
    expect(set.data!.issuableSetAssignees).toEqual({ errors: [], issuable: { id: `gid://gitlab/MergeRequest/${id}`, assignees: { nodes: record.assignees.map((user) => ({ id: `gid://gitlab/User/${user.id}`, username: user.username })) } } });

    harness.simulator.resetRequests();
    const removed = await harness.gateway.query<{ issuableSetAssignees: unknown }>(SET_ASSIGNEES_MUTATION, { fullPath: PROJECT, iid: String(iid), assigneeUsernames: ['developer'], operationMode: 'REMOVE' }, maintainer);
    expect(removed.errors).toBeUndefined();
    expect(restCalls(harness.simulator).sort()).toEqual(['GET /users', `GET /projects/${ENCODED}/merge_requests/${iid}`, `PUT /projects/${ENCODED}/merge_requests/${iid}`].sort());
    expect((await mergeRequestRecord(iid)).assignees).toEqual([]);
  });

  it("marks a merge request's pending to-dos done one by one, leaving the others pending, and answers them", async () => {
    const [first, second] = await openMergeRequests();
    for (const mergeRequest of [first!, second!]) expect((await harness.oracle.call('POST', `/projects/1/merge_requests/${mergeRequest.iid}/todo`, developer)).status).toBe(201);
    const pending = await harness.oracle.all<RestTodo>('/todos?type=MergeRequest', developer);
    const ofFirst = pending.filter((todo) => todo.target.id === first!.id);
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<{ todoMutation: unknown }>(TODOS_MARK_ALL_DONE_MUTATION, { input: { targetId: `gid://gitlab/MergeRequest/${first!.id}` } }, developer);
    expect(result.errors).toBeUndefined();
    expect(result.data!.todoMutation).toEqual({ errors: [], todos: ofFirst.map((todo) => ({ id: `gid://gitlab/Todo/${todo.id}`, state: 'done' })) });
    expect(restCalls(harness.simulator)).toEqual(['GET /todos', ...ofFirst.map((todo) => `POST /todos/${todo.id}/mark_as_done`)]);
    expect(harness.simulator.requests[0]!.query).toMatchObject({ state: 'pending', type: 'MergeRequest' });
    const left = await harness.oracle.all<RestTodo>('/todos?type=MergeRequest', developer);
    expect(left.map((todo) => todo.id)).toEqual(pending.filter((todo) => todo.target.id !== first!.id).map((todo) => todo.id));
  });

  it("marks all the caller's pending to-dos done with REST's mark-all, answering those that were pending", async () => {
    const pending = await harness.oracle.all<RestTodo>('/todos', developer);
    expect(pending.length).toBeGreaterThan(0);
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<{ todoMutation: unknown }>(TODOS_MARK_ALL_DONE_MUTATION, { input: {} }, developer);
    expect(result.errors).toBeUndefined();
    expect(result.data!.todoMutation).toEqual({ errors: [], todos: pending.map((todo) => ({ id: `gid://gitlab/Todo/${todo.id}`, state: 'done' })) });
    expect(restCalls(harness.simulator)).toEqual([...Array.from({ length: Math.ceil(pending.length / 100) }, () => 'GET /todos'), 'POST /todos/mark_as_done']);
    expect(await harness.oracle.all<RestTodo>('/todos', developer)).toEqual([]);
  });

  it('refuses a to-do target the gateway serves no to-dos of before any REST call', async () => {
    const result = await harness.gateway.query(TODOS_MARK_ALL_DONE_MUTATION, { input: { targetId: 'gid://gitlab/Epic/1' } }, developer);
    expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect(restCalls(harness.simulator)).toEqual([]);
  });
});
