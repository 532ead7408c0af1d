import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, ids, list, record } from './helpers.js';

let sim: Simulator;
const { admin, maintainer, developer, guest, outsider } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

/** A project label's id by name. */
const labelId = (projectId: number, name: string) => [...sim.state.labels.values()].find((label) => label.projectId === projectId && label.name === name)!.id;

describe('GET /projects/:id/boards', () => {
  it('lists the boards with their lists, and an empty array for a project without any', async () => {
    const boards = list(await call(sim, '/projects/gitlab-org%2Fgitlab/boards', { token: guest }));
    expect(boards.length).toBeGreaterThan(0);
    expect(boards[0]).toMatchObject({ name: 'Development', project: { path_with_namespace: 'gitlab-org/gitlab' }, lists: expect.any(Array) as unknown[] });
    const lists = boards[0]!['lists'] as Array<{ position: number; label: { name: string } }>;
    expect(lists.map((l) => l.position)).toEqual([0, 1, 2]);
    const none = await call(sim, '/projects/gitlab-org%2Fomnibus-gitlab/boards', { token: guest });
    expect(none.status).toBe(200);
    expect(list(none)).toEqual([]);
  });

  it('needs a credential, and hides private projects from non-members', async () => {
    expect((await call(sim, '/projects/1/boards')).status).toBe(401);
    expect((await call(sim, '/projects/acme%2Fplatform%2Fportal/boards', { token: outsider })).status).toBe(404);
  });

  it('reads a board and its lists one by one; a board of another project is not found', async () => {
    const board = record(await call(sim, '/projects/1/boards/1', { token: guest }));
    expect(board['milestone']).toBeNull();
    const lists = list(await call(sim, '/projects/1/boards/1/lists', { token: guest }));
    expect(lists).toEqual(board['lists']);
    expect(record(await call(sim, `/projects/1/boards/1/lists/${String(lists[1]!['id'])}`, { token: guest }))).toEqual(lists[1]);
    const foreign = await call(sim, '/projects/2/boards/1', { token: guest });
    expect(foreign.status).toBe(404);
    expect(record(foreign)).toEqual({ message: '404 Not found' });
  });

  it('gives the milestone\'s id and title in reads and the whole milestone in an update', async () => {
    const scoped = [...sim.state.boards.values()].find((board) => board.milestoneId !== null)!;
    const read = record(await call(sim, `/projects/${scoped.projectId}/boards/${scoped.id}`, { token: admin }));
    expect(Object.keys(read['milestone'] as object).sort()).toEqual(['id', 'title']);
    const updated = record(await call(sim, `/projects/${scoped.projectId}/boards/${scoped.id}`, { method: 'PUT', token: admin, json: { name: scoped.name } }));
    expect(updated['milestone']).toMatchObject({ id: scoped.milestoneId, iid: expect.any(Number) as number, state: 'active' });
    expect(updated['project']).toHaveProperty('last_activity_at');
  });
});

describe('board writes', () => {
  it('creates, updates with a PREMIUM scope, and deletes a board', async () => {
    const created = await call(sim, '/projects/1/boards', { method: 'POST', token: developer, form: 'name=Triage' });
    expect(created.status).toBe(201);
    const board = record(created);
    expect(board).toMatchObject({ name: 'Triage', lists: [], labels: [], weight: null, milestone: null, assignee: null });
    const milestone = [...sim.state.milestones.values()].find((m) => m.projectId === 1)!;
    const updated = record(
      await call(sim, `/projects/1/boards/${String(board['id'])}`, { method: 'PUT', token: developer, form: `name=Triage%202&weight=4&labels=bug,backend,nonexistent&milestone_id=${milestone.id}&assignee_id=3` }),
    );
    expect(updated).toMatchObject({ name: 'Triage 2', weight: 4, milestone: { id: milestone.id, title: milestone.title }, assignee: { id: 3 } });
    expect((updated['labels'] as Array<{ name: string }>).map((label) => label.name).sort()).toEqual(['backend', 'bug']);
    const tooHeavy = await call(sim, `/projects/1/boards/${String(board['id'])}`, { method: 'PUT', token: developer, form: 'weight=10' });
    expect(tooHeavy.status).toBe(400);
    expect(record(tooHeavy)).toEqual({ error: 'weight does not have a valid value' });
    expect((await call(sim, `/projects/1/boards/${String(board['id'])}`, { method: 'DELETE', token: developer })).status).toBe(204);
    expect((await call(sim, `/projects/1/boards/${String(board['id'])}`, { token: developer })).status).toBe(404);
  });

  it('is for Reporters and above', async () => {
    expect((await call(sim, '/projects/1/boards', { method: 'POST', token: guest, form: 'name=Mine' })).status).toBe(403);
    expect((await call(sim, '/projects/1/boards', { method: 'POST', token: developer })).status).toBe(400);
  });
});

describe('board lists', () => {
  it('takes exactly one of label_id, assignee_id and milestone_id', async () => {
    const none = await call(sim, '/projects/1/boards/1/lists', { method: 'POST', token: developer });
    expect(record(none)).toEqual({ error: 'label_id, assignee_id, milestone_id are missing, exactly one parameter must be provided' });
    const two = await call(sim, '/projects/1/boards/1/lists', { method: 'POST', token: developer, form: 'label_id=1&milestone_id=1' });
    expect(two.status).toBe(400);
    expect(record(two)).toEqual({ error: 'label_id, milestone_id are mutually exclusive' });
  });

  it('adds a label list at the end, refuses a label listed already, and an unknown label', async () => {
    const created = await call(sim, '/projects/1/boards/1/lists', { method: 'POST', token: developer, form: `label_id=${labelId(1, 'bug')}` });
    expect(created.status).toBe(201);
    expect(record(created)).toMatchObject({ label: { name: 'bug' }, position: 3, max_issue_count: 0, limit_metric: null });
    const again = await call(sim, '/projects/1/boards/1/lists', { method: 'POST', token: developer, form: `label_id=${labelId(1, 'bug')}` });
    expect(again.status).toBe(400);
    expect(record(again)).toEqual({ message: { error: 'Label has already been taken' } });
    const foreign = await call(sim, '/projects/1/boards/1/lists', { method: 'POST', token: developer, form: `label_id=${labelId(2, 'bug')}` });
    expect(record(foreign)).toEqual({ message: '404 Label Not Found' });
  });

  it('takes the labels and milestones of the project\'s groups too', async () => {
    const customer = [...sim.state.groupLabels.values()].find((candidate) => candidate.groupId === 1 && candidate.name === 'customer')!;
    const created = await call(sim, '/projects/1/boards/1/lists', { method: 'POST', token: developer, form: `label_id=${customer.id}` });
    expect(created.status).toBe(201);
    expect(record(created)).toMatchObject({ label: { id: customer.id, name: 'customer' } });
    const release = [...sim.state.groupMilestones.values()].find((candidate) => candidate.groupId === 1)!;
    const updated = record(await call(sim, '/projects/1/boards/1', { method: 'PUT', token: developer, json: { milestone_id: release.id, labels: 'customer' } }));
    expect(updated).toMatchObject({ milestone: { id: release.id, group_id: 1 }, labels: [{ id: customer.id, name: 'customer' }] });
    record(await call(sim, '/projects/1/boards/1', { method: 'PUT', token: developer, json: { milestone_id: 0, labels: '' } }));
  });

  it('adds assignee and milestone lists (PREMIUM)', async () => {
    const byAssignee = record(await call(sim, '/projects/1/boards/1/lists', { method: 'POST', token: developer, form: 'assignee_id=3' }));
    expect(byAssignee).toMatchObject({ label: null, assignee: { username: 'developer' } });
    const milestone = [...sim.state.milestones.values()].find((m) => m.projectId === 1)!;
    const byMilestone = record(await call(sim, '/projects/1/boards/1/lists', { method: 'POST', token: developer, form: `milestone_id=${milestone.id}` }));
    expect(byMilestone).toMatchObject({ label: null, milestone: { title: milestone.title } });
  });

  it('moves a list and shifts the others; a position past the end is refused', async () => {
    const before = ids(await call(sim, '/projects/1/boards/1/lists', { token: developer }));
    const last = before[before.length - 1]!;
    const moved = record(await call(sim, `/projects/1/boards/1/lists/${last}`, { method: 'PUT', token: developer, form: 'position=0' }));
    expect(moved['position']).toBe(0);
    const after = list(await call(sim, '/projects/1/boards/1/lists', { token: developer }));
    expect(after.map((l) => l['id'])).toEqual([last, ...before.slice(0, -1)]);
    expect(after.map((l) => l['position'])).toEqual(before.map((_id, index) => index));
    const tooFar = await call(sim, `/projects/1/boards/1/lists/${last}`, { method: 'PUT', token: developer, form: `position=${before.length}` });
    expect(tooFar.status).toBe(400);
    expect(record(tooFar)).toEqual({ message: { error: 'List could not be moved!' } });
  });

  it('lets only administrators and project owners delete a list', async () => {
    const lists = ids(await call(sim, '/projects/1/boards/1/lists', { token: developer }));
    const target = lists[0]!;
    expect((await call(sim, `/projects/1/boards/1/lists/${target}`, { method: 'DELETE', token: maintainer })).status).toBe(403);
    expect((await call(sim, `/projects/1/boards/1/lists/${target}`, { method: 'DELETE', token: admin })).status).toBe(204);
    const after = list(await call(sim, '/projects/1/boards/1/lists', { token: developer }));
    expect(after.map((l) => l['id'])).toEqual(lists.slice(1));
    expect(after.map((l) => l['position'])).toEqual(lists.slice(1).map((_id, index) => index));
    // The maintainer owns the opensource group, so its projects' lists are theirs to delete.
    const board = [...sim.state.boards.values()].find((b) => b.projectId === 23)!;
    const ownList = [...sim.state.boardLists.values()].find((l) => l.boardId === board.id)!;
    expect((await call(sim, `/projects/23/boards/${board.id}/lists/${ownList.id}`, { method: 'DELETE', token: maintainer })).status).toBe(204);
  });
});

describe('board settings (GitLab 13.8)', () => {
  it('shows and changes hide_backlog_list and hide_closed_list', async () => {
    const board = record(await call(sim, '/projects/1/boards/1', { token: guest }));
    expect(board).toMatchObject({ hide_backlog_list: false, hide_closed_list: false });
    const updated = record(await call(sim, '/projects/1/boards/1', { method: 'PUT', token: developer, json: { hide_backlog_list: true, hide_closed_list: true } }));
    expect(updated).toMatchObject({ hide_backlog_list: true, hide_closed_list: true });
    const restored = record(await call(sim, '/projects/1/boards/1', { method: 'PUT', token: developer, form: 'hide_backlog_list=false&hide_closed_list=false' }));
    expect(restored).toMatchObject({ hide_backlog_list: false, hide_closed_list: false });
  });
});

describe('group boards (/groups/:id/boards)', () => {
  it('lists a group\'s boards, each naming its group and no project', async () => {
    const boards = list(await call(sim, '/groups/gitlab-org/boards', { token: guest }));
    expect(boards.map((board) => board['name'])).toEqual(['Planning']);
    expect((boards[0]!['lists'] as Array<{ label: { name: string } }>).map((l) => l.label.name)).toEqual(['priority::high', 'customer']);
    expect(boards[0]).toMatchObject({ project: null, group: { id: 1, name: 'GitLab.org', web_url: expect.stringMatching(/\/groups\/gitlab-org$/) as string }, hide_backlog_list: false });
    expect((boards[0]!['lists'] as unknown[]).length).toBeGreaterThan(0);
    // A project board is not the group's, and a group board is not a project's.
    const projectBoard = [...sim.state.boards.values()].find((board) => board.projectId === 1)!;
    expect((await call(sim, `/groups/1/boards/${projectBoard.id}`, { token: guest })).status).toBe(404);
    expect((await call(sim, `/projects/1/boards/${String(boards[0]!['id'])}`, { token: guest })).status).toBe(404);
  });

  it('hides a private group\'s boards from outsiders and needs a credential', async () => {
    expect((await call(sim, '/groups/acme/boards', { token: outsider })).status).toBe(404);
    expect((await call(sim, '/groups/gitlab-org/boards')).status).toBe(401);
  });

  it('creates, updates and deletes a group board, and manages its lists', async () => {
    expect((await call(sim, '/groups/gitlab-org/boards', { method: 'POST', token: outsider, form: 'name=Mine' })).status).toBe(403);
    const created = await call(sim, '/groups/gitlab-org/boards', { method: 'POST', token: admin, form: 'name=Roadmap' });
    expect(created.status).toBe(201);
    const boardId = String(record(created)['id']);
    expect(record(await call(sim, `/groups/1/boards/${boardId}`, { method: 'PUT', token: admin, json: { name: 'Roadmap 2', hide_closed_list: true } }))).toMatchObject({ name: 'Roadmap 2', hide_closed_list: true, group: { id: 1 } });
    // A group board takes group labels; a project's label is not the group's.
    expect(record(await call(sim, `/groups/1/boards/${boardId}/lists`, { method: 'POST', token: admin, form: `label_id=${labelId(1, 'bug')}` }))).toEqual({ message: '404 Label Not Found' });
    const customer = [...sim.state.groupLabels.values()].find((candidate) => candidate.groupId === 1 && candidate.name === 'customer')!;
    const label = record(await call(sim, `/groups/1/boards/${boardId}/lists`, { method: 'POST', token: admin, form: `label_id=${customer.id}` }));
    expect(label).toMatchObject({ label: { id: customer.id, name: 'customer' }, position: 0 });
    expect(record(await call(sim, `/groups/1/boards/${boardId}/lists/${String(label['id'])}`, { token: guest }))).toEqual(label);
    expect((await call(sim, `/groups/1/boards/${boardId}/lists/${String(label['id'])}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect(list(await call(sim, `/groups/1/boards/${boardId}/lists`, { token: guest }))).toEqual([]);
    expect((await call(sim, `/groups/1/boards/${boardId}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect((await call(sim, `/groups/1/boards/${boardId}`, { token: admin })).status).toBe(404);
  });
});

describe('PUT /projects/:id/issues/:issue_iid/reorder', () => {
  const boardOrder = (projectId: number) =>
    [...sim.state.issues.values()].filter((issue) => issue.projectId === projectId).sort((a, b) => a.relativePosition - b.relativePosition || b.id - a.id).map((issue) => issue.id);

  it('puts the issue between the two it is given, in the order relative_position lists', async () => {
    const [first, second, third] = boardOrder(1);
    const moving = [...sim.state.issues.values()].find((issue) => issue.id === third)!;
    const answer = await call(sim, `/projects/1/issues/${moving.iid}/reorder`, { method: 'PUT', token: developer, form: `move_before_id=${first}&move_after_id=${second}` });
    expect(answer.status).toBe(200);
    expect(record(answer)).toMatchObject({ id: moving.id, iid: moving.iid });
    expect(boardOrder(1).slice(0, 3)).toEqual([first, third, second]);
    const listed = list(await call(sim, '/projects/1/issues?order_by=relative_position&sort=asc&state=all&per_page=3', { token: admin }));
    expect(listed.map((issue) => issue['id'])).toEqual([first, third, second]);
  });

  it('moves an issue to either end when given one neighbour', async () => {
    const order = boardOrder(1);
    const moving = [...sim.state.issues.values()].find((issue) => issue.id === order[1])!;
    await call(sim, `/projects/1/issues/${moving.iid}/reorder`, { method: 'PUT', token: developer, form: `move_before_id=${order[order.length - 1]}` });
    expect(boardOrder(1).at(-1)).toBe(moving.id);
    await call(sim, `/projects/1/issues/${moving.iid}/reorder`, { method: 'PUT', token: developer, form: `move_after_id=${order[0]}` });
    expect(boardOrder(1)[0]).toBe(moving.id);
  });

  it('answers 422 without a neighbour of the project, 403 for a guest, 404 for an unknown issue', async () => {
    const guestId = [...sim.state.users.values()].find((user) => user.username === 'guest')!.id;
    const issue = [...sim.state.issues.values()].find((candidate) => candidate.projectId === 1 && !candidate.confidential && candidate.authorId !== guestId && !candidate.assigneeIds.includes(guestId))!;
    const foreign = [...sim.state.issues.values()].find((candidate) => candidate.projectId === 2)!;
    const alone = await call(sim, `/projects/1/issues/${issue.iid}/reorder`, { method: 'PUT', token: developer, form: `move_after_id=${foreign.id}` });
    expect(alone.status).toBe(422);
    expect(record(alone)).toEqual({ message: { error: 'Unprocessable Entity' } });
    expect((await call(sim, `/projects/1/issues/${issue.iid}/reorder`, { method: 'PUT', token: guest, form: `move_after_id=${foreign.id}` })).status).toBe(403);
    expect((await call(sim, '/projects/1/issues/99999/reorder', { method: 'PUT', token: developer, form: 'move_after_id=1' })).status).toBe(404);
  });
});
