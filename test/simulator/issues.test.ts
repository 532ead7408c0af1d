import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Issue } from '../../simulator/data/model.js';
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

interface RestIssue {
  id: number;
  iid: number;
  project_id: number;
  state: string;
  confidential: boolean;
  labels: Array<string | { name: string; color: string }>;
  author: { id: number };
  assignees: Array<{ id: number; username: string }>;
  milestone: { title: string } | null;
  due_date: string | null;
  weight: number | null;
  created_at: string;
  references: { short: string; relative: string; full: string };
  subscribed?: boolean;
}

/** Every issue of a list, following the pages. */
async function allIssues(path: string, token?: string): Promise<RestIssue[]> {
  const items: RestIssue[] = [];
  const separator = path.includes('?') ? '&' : '?';
  for (let page = 1; ; page++) {
    const result = await call(sim, `${path}${separator}per_page=100&page=${page}`, token ? { token } : {});
    expect(result.status, result.text).toBe(200);
    items.push(...(list(result) as unknown as RestIssue[]));
    if (!result.headers.get('x-next-page')) return items;
  }
}

const issuesOfProject = (projectId: number) => [...sim.state.issues.values()].filter((issue) => issue.projectId === projectId);
const issueByIid = (projectId: number, iid: number) => issuesOfProject(projectId).find((issue) => issue.iid === iid)!;

describe('demo issues', () => {
  it('has hundreds of issues with labels, milestones, assignees, weights, due dates, incidents and confidential ones', () => {
    const issues = [...sim.state.issues.values()];
    expect(issues.length).toBeGreaterThan(300);
    expect(new Set(issues.map((issue) => issue.projectId)).size).toBeGreaterThan(30);
    const share = (test: (issue: Issue) => boolean) => issues.filter(test).length / issues.length;
    for (const test of [
      (issue: Issue) => issue.labels.length > 0,
      (issue: Issue) => issue.milestoneId !== null,
      (issue: Issue) => issue.assigneeIds.length > 0,
      (issue: Issue) => issue.weight !== null,
      (issue: Issue) => issue.dueDate !== null,
      (issue: Issue) => issue.issueType === 'incident',
      (issue: Issue) => issue.confidential,
      (issue: Issue) => issue.state === 'closed',
    ]) {
      expect(share(test)).toBeGreaterThan(0.05);
      expect(share(test)).toBeLessThan(0.95);
    }
  });
});

describe('GET /issues', () => {
  it('defaults to the caller\'s own issues, and needs scope=all without a token', async () => {
    const own = await allIssues('/issues', maintainer);
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((issue) => issue.author.id === USER_IDS.maintainer)).toBe(true);
    expect((await call(sim, '/issues')).status).toBe(401);
    const anonymous = await allIssues('/issues?scope=all');
    expect(anonymous.length).toBeGreaterThan(0);
    expect(anonymous.every((issue) => !issue.confidential)).toBe(true);
  });

  it('follows the caller: assigned_to_me, and all the caller may see', async () => {
    const assigned = await allIssues('/issues?scope=assigned_to_me', developer);
    expect(assigned.length).toBeGreaterThan(0);
    expect(assigned.every((issue) => issue.assignees.some((user) => user.id === USER_IDS.developer))).toBe(true);
    const forAdmin = await allIssues('/issues?scope=all&non_archived=false', admin);
    expect(forAdmin).toHaveLength(sim.state.issues.size);
    const forOutsider = await allIssues('/issues?scope=all', outsider);
    expect(forOutsider.length).toBeLessThan(forAdmin.length);
    // Only public and internal projects, and no confidential issue of anybody else.
    const projects = new Set(forOutsider.map((issue) => sim.state.projects.get(issue.project_id)!.visibility));
    expect(projects.has('private')).toBe(false);
    expect(forOutsider.some((issue) => issue.confidential)).toBe(false);
  });

  it('hides issues of archived projects unless non_archived=false', async () => {
    const archived = [...sim.state.projects.values()].find((project) => project.archived)!;
    expect(issuesOfProject(archived.id).length).toBeGreaterThan(0);
    expect((await allIssues('/issues?scope=all', admin)).some((issue) => issue.project_id === archived.id)).toBe(false);
    expect((await allIssues('/groups/1/issues', admin)).some((issue) => issue.project_id === archived.id)).toBe(false);
    expect((await allIssues('/groups/1/issues?non_archived=false', admin)).some((issue) => issue.project_id === archived.id)).toBe(true);
    // The project list has no such filter: its own issues are listed.
    expect(await allIssues(`/projects/${archived.id}/issues`, admin)).toHaveLength(issuesOfProject(archived.id).length);
  });

  it('refuses mutually exclusive pairs and bad wildcards as Grape does', async () => {
    for (const [query, error] of [
      ['assignee_id=1&assignee_username=root', 'assignee_id, assignee_username are mutually exclusive'],
      ['author_id=1&author_username=root', 'author_id, author_username are mutually exclusive'],
      ['iteration_id=1&iteration_title=x', 'iteration_id, iteration_title are mutually exclusive'],
      ['assignee_id=someone', 'assignee_id should be an integer, none or any, however got someone'],
      ['weight=heavy', 'weight should be an integer, none or any, however got heavy'],
      ['created_after=yesterday', 'created_after is invalid'],
      ['state=stale', 'state does not have a valid value'],
    ]) {
      const result = await call(sim, `/issues?scope=all&${query}`, { token: developer });
      expect(result.status).toBe(400);
      expect(record(result)).toEqual({ error });
    }
  });
});

describe('filters', () => {
  const project = 3;
  const path = `/projects/${project}/issues`;

  it.each([
    ['labels=bug', (issue: Issue) => issue.labels.includes('bug')],
    ['labels=bug,backend', (issue: Issue) => issue.labels.includes('bug') && issue.labels.includes('backend')],
    ['labels=None', (issue: Issue) => issue.labels.length === 0],
    ['labels=any', (issue: Issue) => issue.labels.length > 0],
    ['not[labels]=bug,feature', (issue: Issue) => !issue.labels.includes('bug') && !issue.labels.includes('feature')],
    ['milestone=v1.1', (issue: Issue) => sim.state.milestones.get(issue.milestoneId ?? 0)?.title === 'v1.1'],
    ['milestone=None', (issue: Issue) => issue.milestoneId === null],
    ['not[milestone]=v1.1', (issue: Issue) => sim.state.milestones.get(issue.milestoneId ?? 0)?.title !== 'v1.1'],
    ['assignee_id=None', (issue: Issue) => issue.assigneeIds.length === 0],
    ['assignee_id=Any', (issue: Issue) => issue.assigneeIds.length > 0],
    ['weight=None', (issue: Issue) => issue.weight === null],
    ['weight=Any', (issue: Issue) => issue.weight !== null],
    ['iteration_id=None', (issue: Issue) => issue.iterationId === null],
    ['iteration_id=Any', (issue: Issue) => issue.iterationId !== null],
    ['state=closed', (issue: Issue) => issue.state === 'closed'],
    ['issue_type=incident', (issue: Issue) => issue.issueType === 'incident'],
    ['confidential=true', (issue: Issue) => issue.confidential],
    ['due_date=0', (issue: Issue) => issue.dueDate === null],
    ['due_date=overdue', (issue: Issue) => issue.dueDate !== null && issue.dueDate < '2025-06-01'],
    ['due_date=month', (issue: Issue) => issue.dueDate?.startsWith('2025-06') === true],
    ['iids[]=1&iids[]=3', (issue: Issue) => issue.iid === 1 || issue.iid === 3],
    ['created_after=2025-01-01T00:00:00Z', (issue: Issue) => issue.createdAt >= '2025-01-01T00:00:00.000Z'],
    ['my_reaction_emoji=Any', (issue: Issue) => issue.awards.some((award) => award.userId === USER_IDS.maintainer)],
    ['my_reaction_emoji=None', (issue: Issue) => !issue.awards.some((award) => award.userId === USER_IDS.maintainer)],
  ])('%s filters the issues to those it describes', async (query, holds) => {
    const expected = issuesOfProject(project)
      .filter(holds)
      .map((issue) => issue.iid)
      .sort((a, b) => a - b);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(issuesOfProject(project).length);
    // The maintainer sees every issue of the project, confidential ones too, and has reactions to look at.
    const answered = (await allIssues(`${path}?${query}`, maintainer)).map((issue) => issue.iid).sort((a, b) => a - b);
    expect(answered).toEqual(expected);
  });

  it('orders by due date with the undated last, in both directions', async () => {
    for (const sort of ['asc', 'desc']) {
      const dates = (await allIssues(`${path}?order_by=due_date&sort=${sort}`, admin)).map((issue) => issue.due_date);
      const dated = dates.filter((date): date is string => date !== null);
      expect(dates.slice(0, dated.length)).toEqual(dated);
      expect(dated).toEqual([...dated].sort((a, b) => (sort === 'asc' ? a.localeCompare(b) : b.localeCompare(a))));
    }
  });

  it('gives labels as objects with with_labels_details', async () => {
    const [first] = await allIssues(`${path}?labels=bug&with_labels_details=true`, admin);
    expect(first!.labels).toContainEqual(expect.objectContaining({ name: 'bug', color: expect.stringMatching(/^#[0-9A-F]{6}$/i) as string, text_color: expect.any(String) as string }));
  });

  it('gives references relative to where the issue was read from', async () => {
    const issue = (await allIssues(`${path}?iids[]=1`, admin))[0]!;
    const fromGroup = (await allIssues('/groups/gitlab-org/issues?iids[]=1', admin)).find((other) => other.id === issue.id)!;
    const fromInstance = (await allIssues('/issues?scope=all&iids[]=1', admin)).find((other) => other.id === issue.id)!;
    expect([issue.references.relative, fromGroup.references.relative, fromInstance.references.relative]).toEqual(['#1', 'gitaly#1', 'gitlab-org/gitaly#1']);
  });
});

describe('confidential issues', () => {
  // A confidential issue of a gitlab-org project that the guest neither wrote nor is assigned to.
  const hidden = () =>
    [...sim.state.issues.values()].find(
      (issue) => issue.confidential && issue.projectId <= 10 && issue.authorId !== USER_IDS.guest && !issue.assigneeIds.includes(USER_IDS.guest),
    )!;

  it('are invisible to guests and visible to reporters and above', async () => {
    const issue = hidden();
    const path = `/projects/${issue.projectId}/issues/${issue.iid}`;
    expect((await call(sim, path, { token: guest })).status).toBe(404);
    expect(record(await call(sim, path, { token: developer }))['id']).toBe(issue.id);
    expect((await allIssues(`/projects/${issue.projectId}/issues`, guest)).some((other) => other.id === issue.id)).toBe(false);
    expect((await allIssues(`/projects/${issue.projectId}/issues`, developer)).some((other) => other.id === issue.id)).toBe(true);
  });

  it('show to their author even without the role', async () => {
    const issue = [...sim.state.issues.values()].find((candidate) => candidate.confidential && candidate.authorId === USER_IDS.guest);
    if (!issue) return;
    expect((await call(sim, `/projects/${issue.projectId}/issues/${issue.iid}`, { token: guest })).status).toBe(200);
  });
});

describe('single issues', () => {
  it('reads by iid with `subscribed`, and by id for administrators only', async () => {
    const issue = issueByIid(1, 2);
    const single = record(await call(sim, '/projects/gitlab-org%2Fgitlab/issues/2', { token: developer }));
    expect(single).toMatchObject({ id: issue.id, iid: 2, subscribed: issue.subscriberIds.includes(USER_IDS.developer) });
    expect((await call(sim, `/issues/${issue.id}`, { token: developer })).status).toBe(403);
    expect(record(await call(sim, `/issues/${issue.id}`, { token: admin }))['iid']).toBe(2);
    expect((await call(sim, '/issues/999999', { token: admin })).status).toBe(404);
  });

  it('answers 403 for a project whose issues feature is off', async () => {
    const off = [...sim.state.projects.values()].find((project) => !project.issuesEnabled)!;
    expect((await call(sim, `/projects/${off.id}/issues`, { token: admin })).status).toBe(403);
  });

  it('lists related merge requests, closing ones, participants and the user agent', async () => {
    const closing = [...sim.state.mergeRequests.values()].find((mr) => mr.closesIssueIds.length > 0 && sim.state.projects.get(mr.projectId)!.visibility === 'public')!;
    const issue = sim.state.issues.get(closing.closesIssueIds[0]!)!;
    const base = `/projects/${issue.projectId}/issues/${issue.iid}`;
    const related = list(await call(sim, `${base}/related_merge_requests`, { token: developer }));
    expect(related.map((mr) => mr['id'])).toContain(closing.id);
    expect(typeof related[0]!['changes_count']).toBe('string');
    expect(list(await call(sim, `${base}/closed_by`, { token: developer })).map((mr) => mr['id'])).toContain(closing.id);
    const participants = list(await call(sim, `${base}/participants`, { token: developer })).map((user) => user['id']);
    expect(participants[0]).toBe(issue.authorId);
    expect(new Set(participants).size).toBe(participants.length);
    expect((await call(sim, `${base}/user_agent_detail`, { token: developer })).status).toBe(403);
    expect(record(await call(sim, `${base}/user_agent_detail`, { token: admin }))).toHaveProperty('user_agent');
  });
});

describe('to-dos', () => {
  it('are created once: 201, then 304 without a body', async () => {
    const first = await call(sim, '/projects/1/issues/4/todo', { method: 'POST', token: maintainer });
    expect(first.status).toBe(201);
    expect(record(first)).toMatchObject({ action_name: 'marked', target_type: 'Issue', state: 'pending', target: { iid: 4 } });
    const again = await call(sim, '/projects/1/issues/4/todo', { method: 'POST', token: maintainer });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });
});

describe('time tracking', () => {
  it('adds up, subtracts, never below zero, and resets', async () => {
    const base = '/projects/1/issues/5';
    const post = (path: string, form?: string) => call(sim, `${base}/${path}`, { method: 'POST', token: maintainer, ...(form ? { form } : {}) });
    expect(record(await post('time_estimate', 'duration=3h30m'))).toMatchObject({ time_estimate: 12600, total_time_spent: issueByIid(1, 5).totalTimeSpent, human_time_estimate: '3h 30m' });
    await post('reset_spent_time');
    expect((await post('add_spent_time', 'duration=1h')).status).toBe(201);
    expect(record(await post('add_spent_time', 'duration=1d 30m'))).toMatchObject({ total_time_spent: 3600 + 8 * 3600 + 1800, human_total_time_spent: '1d 1h 30m' });
    expect(record(await post('add_spent_time', 'duration=-30m'))).toMatchObject({ total_time_spent: 9 * 3600 });
    const tooMuch = await post('add_spent_time', 'duration=-2w');
    expect(tooMuch.status).toBe(400);
    expect(record(tooMuch)).toEqual({ message: { base: ['Time to subtract exceeds the total time spent'] } });
    expect(record(await post('time_estimate', 'duration=soon'))).toEqual({ message: { time_estimate: ['must have a valid format and be greater than or equal to zero'] } });
    expect(record(await call(sim, `${base}/time_stats`, { token: guest }))).toMatchObject({ time_estimate: 12600, total_time_spent: 9 * 3600 });
    expect(record(await post('reset_time_estimate'))).toMatchObject({ time_estimate: 0, human_time_estimate: null });
    expect(record(await post('reset_spent_time'))).toEqual({ time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null });
  });

  it('is for Reporters and above', async () => {
    const result = await call(sim, '/projects/1/issues/5/add_spent_time', { method: 'POST', token: guest, form: 'duration=1h' });
    expect(result.status).toBe(403);
  });
});

describe('notes and /promote', () => {
  it('promotes an issue of a group project to an epic and closes it', async () => {
    const issue = issuesOfProject(2).find((candidate) => candidate.state === 'opened')!;
    const result = await call(sim, `/projects/2/issues/${issue.iid}/notes`, { method: 'POST', token: maintainer, json: { body: 'Bigger than an issue\n/promote' } });
    expect(result.status).toBe(201);
    expect(record(result)).toMatchObject({ body: 'Bigger than an issue', noteable_type: 'Issue', noteable_iid: issue.iid, commands_changes: { promote_to_epic: true } });
    expect(issue.state).toBe('closed');
    expect(sim.state.epics.get(issue.promotedToEpicId!)?.title).toBe(issue.title);
  });

  it('answers 202 with the command changes for a body of quick actions only', async () => {
    const issue = issuesOfProject(2).find((candidate) => candidate.state === 'opened' && candidate.promotedToEpicId === null)!;
    const result = await call(sim, `/projects/2/issues/${issue.iid}/notes`, { method: 'POST', token: maintainer, json: { body: '/promote' } });
    expect(result.status).toBe(202);
    expect(record(result)).toEqual({ commands_changes: { promote_to_epic: true }, summary: ['Promoted issue to an epic.'] });
  });

  it('leaves /promote as text where it cannot run (a personal project)', async () => {
    const result = await call(sim, '/projects/33/issues/1/notes', { method: 'POST', token: maintainer, json: { body: '/promote' } });
    expect(result.status).toBe(201);
    expect(record(result)).toMatchObject({ body: '/promote', commands_changes: {} });
  });
});

describe('metric images', () => {
  const incident = () => [...sim.state.issues.values()].find((issue) => issue.issueType === 'incident' && sim.state.projects.get(issue.projectId)!.visibility === 'public')!;
  const upload = (path: string, file: File, token = maintainer) => {
    const form = new FormData();
    form.append('file', file, file.name);
    form.append('url', 'https://grafana.example.com/d/1');
    return fetch(`${sim.url}${path}`, { method: 'POST', headers: { 'private-token': token }, body: form });
  };

  it('stores and lists images of incidents only', async () => {
    const issue = incident();
    const base = `/projects/${issue.projectId}/issues/${issue.iid}/metric_images`;
    const before = list(await call(sim, base, { token: guest })).length;
    const response = await upload(base, new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'latency.png', { type: 'image/png' }));
    expect(response.status).toBe(201);
    const image = (await response.json()) as Record<string, unknown>;
    expect(image).toMatchObject({ filename: 'latency.png', url: 'https://grafana.example.com/d/1', file_path: `/uploads/-/system/issuable_metric_image/file/${String(image['id'])}/latency.png` });
    expect(list(await call(sim, base, { token: guest }))).toHaveLength(before + 1);

    const plain = issuesOfProject(issue.projectId).find((other) => other.issueType === 'issue')!;
    const plainBase = `/projects/${plain.projectId}/issues/${plain.iid}/metric_images`;
    expect((await call(sim, plainBase, { token: maintainer })).status).toBe(404);
    expect((await upload(plainBase, new File([new Uint8Array([1])], 'x.png'))).status).toBe(403);
  });

  it('refuses files over 1 MiB and files that are not images', async () => {
    const issue = incident();
    const base = `/projects/${issue.projectId}/issues/${issue.iid}/metric_images`;
    const big = await upload(base, new File([new Uint8Array(1024 * 1024 + 1)], 'big.png'));
    expect(big.status).toBe(400);
    expect(await big.json()).toEqual({ message: '400 Bad request - File is too large' });
    expect((await upload(base, new File([new Uint8Array([1])], 'notes.txt'))).status).toBe(403);
  });

  it('deletes an image: 204, then 404', async () => {
    const image = [...sim.state.metricImages.values()][0]!;
    const issue = sim.state.issues.get(image.issueId)!;
    const path = `/projects/${issue.projectId}/issues/${issue.iid}/metric_images/${image.id}`;
    expect((await call(sim, path, { method: 'DELETE', token: admin })).status).toBe(204);
    const again = await call(sim, path, { method: 'DELETE', token: admin });
    expect(again.status).toBe(404);
    expect(record(again)).toEqual({ message: 'Metric image not found' });
  });
});
