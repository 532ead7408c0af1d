import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, USER_IDS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, list, record } from './helpers.js';

let sim: Simulator;
const { maintainer, outsider } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

const projectMergeRequests = () => [...sim.state.mergeRequests.values()].filter((mergeRequest) => mergeRequest.projectId === 1);

describe('GET /projects/:id/merge_requests/:merge_request_iid (subscribed)', () => {
  it('says whether the caller is subscribed in the single read only; lists leave it out', async () => {
    const mergeRequest = projectMergeRequests()[0]!;
    const single = record(await call(sim, `/projects/1/merge_requests/${mergeRequest.iid}`, { token: maintainer }));
    expect(single['subscribed']).toBe(mergeRequest.subscriberIds.includes(USER_IDS.maintainer));
    const listed = list(await call(sim, `/projects/1/merge_requests?iids[]=${mergeRequest.iid}`, { token: maintainer }));
    expect(listed[0]).not.toHaveProperty('subscribed');
    const related = [...sim.state.mergeRequests.values()].find((candidate) => candidate.closesIssueIds.length > 0)!;
    const issue = sim.state.issues.get(related.closesIssueIds[0]!)!;
    for (const item of list(await call(sim, `/projects/${issue.projectId}/issues/${issue.iid}/related_merge_requests`, { token: DEMO_TOKENS.admin }))) expect(item).not.toHaveProperty('subscribed');
  });

  it('answers anonymous callers of a public project as not subscribed', async () => {
    const mergeRequest = projectMergeRequests()[0]!;
    expect(record(await call(sim, `/projects/1/merge_requests/${mergeRequest.iid}`))['subscribed']).toBe(false);
  });
});

describe('GET /projects/:id/merge_requests/:merge_request_iid/participants', () => {
  it('lists the author, the assignee and the reviewers, each once, as user summaries', async () => {
    const mergeRequest = projectMergeRequests().find((candidate) => candidate.reviewerIds.length > 0)!;
    const answer = await call(sim, `/projects/1/merge_requests/${mergeRequest.iid}/participants`, { token: maintainer });
    expect(answer.status).toBe(200);
    const expected = [...new Set([mergeRequest.authorId, mergeRequest.assigneeId, ...mergeRequest.reviewerIds].filter((id) => id !== null))];
    expect(list(answer).map((user) => user['id'])).toEqual(expected);
    expect(Object.keys(list(answer)[0]!).sort()).toEqual(['avatar_url', 'id', 'locked', 'name', 'state', 'username', 'web_url']);
    expect(answer.headers.get('x-total')).toBe(String(expected.length));
  });

  it('is a bare 404 for an unknown merge request', async () => {
    const answer = await call(sim, '/projects/1/merge_requests/999999/participants', { token: maintainer });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: '404 Not found' });
  });
});

describe('POST /projects/:id/merge_requests/:merge_request_iid/subscribe and /unsubscribe', () => {
  it('subscribes and unsubscribes the caller (201 with the merge request), and answers 304 with no body when already so', async () => {
    const mergeRequest = projectMergeRequests().find((candidate) => !candidate.subscriberIds.includes(USER_IDS.maintainer))!;
    const base = `/projects/1/merge_requests/${mergeRequest.iid}`;
    const subscribed = await call(sim, `${base}/subscribe`, { method: 'POST', token: maintainer });
    expect(subscribed.status).toBe(201);
    expect(record(subscribed)).toMatchObject({ iid: mergeRequest.iid, subscribed: true });
    const again = await call(sim, `${base}/subscribe`, { method: 'POST', token: maintainer });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const unsubscribed = await call(sim, `${base}/unsubscribe`, { method: 'POST', token: maintainer });
    expect(unsubscribed.status).toBe(201);
    expect(record(unsubscribed)['subscribed']).toBe(false);
    expect((await call(sim, `${base}/unsubscribe`, { method: 'POST', token: maintainer })).status).toBe(304);
  });

  it('needs a caller (401) who can see the project (404)', async () => {
    const mergeRequest = projectMergeRequests()[0]!;
    expect((await call(sim, `/projects/1/merge_requests/${mergeRequest.iid}/subscribe`, { method: 'POST' })).status).toBe(401);
    const hidden = [...sim.state.projects.values()].find((project) => project.visibility === 'private' && [...sim.state.mergeRequests.values()].some((candidate) => candidate.projectId === project.id));
    if (hidden) {
      const inHidden = [...sim.state.mergeRequests.values()].find((candidate) => candidate.projectId === hidden.id)!;
      expect((await call(sim, `/projects/${hidden.id}/merge_requests/${inHidden.iid}/subscribe`, { method: 'POST', token: outsider })).status).toBe(404);
    }
  });
});

describe('PUT /projects/:id/merge_requests/:merge_request_iid', () => {
  const projectMilestone = () => [...sim.state.milestones.values()].find((milestone) => 'projectId' in milestone && milestone.projectId === 1)!;

  it('sets and clears the milestone (0 or null), answering the whole merge request', async () => {
    const mergeRequest = projectMergeRequests()[0]!;
    const base = `/projects/1/merge_requests/${mergeRequest.iid}`;
    const milestone = projectMilestone();
    const set = await call(sim, base, { method: 'PUT', token: maintainer, json: { milestone_id: milestone.id } });
    expect(set.status).toBe(200);
    expect(record(set)).toMatchObject({ iid: mergeRequest.iid, milestone: { id: milestone.id, title: milestone.title }, subscribed: expect.any(Boolean) as unknown });
    expect(record(await call(sim, base, { token: maintainer }))['milestone']).toMatchObject({ id: milestone.id });
    expect(record(await call(sim, base, { method: 'PUT', token: maintainer, json: { milestone_id: 0 } }))['milestone']).toBeNull();
    await call(sim, base, { method: 'PUT', token: maintainer, json: { milestone_id: milestone.id } });
    expect(record(await call(sim, base, { method: 'PUT', token: maintainer, json: { milestone_id: null } }))['milestone']).toBeNull();
  });

  it('clears the milestone when it belongs to no group above the project (filter_milestone)', async () => {
    const mergeRequest = projectMergeRequests()[1]!;
    const elsewhere = [...sim.state.milestones.values()].find((milestone) => 'projectId' in milestone && milestone.projectId !== 1)!;
    const answer = await call(sim, `/projects/1/merge_requests/${mergeRequest.iid}`, { method: 'PUT', token: maintainer, json: { milestone_id: elsewhere.id } });
    expect(answer.status).toBe(200);
    expect(record(answer)['milestone']).toBeNull();
  });

  it('refuses a request with no attribute (400), a caller who may not update it (403) and an unknown merge request (404)', async () => {
    const mergeRequest = projectMergeRequests()[0]!;
    const empty = await call(sim, `/projects/1/merge_requests/${mergeRequest.iid}`, { method: 'PUT', token: maintainer, json: {} });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({
      error: 'assignee_id, assignee_ids, description, labels, add_labels, remove_labels, milestone_id, target_branch, title, state_event, discussion_locked are missing, at least one parameter must be provided',
    });
    const guestCanSee = [...sim.state.mergeRequests.values()].find((candidate) => candidate.projectId === 1 && candidate.authorId !== USER_IDS.guest && candidate.assigneeId !== USER_IDS.guest)!;
    expect((await call(sim, `/projects/1/merge_requests/${guestCanSee.iid}`, { method: 'PUT', token: DEMO_TOKENS.guest, json: { title: 'No' } })).status).toBe(403);
    expect((await call(sim, '/projects/1/merge_requests/999999', { method: 'PUT', token: maintainer, json: { title: 'No' } })).status).toBe(404);
  });

  it('closes and reopens it', async () => {
    const mergeRequest = projectMergeRequests().find((candidate) => candidate.state === 'opened')!;
    const base = `/projects/1/merge_requests/${mergeRequest.iid}`;
    expect(record(await call(sim, base, { method: 'PUT', token: maintainer, json: { state_event: 'close' } }))).toMatchObject({ state: 'closed', closed_by: { id: USER_IDS.maintainer } });
    expect(record(await call(sim, base, { method: 'PUT', token: maintainer, json: { state_event: 'reopen' } }))).toMatchObject({ state: 'opened', closed_at: null });
  });
});
