// The issue sidebar's writes in GitLab's own dialect, sent the way GitLab's web frontend sends them
// (named mutations, `$input` typed with GitLab's input types, ID scalars): createIssue, updateIssue
// with label IDs, issueSetAssignees, issueSetConfidential, issueSetLocked, issueSetDueDate,
// issueSetSubscription, issueMove, timelogCreate, todoCreate and todoMarkDone. Every document
// validates against the schema and runs over real HTTP against the gateway and the embedded v4
// server; each write is checked against what REST answers afterwards.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS, USER_IDS } from '../../simulator/index.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const { admin, maintainer, guest } = DEMO_TOKENS;
const schema = createExecutableSchema();
const PROJECT = 'gitlab-org/gitaly';
const PROJECT_PATH = encodeURIComponent(PROJECT);

const ISSUE_FRAGMENT = `
fragment SidebarIssue on Issue {
  id
  iid
  title
  state
  confidential
  discussionLocked
  dueDate
  subscribed
  moved
  movedToId
  webPath
  labels { nodes { id title } }
  assignees { nodes { id username } }
  milestone { id title }
}`;

const CREATE_ISSUE = `${ISSUE_FRAGMENT}
mutation createIssue($input: CreateIssueInput!) {
  createIssue(input: $input) { issue { ...SidebarIssue } errors }
}`;

const UPDATE_ISSUE = `${ISSUE_FRAGMENT}
mutation updateIssue($input: UpdateIssueInput!) {
  updateIssue(input: $input) { issue { ...SidebarIssue humanTimeEstimate } errors }
}`;

const SET_ASSIGNEES = `${ISSUE_FRAGMENT}
mutation issueSetAssignees($iid: String!, $assigneeUsernames: [String!]!, $fullPath: ID!, $operationMode: MutationOperationMode) {
  issueSetAssignees(input: { iid: $iid, assigneeUsernames: $assigneeUsernames, projectPath: $fullPath, operationMode: $operationMode }) {
    issue { ...SidebarIssue }
    errors
  }
}`;

const SET_CONFIDENTIAL = `
mutation updateIssueConfidential($input: IssueSetConfidentialInput!) {
  issueSetConfidential(input: $input) { issue { id confidential } errors }
}`;

const SET_LOCKED = `
mutation updateIssueLocked($input: IssueSetLockedInput!) {
  issueSetLocked(input: $input) { issue { id discussionLocked } errors }
}`;

const SET_DUE_DATE = `
mutation updateIssueDueDate($input: IssueSetDueDateInput!) {
  issueSetDueDate(input: $input) { issue { id dueDate } errors }
}`;

const SET_SUBSCRIPTION = `
mutation issueSetSubscription($fullPath: ID!, $iid: String!, $subscribedState: Boolean!) {
  updateIssuableSubscription: issueSetSubscription(input: { projectPath: $fullPath, iid: $iid, subscribedState: $subscribedState }) {
    issue { id subscribed }
    errors
  }
}`;

const MOVE_ISSUE = `${ISSUE_FRAGMENT}
mutation moveIssue($moveIssueInput: IssueMoveInput!) {
  issueMove(input: $moveIssueInput) { issue { ...SidebarIssue reference(full: true) } errors }
}`;

const CREATE_TIMELOG = `
mutation createTimelog($input: TimelogCreateInput!) {
  timelogCreate(input: $input) { errors }
}`;

const TIME_TRACKING = `
query issueTimeTracking($fullPath: ID!, $iid: String) {
  workspace: project(fullPath: $fullPath) {
    id
    issuable: issue(iid: $iid) { id timeEstimate totalTimeSpent humanTimeEstimate humanTotalTimeSpent currentUserTodos(state: pending) { nodes { id } } }
  }
}`;

const CREATE_TODO = `
mutation issuableTodoCreate($input: TodoCreateInput!) {
  todoCreate(input: $input) { todo { id state action targetType body author { username } } errors }
}`;

const MARK_DONE = `
mutation issuableTodoMarkDone($id: TodoID!) {
  todoMarkDone(input: { id: $id }) { todo { id state } errors }
}`;

const DOCUMENTS = { CREATE_ISSUE, UPDATE_ISSUE, SET_ASSIGNEES, SET_CONFIDENTIAL, SET_LOCKED, SET_DUE_DATE, SET_SUBSCRIPTION, MOVE_ISSUE, CREATE_TIMELOG, TIME_TRACKING, CREATE_TODO, MARK_DONE };

interface RestIssue {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  state: string;
  confidential: boolean;
  discussion_locked: boolean;
  due_date: string | null;
  subscribed: boolean;
  labels: string[];
  assignees: Array<{ id: number; username: string }>;
  milestone: { id: number; title: string } | null;
  moved_to_id: number | null;
  references: { full: string };
  time_stats: { time_estimate: number; total_time_spent: number };
}
interface RestLabel {
  id: number;
  name: string;
}
interface RestTodo {
  id: number;
  state: string;
  target: { iid: number };
}
interface GqlIssue {
  id: string;
  iid: string;
  title: string;
  state: string;
  confidential: boolean;
  discussionLocked: boolean;
  dueDate: string | null;
  subscribed: boolean;
  moved: boolean;
  movedToId: string | null;
  webPath: string;
  labels: { nodes: Array<{ id: string; title: string }> };
  assignees: { nodes: Array<{ id: string; username: string }> };
  milestone: { id: string; title: string } | null;
}
type Payload<K extends string, T = { issue: GqlIssue | null }> = Record<K, T & { errors: string[] }>;

const gid = (className: string, id: number) => `gid://gitlab/${className}/${id}`;

describe('sidebar write documents in GitLab\'s style', () => {
  it.each(Object.entries(DOCUMENTS))('%s validates against the schema', (_name, document) => {
    expect(validate(schema, parse(document))).toEqual([]);
  });
});

describe('the issue sidebar\'s writes over real HTTP', () => {
  const harness = gatewayOverSimulator();
  const send = <T>(document: string, variables: Record<string, unknown>, token: string = maintainer) => harness.gateway.query<T>(document, variables, token);
  const restIssue = (iid: number | string, project = PROJECT_PATH) => harness.oracle.get<RestIssue>(`/projects/${project}/issues/${iid}`, admin);
  const labelsOfProject = () => harness.oracle.all<RestLabel>(`/projects/${PROJECT_PATH}/labels`, maintainer);

  /** An open, non-confidential issue of the project that no earlier test changed. */
  const used = new Set<number>();
  async function freshIssue(): Promise<RestIssue> {
    const issues = await harness.oracle.all<RestIssue>(`/projects/${PROJECT_PATH}/issues?state=opened&confidential=false`, admin);
    const issue = issues.find((candidate) => !used.has(candidate.iid));
    if (!issue) throw new Error('no fresh issue left');
    used.add(issue.iid);
    harness.simulator.resetRequests();
    return issue;
  }

  it('createIssue: labels by ID, assignees, milestone and due date, read back from REST', async () => {
    const labels = await labelsOfProject();
    const [bug, groupLabel] = [labels.find((label) => label.name === 'bug')!, labels.find((label) => label.name === 'priority::high')!];
    const milestone = (await harness.oracle.get<Array<{ id: number; title: string }>>(`/projects/${PROJECT_PATH}/milestones?title=v2.0`, maintainer))[0]!;
    const input = {
      projectPath: PROJECT,
      title: 'Sidebar writes in GitLab\'s dialect',
      description: 'Filed through createIssue',
      labelIds: [gid('Label', bug.id), gid('GroupLabel', groupLabel.id)],
      assigneeIds: [gid('User', USER_IDS.developer)],
      milestoneId: gid('Milestone', milestone.id),
      dueDate: '2025-07-15',
      confidential: false,
    };
    const result = await send<Payload<'createIssue'>>(CREATE_ISSUE, { input });
    expect(result.errors).toBeUndefined();
    const { issue, errors } = result.data!.createIssue;
    expect(errors).toEqual([]);
    const rest = await restIssue(issue!.iid);
    expect(issue).toMatchObject({
      id: gid('Issue', rest.id),
      title: input.title,
      state: 'opened',
      webPath: `/${PROJECT}/-/issues/${rest.iid}`,
      labels: { nodes: [{ id: gid('Label', bug.id), title: 'bug' }, { id: gid('Label', groupLabel.id), title: 'priority::high' }] },
      assignees: { nodes: [{ id: gid('User', USER_IDS.developer), username: 'developer' }] },
      milestone: { id: gid('Milestone', milestone.id), title: 'v2.0' },
      subscribed: true,
    });
    expect(rest).toMatchObject({ labels: ['bug', 'priority::high'], due_date: '2025-07-15', milestone: { id: milestone.id } });
    // The project's labels give the IDs' titles (REST takes titles), then one POST.
    // The project's labels give the IDs' titles (REST takes titles) and then the new issue's label
    // details: one read of them, then one POST.
    expect(restCalls(harness.simulator).filter((call) => !call.startsWith('GET /projects/3/issues/'))).toEqual([`GET /projects/${PROJECT_PATH}/labels`, `POST /projects/${PROJECT_PATH}/issues`]);
  });

  it('createIssue: refuses an empty title and a label of another class before any REST call', async () => {
    const blank = await send(CREATE_ISSUE, { input: { projectPath: PROJECT, title: ' ' } });
    expect(blank.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'title' });
    const wrongClass = await send(CREATE_ISSUE, { input: { projectPath: PROJECT, title: 'x', labelIds: ['gid://gitlab/Milestone/1'] } });
    expect(wrongClass.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(restCalls(harness.simulator)).toEqual([]);
  });

  it('updateIssue: replaces labels by ID, then adds and removes, sets the estimate, closes and reopens', async () => {
    const issue = await freshIssue();
    const labels = await labelsOfProject();
    const id = (name: string) => gid('Label', labels.find((label) => label.name === name)!.id);
    const update = async (input: Record<string, unknown>) => {
      const result = await send<Payload<'updateIssue', { issue: (GqlIssue & { humanTimeEstimate: string | null }) | null }>>(UPDATE_ISSUE, { input: { projectPath: PROJECT, iid: String(issue.iid), ...input } });
      expect(result.errors).toBeUndefined();
      expect(result.data!.updateIssue.errors).toEqual([]);
      return result.data!.updateIssue.issue!;
    };
    const replaced = await update({ labelIds: [id('feature'), id('backend')] });
    expect(replaced.labels.nodes.map((label) => label.title)).toEqual(['feature', 'backend']);
    expect((await restIssue(issue.iid)).labels).toEqual(['feature', 'backend']);
    const edited = await update({ addLabelIds: [id('customer')], removeLabelIds: [id('feature')], timeEstimate: '1w 2d 3h 30m' });
    expect(edited.labels.nodes.map((label) => label.title)).toEqual(['backend', 'customer']);
    expect(edited.humanTimeEstimate).toBe('1w 2d 3h 30m');
    const rest = await restIssue(issue.iid);
    expect(rest.labels).toEqual(['backend', 'customer']);
    expect(rest.time_stats.time_estimate).toBe(144000 + 2 * 28800 + 3 * 3600 + 1800);
    expect((await update({ stateEvent: 'CLOSE' })).state).toBe('closed');
    expect((await restIssue(issue.iid)).state).toBe('closed');
    expect((await update({ stateEvent: 'REOPEN', milestoneId: null })).milestone).toBeNull();
    expect(await restIssue(issue.iid)).toMatchObject({ state: 'opened', milestone: null });
  });

  it('updateIssue: refuses a label ID none of the project\'s labels has, and labelIds with addLabelIds', async () => {
    const issue = await freshIssue();
    const unknown = await send(UPDATE_ISSUE, { input: { projectPath: PROJECT, iid: String(issue.iid), labelIds: ['gid://gitlab/Label/999999'] } });
    expect(unknown.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'labelIds' });
    const both = await send(UPDATE_ISSUE, { input: { projectPath: PROJECT, iid: String(issue.iid), labelIds: ['gid://gitlab/Label/1'], addLabelIds: ['gid://gitlab/Label/2'] } });
    expect(both.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'labelIds' });
    expect(restCalls(harness.simulator).filter((call) => call.startsWith('PUT'))).toEqual([]);
  });

  it('issueSetAssignees: replaces, appends and removes by username, as REST then lists them', async () => {
    const issue = await freshIssue();
    const assign = async (assigneeUsernames: string[], operationMode?: string) => {
      const result = await send<Payload<'issueSetAssignees'>>(SET_ASSIGNEES, { fullPath: PROJECT, iid: String(issue.iid), assigneeUsernames, ...(operationMode ? { operationMode } : {}) });
      expect(result.errors).toBeUndefined();
      const usernames = result.data!.issueSetAssignees.issue!.assignees.nodes.map((user) => user.username);
      expect((await restIssue(issue.iid)).assignees.map((user) => user.username)).toEqual(usernames);
      return usernames;
    };
    expect(await assign(['developer'])).toEqual(['developer']);
    expect(await assign(['maintainer'], 'APPEND')).toEqual(['developer', 'maintainer']);
    expect(await assign(['developer'], 'REMOVE')).toEqual(['maintainer']);
    expect(await assign([])).toEqual([]);
    const unknown = await send(SET_ASSIGNEES, { fullPath: PROJECT, iid: String(issue.iid), assigneeUsernames: ['nobody-at-all'] });
    expect(unknown.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'assigneeUsernames' });
  });

  it('issueSetConfidential, issueSetLocked and issueSetDueDate: one PUT each, as REST then has them', async () => {
    const issue = await freshIssue();
    const target = { projectPath: PROJECT, iid: String(issue.iid) };
    const confidential = await send<Payload<'issueSetConfidential', { issue: { confidential: boolean } }>>(SET_CONFIDENTIAL, { input: { ...target, confidential: true } });
    expect(confidential.data!.issueSetConfidential).toEqual({ issue: { id: gid('Issue', issue.id), confidential: true }, errors: [] });
    const locked = await send<Payload<'issueSetLocked', { issue: { discussionLocked: boolean } }>>(SET_LOCKED, { input: { ...target, locked: true } });
    expect(locked.data!.issueSetLocked.issue.discussionLocked).toBe(true);
    const due = await send<Payload<'issueSetDueDate', { issue: { dueDate: string | null } }>>(SET_DUE_DATE, { input: { ...target, dueDate: '2025-08-01T00:00:00Z' } });
    expect(due.data!.issueSetDueDate.issue.dueDate?.slice(0, 10)).toBe('2025-08-01');
    expect(await restIssue(issue.iid)).toMatchObject({ confidential: true, discussion_locked: true, due_date: '2025-08-01' });
    expect(restCalls(harness.simulator).filter((call) => call.startsWith('PUT'))).toEqual(Array(3).fill(`PUT /projects/${PROJECT_PATH}/issues/${issue.iid}`));
    const cleared = await send<Payload<'issueSetDueDate', { issue: { dueDate: string | null } }>>(SET_DUE_DATE, { input: { ...target, dueDate: null } });
    expect(cleared.data!.issueSetDueDate.issue.dueDate).toBeNull();
    expect((await restIssue(issue.iid)).due_date).toBeNull();
  });

  it('issueSetSubscription: subscribes and unsubscribes, and an unchanged state (REST 304) is no error', async () => {
    const issue = await freshIssue();
    const subscribe = async (subscribedState: boolean, token: string) => {
      const result = await send<Payload<'updateIssuableSubscription', { issue: { subscribed: boolean } }>>(SET_SUBSCRIPTION, { fullPath: PROJECT, iid: String(issue.iid), subscribedState }, token);
      expect(result.errors).toBeUndefined();
      return result.data!.updateIssuableSubscription;
    };
    expect(await subscribe(true, guest)).toMatchObject({ issue: { subscribed: true }, errors: [] });
    expect((await harness.oracle.get<RestIssue>(`/projects/${PROJECT_PATH}/issues/${issue.iid}`, guest)).subscribed).toBe(true);
    harness.simulator.resetRequests();
    expect(await subscribe(true, guest)).toMatchObject({ issue: { subscribed: true }, errors: [] });
    // REST's 304 has no body, so the issue is read as it stands.
    expect(restCalls(harness.simulator)).toEqual([`POST /projects/${PROJECT_PATH}/issues/${issue.iid}/subscribe`, `GET /projects/${PROJECT_PATH}/issues/${issue.iid}`]);
    expect(await subscribe(false, guest)).toMatchObject({ issue: { subscribed: false }, errors: [] });
    expect((await harness.oracle.get<RestIssue>(`/projects/${PROJECT_PATH}/issues/${issue.iid}`, guest)).subscribed).toBe(false);
  });

  it('issueMove: the new issue in the target project, the old one closed with movedToId', async () => {
    const issue = await freshIssue();
    const result = await send<Payload<'issueMove', { issue: (GqlIssue & { reference: string }) | null }>>(MOVE_ISSUE, { moveIssueInput: { projectPath: PROJECT, iid: String(issue.iid), targetProjectPath: 'gitlab-org/gitlab-runner' } }, admin);
    expect(result.errors).toBeUndefined();
    const moved = result.data!.issueMove.issue!;
    const target = await restIssue(moved.iid, encodeURIComponent('gitlab-org/gitlab-runner'));
    expect(moved).toMatchObject({ id: gid('Issue', target.id), title: issue.title, state: 'opened', reference: target.references.full, webPath: `/gitlab-org/gitlab-runner/-/issues/${target.iid}` });
    const original = await restIssue(issue.iid);
    expect(original).toMatchObject({ state: 'closed', moved_to_id: target.id });
    const after = await send<{ project: { issue: { moved: boolean; movedToId: string; state: string } } }>(
      `query movedIssue($fullPath: ID!, $iid: String) { project(fullPath: $fullPath) { issue(iid: $iid) { moved movedToId state } } }`,
      { fullPath: PROJECT, iid: String(issue.iid) },
      admin,
    );
    expect(after.data!.project.issue).toEqual({ moved: true, movedToId: gid('Issue', target.id), state: 'closed' });
    const same = await send<Payload<'issueMove'>>(MOVE_ISSUE, { moveIssueInput: { projectPath: 'gitlab-org/gitlab-runner', iid: moved.iid, targetProjectPath: 'gitlab-org/gitlab-runner' } }, admin);
    expect(same.data!.issueMove).toEqual({ issue: null, errors: ['Cannot move issue to project it originates from!'] });
  });

  it('timelogCreate: adds spent time to an issue by global ID, as REST then totals it', async () => {
    const issue = await freshIssue();
    const input = { issuableId: gid('Issue', issue.id), timeSpent: '1h 30m', spentAt: new Date().toISOString(), summary: 'Reviewed the sidebar' };
    const result = await send<Payload<'timelogCreate', object>>(CREATE_TIMELOG, { input }, admin);
    expect(result).toEqual({ data: { timelogCreate: { errors: [] } } });
    expect(restCalls(harness.simulator)).toEqual([`GET /issues/${issue.id}`, `POST /projects/3/issues/${issue.iid}/add_spent_time`]);
    const rest = await restIssue(issue.iid);
    expect(rest.time_stats.total_time_spent).toBe(issue.time_stats.total_time_spent + 5400);
    const read = await send<{ workspace: { issuable: { totalTimeSpent: number; humanTotalTimeSpent: string } } }>(TIME_TRACKING, { fullPath: PROJECT, iid: String(issue.iid) }, admin);
    expect(read.data!.workspace.issuable).toMatchObject({ totalTimeSpent: rest.time_stats.total_time_spent });
    const bad = await send(CREATE_TIMELOG, { input: { ...input, timeSpent: 'an hour' } }, admin);
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'timeSpent' });
    const forGuest = await send(CREATE_TIMELOG, { input }, guest);
    expect(forGuest.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('writes by global ID for anyone who read the issue through the gateway, without REST\'s administrator-only look-up', async () => {
    const issue = await freshIssue();
    const issuableId = gid('Issue', issue.id);
    const before = await send(CREATE_TODO, { input: { targetId: issuableId } }, maintainer);
    expect(before.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN', restStatus: 403 } });
    expect(before.errors?.[0]?.message).toMatch(/Read the issue through this gateway/);
    // The sidebar reads its issue (and so its `id`) before it writes.
    await send(TIME_TRACKING, { fullPath: PROJECT, iid: String(issue.iid) }, maintainer);
    harness.simulator.resetRequests();
    const todo = await send<Payload<'todoCreate', { todo: { state: string } | null }>>(CREATE_TODO, { input: { targetId: issuableId } }, maintainer);
    expect(todo.data!.todoCreate).toMatchObject({ errors: [], todo: { state: 'pending' } });
    const timelog = await send<Payload<'timelogCreate', object>>(CREATE_TIMELOG, { input: { issuableId, timeSpent: '30m', spentAt: new Date().toISOString(), summary: '' } }, maintainer);
    expect(timelog.data!.timelogCreate.errors).toEqual([]);
    expect(restCalls(harness.simulator).filter((call) => call.startsWith('GET /issues/'))).toEqual([]);
    expect((await restIssue(issue.iid)).time_stats.total_time_spent).toBe(issue.time_stats.total_time_spent + 1800);
  });

  it('todoCreate and todoMarkDone: a pending to-do on the issue, then done, as REST lists them', async () => {
    const issue = await freshIssue();
    const created = await send<Payload<'todoCreate', { todo: { id: string; state: string; action: string; targetType: string } | null }>>(CREATE_TODO, { input: { targetId: gid('Issue', issue.id) } }, admin);
    expect(created.errors).toBeUndefined();
    const todo = created.data!.todoCreate.todo!;
    expect(todo).toMatchObject({ state: 'pending', action: 'marked', targetType: 'ISSUE', body: issue.title, author: { username: 'root' } });
    const pending = await harness.oracle.all<RestTodo>('/todos?project_id=3&type=Issue', admin);
    expect(pending.filter((candidate) => candidate.target.iid === issue.iid).map((candidate) => gid('Todo', candidate.id))).toEqual([todo.id]);
    const sidebar = await send<{ workspace: { issuable: { currentUserTodos: { nodes: Array<{ id: string }> } } } }>(TIME_TRACKING, { fullPath: PROJECT, iid: String(issue.iid) }, admin);
    expect(sidebar.data!.workspace.issuable.currentUserTodos.nodes).toEqual([{ id: todo.id }]);

    const done = await send<Payload<'todoMarkDone', { todo: { id: string; state: string } }>>(MARK_DONE, { id: todo.id }, admin);
    expect(done.data!.todoMarkDone).toEqual({ todo: { id: todo.id, state: 'done' }, errors: [] });
    const doneList = await harness.oracle.all<RestTodo>('/todos?state=done', admin);
    expect(doneList.map((candidate) => gid('Todo', candidate.id))).toContain(todo.id);
    const again = await send<{ workspace: { issuable: { currentUserTodos: { nodes: unknown[] } } } }>(TIME_TRACKING, { fullPath: PROJECT, iid: String(issue.iid) }, admin);
    expect(again.data!.workspace.issuable.currentUserTodos.nodes).toEqual([]);

    const foreign = await send(MARK_DONE, { id: todo.id }, maintainer);
    expect(foreign.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', restStatus: 404 });
    const wrongClass = await send(MARK_DONE, { id: 'gid://gitlab/Issue/1' }, admin);
    expect(wrongClass.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
  });
});
