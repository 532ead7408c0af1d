// The REST endpoints an issue sidebar needs besides the issue itself: labels and milestones of
// projects and groups, a user's status and the user list by username, the to-do list, and the
// writes (create, edit, move, subscribe), each as GitLab answers them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, USER_IDS, type Simulator } from '../../simulator/index.js';
import { call, list, record } from './helpers.js';

let sim: Simulator;
const { admin, maintainer, developer, guest, outsider } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

const names = (items: Record<string, unknown>[]) => items.map((item) => item['name'] ?? item['title']);

describe('project and group labels', () => {
  it('lists a project\'s labels by title with its ancestor groups\' labels, and their pagination headers', async () => {
    const result = await call(sim, '/projects/gitlab-org%2Fgitlab/labels?per_page=100', { token: developer });
    expect(result.status).toBe(200);
    expect(result.headers.get('x-total')).toBe('12');
    expect(result.headers.get('x-next-page')).toBe('');
    const labels = list(result);
    expect(names(labels)).toEqual([...names(labels)].sort((a, b) => String(a).localeCompare(String(b))));
    const own = labels.find((label) => label['name'] === 'security')!;
    expect(own).toMatchObject({ is_project_label: true, priority: 0, color: '#FF0000', text_color: '#FFFFFF', subscribed: false });
    expect(own).not.toHaveProperty('open_issues_count');
    expect(labels.find((label) => label['name'] === 'priority::high')).toMatchObject({ is_project_label: false, priority: null });
  });

  it('leaves the groups\' labels out with include_ancestor_groups=false, filters by search and counts with with_counts', async () => {
    const own = list(await call(sim, '/projects/1/labels?include_ancestor_groups=false&per_page=100', { token: developer }));
    expect(own).toHaveLength(10);
    const searched = list(await call(sim, '/projects/1/labels?search=WORKFLOW&with_counts=true', { token: developer }));
    expect(names(searched)).toEqual(['workflow::doing', 'workflow::review', 'workflow::todo']);
    const todo = searched.find((label) => label['name'] === 'workflow::todo')!;
    const tagged = [...sim.state.issues.values()].filter((issue) => issue.projectId === 1 && issue.labels.includes('workflow::todo'));
    expect(todo['open_issues_count']).toBe(tagged.filter((issue) => issue.state === 'opened').length);
    expect(todo['closed_issues_count']).toBe(tagged.filter((issue) => issue.state === 'closed').length);
  });

  it('lists a group\'s own labels, its projects\' labels only when only_group_labels=false, and 404 for an unknown group', async () => {
    const own = list(await call(sim, '/groups/gitlab-org/labels', { token: developer }));
    expect(names(own)).toEqual(['customer', 'priority::high']);
    expect(own[0]).not.toHaveProperty('is_project_label');
    const withProjects = list(await call(sim, '/groups/gitlab-org/labels?only_group_labels=false&per_page=100', { token: developer }));
    expect(withProjects.length).toBeGreaterThan(own.length);
    const missing = await call(sim, '/groups/no-such-group/labels', { token: developer });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Group Not Found' });
  });

  it('answers 404 for a private project the caller may not see', async () => {
    const hidden = [...sim.state.projects.values()].find((project) => project.visibility === 'private' && project.namespace.kind === 'group')!;
    const result = await call(sim, `/projects/${hidden.id}/labels`, { token: outsider });
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('project and group milestones', () => {
  it('lists a project\'s milestones by due date with `expired`, filtered by state and title', async () => {
    const all = list(await call(sim, '/projects/1/milestones', { token: developer }));
    expect(names(all)).toEqual(['v1.0', 'v1.1', 'v2.0']);
    expect(all[0]).toMatchObject({ project_id: 1, state: 'closed', expired: true, web_url: `${sim.url.replace(/\/api\/v4$/, '')}/gitlab-org/gitlab/-/milestones/1` });
    expect(all[2]).toMatchObject({ expired: false });
    expect(names(list(await call(sim, '/projects/1/milestones?state=active', { token: developer })))).toEqual(['v1.1', 'v2.0']);
    expect(names(list(await call(sim, '/projects/1/milestones?title=v2.0', { token: developer })))).toEqual(['v2.0']);
    const bad = await call(sim, '/projects/1/milestones?state=upcoming', { token: developer });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'state does not have a valid value' });
  });

  it('adds the groups\' milestones with include_ancestors, and lists a group\'s own', async () => {
    const inherited = list(await call(sim, '/projects/1/milestones?include_ancestors=true', { token: developer }));
    const groupMilestone = inherited.find((milestone) => milestone['group_id'] === 1)!;
    expect(groupMilestone).toMatchObject({ title: 'GitLab.org Q3 release', iid: 1 });
    expect(String(groupMilestone['web_url'])).toMatch(/\/groups\/gitlab-org\/-\/milestones\/1$/);
    expect(list(await call(sim, '/groups/1/milestones', { token: developer }))).toEqual([groupMilestone]);
  });

  it('breaks a due date tie as MilestonesFinder does, newest (highest id) first, whatever the titles', async () => {
    const v11 = [...sim.state.milestones.values()].find((milestone) => milestone.projectId === 1 && milestone.title === 'v1.1')!;
    const id = sim.state.nextId('milestones');
    sim.state.milestones.set(id, { ...v11, id, iid: 99, title: 'zz hotfix' });
    try {
      const milestones = list(await call(sim, '/projects/1/milestones', { token: developer }));
      expect(names(milestones)).toEqual(['v1.0', 'zz hotfix', 'v1.1', 'v2.0']);
    } finally {
      sim.state.milestones.delete(id);
    }
  });
});

describe('user status and the user list', () => {
  it('gives a user\'s status by id or username, and nulls for one who never set it', async () => {
    const byId = record(await call(sim, `/users/${USER_IDS.maintainer}/status`));
    expect(byId).toEqual({ emoji: 'palm_tree', message: 'On leave until Monday', availability: 'busy', message_html: '<p>On leave until Monday</p>', clear_status_at: '2025-06-02T08:00:00.000Z' });
    expect(record(await call(sim, '/users/developer/status'))['message_html']).toBe('<p>Reviewing <strong>merge requests</strong></p>');
    expect(record(await call(sim, '/users/guest/status'))).toEqual({ emoji: null, message: null, availability: null, message_html: null, clear_status_at: null });
    const missing = await call(sim, '/users/999999/status');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 User Not Found' });
  });

  it('finds a user by username case-insensitively, newest first otherwise, with pagination headers', async () => {
    const found = list(await call(sim, '/users?username=DEVELOPER', { token: guest }));
    expect(found.map((user) => user['id'])).toEqual([USER_IDS.developer]);
    expect(list(await call(sim, '/users?username=nobody', { token: guest }))).toEqual([]);
    const page = await call(sim, '/users?per_page=2', { token: guest });
    expect(page.headers.get('x-next-page')).toBe('2');
    const ids = list(page).map((user) => user['id'] as number);
    expect(ids[0]).toBeGreaterThan(ids[1]!);
  });
});

describe('to-do list', () => {
  it('lists the caller\'s pending to-dos newest first, filters by project and state, and needs a signed-in caller', async () => {
    const mine = [...sim.state.todos.values()].filter((todo) => todo.userId === USER_IDS.developer && todo.state === 'pending');
    const result = await call(sim, '/todos?per_page=100', { token: developer });
    expect(result.status).toBe(200);
    expect(list(result).map((todo) => todo['id'])).toEqual(mine.map((todo) => todo.id).sort((a, b) => b - a));
    expect(list(result)[0]).toMatchObject({ target_type: 'Issue', state: 'pending' });
    const projectId = sim.state.issues.get(mine[0]!.targetId)!.projectId;
    const ofProject = list(await call(sim, `/todos?project_id=${projectId}&type=Issue`, { token: developer }));
    expect(ofProject.every((todo) => (todo['project'] as { id: number }).id === projectId)).toBe(true);
    expect(list(await call(sim, '/todos?type=MergeRequest', { token: developer }))).toEqual([]);
    expect((await call(sim, '/todos')).status).toBe(401);
  });

  it('marks one to-do done (201 with the to-do), 404 for another user\'s, and all of them (204)', async () => {
    const todo = [...sim.state.todos.values()].find((candidate) => candidate.userId === USER_IDS.developer && candidate.state === 'pending')!;
    const done = await call(sim, `/todos/${todo.id}/mark_as_done`, { method: 'POST', token: developer });
    expect(done.status).toBe(201);
    expect(record(done)).toMatchObject({ id: todo.id, state: 'done' });
    expect(list(await call(sim, '/todos?state=done', { token: developer })).map((item) => item['id'])).toContain(todo.id);
    const foreign = await call(sim, `/todos/${todo.id}/mark_as_done`, { method: 'POST', token: maintainer });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: '404 Not found' });
    expect((await call(sim, '/todos/mark_as_done', { method: 'POST', token: developer })).status).toBe(204);
    expect(list(await call(sim, '/todos', { token: developer }))).toEqual([]);
  });
});

describe('issue writes', () => {
  it('creates an issue (201) with the next iid, new labels made on the way and an assigned to-do', async () => {
    const before = Math.max(...[...sim.state.issues.values()].filter((issue) => issue.projectId === 1).map((issue) => issue.iid));
    const result = await call(sim, '/projects/1/issues', {
      method: 'POST',
      token: maintainer,
      json: { title: 'Sidebar crashes', description: 'Steps', labels: 'bug,brand-new', assignee_ids: [USER_IDS.developer], milestone_id: 2, due_date: '2025-07-01', confidential: true },
    });
    expect(result.status).toBe(201);
    const issue = record(result);
    expect(issue).toMatchObject({ iid: before + 1, title: 'Sidebar crashes', labels: ['bug', 'brand-new'], due_date: '2025-07-01', confidential: true, subscribed: true, state: 'opened' });
    expect((issue['milestone'] as { id: number }).id).toBe(2);
    expect((issue['assignees'] as Array<{ id: number }>).map((user) => user.id)).toEqual([USER_IDS.developer]);
    expect([...sim.state.labels.values()].find((label) => label.projectId === 1 && label.name === 'brand-new')).toMatchObject({ color: '#6699cc' });
    expect([...sim.state.todos.values()].some((todo) => todo.userId === USER_IDS.developer && todo.targetType === 'Issue' && todo.targetId === issue['id'] && todo.actionName === 'assigned')).toBe(true);
  });

  it('refuses a missing or blank title, and drops the metadata a guest may not set', async () => {
    const missing = await call(sim, '/projects/1/issues', { method: 'POST', token: maintainer, json: { description: 'x' } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'title is missing' });
    const blank = await call(sim, '/projects/1/issues', { method: 'POST', token: maintainer, json: { title: '  ' } });
    expect(blank.body).toEqual({ message: { title: ["can't be blank"] } });
    const byGuest = record(await call(sim, '/projects/1/issues', { method: 'POST', token: guest, json: { title: 'From a guest', labels: 'bug', assignee_ids: [USER_IDS.guest] } }));
    expect(byGuest).toMatchObject({ labels: [], assignees: [] });
    expect((await call(sim, '/projects/1/issues', { method: 'POST', json: { title: 'anonymous' } })).status).toBe(401);
  });

  it('edits an issue: labels by name, add and remove, milestone 0 clears, due date cleared, lock, close', async () => {
    const base = '/projects/1/issues/1';
    const edit = (json: unknown, token: string = maintainer) => call(sim, base, { method: 'PUT', token, json });
    expect(record(await edit({ labels: 'bug,feature' }))['labels']).toEqual(['bug', 'feature']);
    expect(record(await edit({ add_labels: 'customer', remove_labels: 'bug' }))['labels']).toEqual(['feature', 'customer']);
    const groupMilestone = [...sim.state.groupMilestones.values()].find((milestone) => milestone.groupId === 1)!;
    expect(record(await edit({ milestone_id: groupMilestone.id }))['milestone']).toMatchObject({ id: groupMilestone.id, group_id: 1 });
    expect(record(await edit({ milestone_id: 0, due_date: null }))).toMatchObject({ milestone: null, due_date: null });
    expect(record(await edit({ discussion_locked: true, state_event: 'close' }))).toMatchObject({ discussion_locked: true, state: 'closed' });
    expect(record(await edit({ state_event: 'reopen', discussion_locked: false }))).toMatchObject({ state: 'opened', closed_at: null });
  });

  it('refuses an edit without parameters (400), by someone who may not update (403), and of a missing issue (404)', async () => {
    const empty = await call(sim, '/projects/1/issues/1', { method: 'PUT', token: maintainer, json: {} });
    expect(empty.status).toBe(400);
    expect(String((empty.body as { error: string }).error)).toMatch(/at least one parameter must be provided$/);
    const issue = [...sim.state.issues.values()].find((candidate) => candidate.projectId === 1 && !candidate.confidential && candidate.authorId !== USER_IDS.outsider)!;
    const forbidden = await call(sim, `/projects/1/issues/${issue.iid}`, { method: 'PUT', token: outsider, json: { title: 'mine now' } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ message: '403 Forbidden' });
    const missing = await call(sim, '/projects/1/issues/99999', { method: 'PUT', token: maintainer, json: { title: 'x' } });
    expect(missing.body).toEqual({ message: '404 Issue Not Found' });
  });

  it('moves an issue to another project (201, a new iid there), closing the original with moved_to_id', async () => {
    const issue = [...sim.state.issues.values()].find((candidate) => candidate.projectId === 1 && candidate.state === 'opened' && !candidate.movedToId)!;
    const result = await call(sim, `/projects/1/issues/${issue.iid}/move`, { method: 'POST', token: admin, json: { to_project_id: 2 } });
    expect(result.status).toBe(201);
    const moved = record(result);
    expect(moved).toMatchObject({ project_id: 2, title: issue.title, state: 'opened' });
    const original = record(await call(sim, `/projects/1/issues/${issue.iid}`, { token: admin }));
    expect(original).toMatchObject({ state: 'closed', moved_to_id: moved['id'] });
    const again = await call(sim, `/projects/1/issues/${issue.iid}/move`, { method: 'POST', token: admin, json: { to_project_id: 2 } });
    expect(again.body).toEqual({ message: 'Cannot move issue which was already moved' });
    const same = await call(sim, '/projects/1/issues/2/move', { method: 'POST', token: admin, json: { to_project_id: 1 } });
    expect(same.status).toBe(400);
    expect(same.body).toEqual({ message: 'Cannot move issue to project it originates from!' });
    const nowhere = await call(sim, '/projects/1/issues/2/move', { method: 'POST', token: admin, json: { to_project_id: 999999 } });
    expect(nowhere.body).toEqual({ message: '404 Project Not Found' });
    const byGuest = await call(sim, '/projects/1/issues/2/move', { method: 'POST', token: guest, json: { to_project_id: 2 } });
    expect(byGuest.body).toEqual({ message: 'Cannot move issue due to insufficient permissions!' });
  });

  it('subscribes (201 with subscribed true) and answers 304 with no body when already subscribed; the same for unsubscribe', async () => {
    const issue = [...sim.state.issues.values()].find((candidate) => candidate.projectId === 1 && !candidate.confidential && !candidate.subscriberIds.includes(USER_IDS.guest))!;
    const base = `/projects/1/issues/${issue.iid}`;
    const subscribed = await call(sim, `${base}/subscribe`, { method: 'POST', token: guest });
    expect(subscribed.status).toBe(201);
    expect(record(subscribed)['subscribed']).toBe(true);
    const again = await call(sim, `${base}/subscribe`, { method: 'POST', token: guest });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const unsubscribed = await call(sim, `${base}/unsubscribe`, { method: 'POST', token: guest });
    expect([unsubscribed.status, record(unsubscribed)['subscribed']]).toEqual([201, false]);
    expect((await call(sim, `${base}/unsubscribe`, { method: 'POST', token: guest })).status).toBe(304);
  });
});

describe('notes and discussions of an issue', () => {
  const openIssue = () => [...sim.state.issues.values()].find((issue) => issue.projectId === 1 && !issue.confidential && issue.state === 'opened' && !issue.movedToId)!;

  it('creates a comment (201), lists the notes newest first with pagination headers, and reads one', async () => {
    const issue = openIssue();
    const base = `/projects/1/issues/${issue.iid}`;
    const note = record(await call(sim, `${base}/notes`, { method: 'POST', token: developer, json: { body: 'First look' } }));
    expect(note).toMatchObject({ body: 'First look', noteable_type: 'Issue', noteable_iid: issue.iid, internal: false, author: { username: 'developer' } });
    const page = await call(sim, `${base}/notes?per_page=100`, { token: guest });
    expect(page.headers.get('x-total')).toBe(String([...sim.state.notes.values()].filter((candidate) => candidate.issueId === issue.id).length));
    const listed = list(page);
    expect(listed[0]!['id']).toBe(note['id']);
    expect(list(await call(sim, `${base}/notes?sort=asc&per_page=100`, { token: guest })).at(-1)!['id']).toBe(note['id']);
    expect(record(await call(sim, `${base}/notes/${String(note['id'])}`, { token: guest }))['body']).toBe('First look');
    const missing = await call(sim, `${base}/notes/999999`, { token: guest });
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Note Not Found' }]);
  });

  it('hides internal notes from guests, and shows them to Reporters and above', async () => {
    const issue = openIssue();
    const base = `/projects/1/issues/${issue.iid}`;
    const internal = record(await call(sim, `${base}/notes`, { method: 'POST', token: maintainer, json: { body: 'Between us', internal: true } }));
    expect(internal).toMatchObject({ internal: true, confidential: true });
    const ids = async (token: string) => list(await call(sim, `${base}/notes?per_page=100`, { token })).map((note) => note['id']);
    expect(await ids(guest)).not.toContain(internal['id']);
    expect(await ids(developer)).toContain(internal['id']);
    expect((await call(sim, `${base}/notes/${String(internal['id'])}`, { token: guest })).status).toBe(404);
  });

  it('lets the author (or a Maintainer) edit and delete a note, and nobody else (403)', async () => {
    const issue = openIssue();
    const base = `/projects/1/issues/${issue.iid}/notes`;
    const note = record(await call(sim, base, { method: 'POST', token: guest, json: { body: 'Typo hre' } }));
    const path = `${base}/${String(note['id'])}`;
    const byOther = await call(sim, path, { method: 'PUT', token: developer, json: { body: 'Not mine' } });
    expect([byOther.status, byOther.body]).toEqual([403, { message: '403 Forbidden' }]);
    expect(record(await call(sim, path, { method: 'PUT', token: guest, json: { body: 'Typo here' } }))['body']).toBe('Typo here');
    const blank = await call(sim, path, { method: 'PUT', token: guest, json: {} });
    expect([blank.status, blank.body]).toEqual([400, { error: 'body is missing' }]);
    expect((await call(sim, path, { method: 'DELETE', token: developer })).status).toBe(403);
    const deleted = await call(sim, path, { method: 'DELETE', token: maintainer });
    expect([deleted.status, deleted.text]).toEqual([204, '']);
    expect((await call(sim, path, { token: guest })).status).toBe(404);
  });

  it('groups notes into discussions: a plain comment alone, a thread with its replies; replying to a comment makes it a thread', async () => {
    const issue = openIssue();
    const base = `/projects/1/issues/${issue.iid}`;
    const thread = await call(sim, `${base}/discussions`, { method: 'POST', token: developer, json: { body: 'Shall we split this?' } });
    expect(thread.status).toBe(201);
    const discussion = record(thread);
    expect(discussion).toMatchObject({ individual_note: false, notes: [{ body: 'Shall we split this?' }] });
    expect(String(discussion['id'])).toMatch(/^[0-9a-f]{40}$/);
    const reply = await call(sim, `${base}/discussions/${String(discussion['id'])}/notes`, { method: 'POST', token: maintainer, json: { body: 'Yes' } });
    expect(reply.status).toBe(201);
    const read = record(await call(sim, `${base}/discussions/${String(discussion['id'])}`, { token: guest }));
    expect((read['notes'] as Array<{ body: string }>).map((note) => note.body)).toEqual(['Shall we split this?', 'Yes']);

    const comment = record(await call(sim, `${base}/notes`, { method: 'POST', token: developer, json: { body: 'A plain comment' } }));
    const discussions = list(await call(sim, `${base}/discussions?per_page=100`, { token: guest }));
    const own = discussions.find((candidate) => (candidate['notes'] as Array<{ id: number }>)[0]!.id === comment['id'])!;
    expect(own['individual_note']).toBe(true);
    await call(sim, `${base}/discussions/${String(own['id'])}/notes`, { method: 'POST', token: maintainer, json: { body: 'Answer' } });
    const now = record(await call(sim, `${base}/discussions/${String(own['id'])}`, { token: guest }));
    expect(now).toMatchObject({ individual_note: false, notes: [{ body: 'A plain comment' }, { body: 'Answer' }] });
    expect((await call(sim, `${base}/discussions/${'0'.repeat(40)}`, { token: guest })).body).toEqual({ message: '404 Discussion Not Found' });
  });
});

describe('the milestone wildcards Upcoming and Started', () => {
  const idsOf = async (query: string) => (await allOf(`/projects/1/issues?state=all&${query}`)).map((issue) => issue['iid'] as number).sort((a, b) => a - b);
  async function allOf(path: string): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    for (let page = 1; ; page++) {
      const result = await call(sim, `${path}&per_page=100&page=${page}`, { token: maintainer });
      expect(result.status, result.text).toBe(200);
      items.push(...list(result));
      if (!result.headers.get('x-next-page')) return items;
    }
  }
  const withMilestone = (titles: string[]) =>
    [...sim.state.issues.values()]
      .filter((issue) => issue.projectId === 1 && issue.milestoneId !== null && titles.includes((sim.state.milestones.get(issue.milestoneId) ?? sim.state.groupMilestones.get(issue.milestoneId))!.title))
      .map((issue) => issue.iid)
      .sort((a, b) => a - b);

  it('Upcoming is the active milestone due soonest after today (v1.1 of the demo projects, due 2025-06-30)', async () => {
    const upcoming = await idsOf('milestone=Upcoming');
    expect(upcoming.length).toBeGreaterThan(0);
    expect(upcoming).toEqual(withMilestone(['v1.1', 'GitLab.org Q3 release']));
  });

  it('Started is any active milestone that has started (v1.1; v2.0 has no start date, the group\'s starts in July)', async () => {
    expect(await idsOf('milestone=started')).toEqual(withMilestone(['v1.1']));
  });

  it('negates both, keeping the issues without a milestone', async () => {
    const all = await idsOf('');
    const started = new Set(withMilestone(['v1.1']));
    expect(await idsOf('not[milestone]=Started')).toEqual(all.filter((iid) => !started.has(iid)));
  });
});
