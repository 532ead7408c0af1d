import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, list, record } from './helpers.js';

let sim: Simulator;
const { admin, maintainer, outsider } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

const iids = (items: Record<string, unknown>[]) => items.map((item) => item['iid']);
const projectMergeRequests = () => [...sim.state.mergeRequests.values()].filter((mergeRequest) => mergeRequest.projectId === 1);

describe('GET /projects/:id/merge_requests', () => {
  it('lists every merge request of the project, newest first, as MergeRequestBasic', async () => {
    const answer = await call(sim, '/projects/gitlab-org%2Fgitlab/merge_requests?per_page=100', { token: maintainer });
    expect(answer.status).toBe(200);
    const items = list(answer);
    const expected = projectMergeRequests().sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
    expect(iids(items)).toEqual(expected.map((mergeRequest) => mergeRequest.iid));
    expect(answer.headers.get('x-total')).toBe(String(expected.length));
    expect(items[0]).toMatchObject({ project_id: 1, references: { short: `!${expected[0]!.iid}` }, time_stats: { total_time_spent: 0 } });
    expect(items[0]).toHaveProperty('assignees');
  });

  it('filters by state, iids, labels, branches and draft, and orders as asked', async () => {
    const all = projectMergeRequests();
    const opened = list(await call(sim, '/projects/1/merge_requests?state=opened&per_page=100', { token: maintainer }));
    expect(new Set(iids(opened))).toEqual(new Set(all.filter((mergeRequest) => mergeRequest.state === 'opened').map((mergeRequest) => mergeRequest.iid)));
    const [first, second] = all;
    const byIid = list(await call(sim, `/projects/1/merge_requests?iids[]=${first!.iid}&iids[]=${second!.iid}&order_by=created_at&sort=asc`, { token: maintainer }));
    expect(new Set(iids(byIid))).toEqual(new Set([first!.iid, second!.iid]));
    const labelled = all.find((mergeRequest) => mergeRequest.labels.length > 0)!;
    const withLabel = list(await call(sim, `/projects/1/merge_requests?labels=${encodeURIComponent(labelled.labels[0]!)}&per_page=100`, { token: maintainer }));
    expect(withLabel.every((item) => (item['labels'] as string[]).includes(labelled.labels[0]!))).toBe(true);
    expect(iids(withLabel)).toContain(labelled.iid);
    const unlabelled = list(await call(sim, '/projects/1/merge_requests?labels=None&per_page=100', { token: maintainer }));
    expect(unlabelled.every((item) => (item['labels'] as string[]).length === 0)).toBe(true);
    const fromBranch = list(await call(sim, `/projects/1/merge_requests?source_branch=${encodeURIComponent(first!.sourceBranch)}&per_page=100`, { token: maintainer }));
    expect(fromBranch.every((item) => item['source_branch'] === first!.sourceBranch)).toBe(true);
    const drafts = list(await call(sim, '/projects/1/merge_requests?wip=yes&per_page=100', { token: maintainer }));
    expect(drafts.every((item) => item['draft'] === true)).toBe(true);
  });

  it('refuses bad values (400), hides a private project (404) and refuses disabled merge requests (403)', async () => {
    expect(record(await call(sim, '/projects/1/merge_requests?state=nope', { token: maintainer }))).toEqual({ error: 'state does not have a valid value' });
    expect(record(await call(sim, '/projects/5/merge_requests', { token: outsider }))).toEqual({ message: '404 Project Not Found' });
    sim.state.projects.get(2)!.mergeRequestsEnabled = false;
    try {
      expect((await call(sim, '/projects/2/merge_requests', { token: admin })).status).toBe(403);
    } finally {
      sim.state.projects.get(2)!.mergeRequestsEnabled = true;
    }
  });
});
