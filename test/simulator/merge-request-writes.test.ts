// The embedded server's merge request sidebar writes as GitLab's REST makes them: labels (replace,
// add, remove), the discussion lock, the target branch and the assignee through
// `PUT .../merge_requests/:merge_request_iid`, and the time estimate through its own endpoints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, USER_IDS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, record } from './helpers.js';

let sim: Simulator;
const { maintainer, developer, guest } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

const openMergeRequests = () => [...sim.state.mergeRequests.values()].filter((mergeRequest) => mergeRequest.projectId === 1 && mergeRequest.state === 'opened');
const put = (iid: number, json: Record<string, unknown>, token: string = maintainer) => call(sim, `/projects/1/merge_requests/${iid}`, { method: 'PUT', token, json });

describe('PUT /projects/:id/merge_requests/:merge_request_iid (sidebar attributes)', () => {
  it('replaces, adds and removes labels by name; a name no label has becomes a project label', async () => {
    const { iid } = openMergeRequests()[0]!;
    expect(record(await put(iid, { labels: 'bug,feature' }))['labels']).toEqual(['bug', 'feature']);
    expect(record(await put(iid, { add_labels: 'feature,brand-new' }))['labels']).toEqual(['bug', 'feature', 'brand-new']);
    expect([...sim.state.labels.values()].some((label) => label.projectId === 1 && label.name === 'brand-new')).toBe(true);
    expect(record(await put(iid, { remove_labels: 'bug,brand-new' }))['labels']).toEqual(['feature']);
    expect(record(await put(iid, { labels: '' }))['labels']).toEqual([]);
  });

  it('locks and unlocks the discussion; a merge request never locked answers null, as GitLab stores it', async () => {
    const { iid } = openMergeRequests()[1]!;
    expect(record(await call(sim, `/projects/1/merge_requests/${iid}`, { token: maintainer }))['discussion_locked']).toBeNull();
    expect(record(await put(iid, { discussion_locked: true }))['discussion_locked']).toBe(true);
    expect(record(await put(iid, { discussion_locked: false }))['discussion_locked']).toBe(false);
  });

  it('changes the target branch, and refuses the source branch as target with 422 (branch_conflict)', async () => {
    const mergeRequest = openMergeRequests()[2]!;
    expect(record(await put(mergeRequest.iid, { target_branch: 'release' }))['target_branch']).toBe('release');
    const conflict = await put(mergeRequest.iid, { target_branch: mergeRequest.sourceBranch });
    expect(conflict.status).toBe(422);
    expect(conflict.body).toEqual({ message: ["You can't use same project/branch for source and target"] });
    expect(sim.state.mergeRequests.get(mergeRequest.id)!.targetBranch).toBe('release');
  });

  it('keeps the first known assignee of assignee_ids (one assignee without Premium); 0 or an empty list unassigns', async () => {
    const { iid } = openMergeRequests()[3]!;
    expect(record(await put(iid, { assignee_ids: [999999, USER_IDS.developer, USER_IDS.guest] }))['assignees']).toEqual([expect.objectContaining({ id: USER_IDS.developer })]);
    expect(record(await put(iid, { assignee_ids: [0] }))['assignee']).toBeNull();
    expect(record(await put(iid, { assignee_id: USER_IDS.guest }))['assignee']).toMatchObject({ id: USER_IDS.guest });
    expect(record(await put(iid, { assignee_ids: [] }))['assignees']).toEqual([]);
  });

  it('drops labels, assignees and the lock of a caller who may edit but not administer it (IssuableBaseService#filter_params)', async () => {
    const mergeRequest = [...sim.state.mergeRequests.values()].find((candidate) => candidate.projectId === 1 && candidate.state !== 'opened')!;
    sim.state.mergeRequests.get(mergeRequest.id)!.assigneeId = USER_IDS.guest;
    const answer = await put(mergeRequest.iid, { title: 'Edited by its assignee', labels: 'bug', discussion_locked: true }, guest);
    expect(answer.status).toBe(200);
    expect(record(answer)).toMatchObject({ title: 'Edited by its assignee', labels: mergeRequest.labels, discussion_locked: null });
  });
});

describe('POST /projects/:id/merge_requests/:merge_request_iid/time_estimate and reset_time_estimate', () => {
  it('sets the estimate from a human duration and resets it, answering the time stats', async () => {
    const { iid } = openMergeRequests()[0]!;
    const base = `/projects/1/merge_requests/${iid}`;
    const set = await call(sim, `${base}/time_estimate`, { method: 'POST', token: developer, json: { duration: '1h 30m' } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ time_estimate: 5400, total_time_spent: 0, human_time_estimate: '1h 30m', human_total_time_spent: null });
    expect(record(await call(sim, base, { token: developer }))['time_stats']).toMatchObject({ time_estimate: 5400 });
    const reset = await call(sim, `${base}/reset_time_estimate`, { method: 'POST', token: developer });
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ time_estimate: 0, human_time_estimate: null });
  });

  it('refuses a malformed duration (400 with the model error), a caller below Developer (403) and a missing duration (400)', async () => {
    const { iid } = openMergeRequests()[0]!;
    const base = `/projects/1/merge_requests/${iid}`;
    const malformed = await call(sim, `${base}/time_estimate`, { method: 'POST', token: developer, json: { duration: 'soon' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: { time_estimate: ['must have a valid format and be greater than or equal to zero'] } });
    expect((await call(sim, `${base}/time_estimate`, { method: 'POST', token: guest, json: { duration: '1h' } })).status).toBe(403);
    expect((await call(sim, `${base}/time_estimate`, { method: 'POST', token: developer, json: {} })).body).toEqual({ error: 'duration is missing' });
  });
});
