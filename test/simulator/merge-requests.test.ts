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

  it('filters by reviewer, merge time and negated labels and milestone, as MergeRequestsFinder does', async () => {
    const all = projectMergeRequests();
    const reviewed = all.find((mergeRequest) => mergeRequest.reviewerIds.length > 0)!;
    const reviewer = sim.state.users.get(reviewed.reviewerIds[0]!)!.username;
    const byReviewer = list(await call(sim, `/projects/1/merge_requests?reviewer_username=${reviewer}&per_page=100`, { token: maintainer }));
    expect(new Set(iids(byReviewer))).toEqual(new Set(all.filter((mergeRequest) => mergeRequest.reviewerIds.includes(reviewed.reviewerIds[0]!)).map((mergeRequest) => mergeRequest.iid)));
    expect(byReviewer.every((item) => (item['reviewers'] as Array<{ username: string }>).some((user) => user.username === reviewer))).toBe(true);
    const unreviewed = list(await call(sim, '/projects/1/merge_requests?reviewer_username=None&per_page=100', { token: maintainer }));
    expect(new Set(iids(unreviewed))).toEqual(new Set(all.filter((mergeRequest) => mergeRequest.reviewerIds.length === 0).map((mergeRequest) => mergeRequest.iid)));

    // Inclusive at both ends; merge requests never merged have no merge time to compare.
    const projectId = [...sim.state.mergeRequests.values()].find((mergeRequest) => mergeRequest.mergedAt !== null)!.projectId;
    const ofProject = [...sim.state.mergeRequests.values()].filter((mergeRequest) => mergeRequest.projectId === projectId);
    const merged = ofProject.filter((mergeRequest) => mergeRequest.mergedAt !== null);
    const pivot = merged[0]!.mergedAt!;
    const after = list(await call(sim, `/projects/${projectId}/merge_requests?merged_after=${encodeURIComponent(pivot)}&per_page=100`, { token: admin }));
    expect(new Set(iids(after))).toEqual(new Set(merged.filter((mergeRequest) => mergeRequest.mergedAt! >= pivot).map((mergeRequest) => mergeRequest.iid)));
    const before = list(await call(sim, `/projects/${projectId}/merge_requests?merged_before=${encodeURIComponent(pivot)}&per_page=100`, { token: admin }));
    expect(new Set(iids(before))).toEqual(new Set(merged.filter((mergeRequest) => mergeRequest.mergedAt! <= pivot).map((mergeRequest) => mergeRequest.iid)));

    const labelled = all.find((mergeRequest) => mergeRequest.labels.length > 0)!;
    const label = labelled.labels[0]!;
    const withoutLabel = list(await call(sim, `/projects/1/merge_requests?not[labels]=${encodeURIComponent(label)}&per_page=100`, { token: maintainer }));
    expect(new Set(iids(withoutLabel))).toEqual(new Set(all.filter((mergeRequest) => !mergeRequest.labels.includes(label)).map((mergeRequest) => mergeRequest.iid)));
  });

  it("embeds the merge request's diff head pipeline, as Ci::Pipeline, in its full record", async () => {
    const opened = projectMergeRequests().find((mergeRequest) => mergeRequest.state === 'opened')!;
    const issueId = opened.closesIssueIds[0] ?? opened.mentionsIssueIds[0]!;
    const issue = sim.state.issues.get(issueId)!;
    const related = list(await call(sim, `/projects/1/issues/${issue.iid}/related_merge_requests`, { token: maintainer }));
    const full = related.find((item) => item['iid'] === opened.iid)!;
    const head = full['head_pipeline'] as { id: number };
    expect(head).toMatchObject({ sha: opened.sha, ref: opened.sourceBranch, project_id: 1, before_sha: '0'.repeat(40) });
    const [listed] = list(await call(sim, `/projects/1/pipelines?sha=${opened.sha}&ref=${encodeURIComponent(opened.sourceBranch)}&per_page=1`, { token: maintainer }));
    expect(full['pipeline']).toEqual(listed);
    const detail = record(await call(sim, `/projects/1/pipelines/${head.id}`, { token: maintainer }));
    expect(head).toEqual(detail);
  });
});

describe('GET /projects/:id/merge_requests/:merge_request_iid', () => {
  it('answers the whole record, with its head pipeline, and 404 for a missing one', async () => {
    const opened = projectMergeRequests().find((mergeRequest) => mergeRequest.state === 'opened')!;
    const answer = record(await call(sim, `/projects/gitlab-org%2Fgitlab/merge_requests/${opened.iid}`, { token: maintainer }));
    expect(answer).toMatchObject({ iid: opened.iid, project_id: 1, changes_count: String(opened.changesCount), head_pipeline: { sha: opened.sha, ref: opened.sourceBranch } });
    const [listed] = list(await call(sim, `/projects/1/merge_requests?iids[]=${opened.iid}`, { token: maintainer }));
    expect(answer).toMatchObject(listed!);
    expect(record(await call(sim, '/projects/1/merge_requests/99999', { token: maintainer }))).toEqual({ message: '404 Not found' });
    expect((await call(sim, '/projects/5/merge_requests/1', { token: outsider })).status).toBe(404);
  });
});
