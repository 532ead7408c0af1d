import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

interface RestCommit {
  id: string;
  title: string;
  parent_ids: string[];
  committed_date: string;
  stats?: { additions: number; deletions: number; total: number };
}
interface Connection<T> {
  count: number | null;
  nodes: T[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}
type CommitsData<T> = { project: { repository: { commits: Connection<T> } } };

const token = DEMO_TOKENS.maintainer;
const PAGE = 'pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';

describe('repository commits over real HTTP', () => {
  const harness = gatewayOverSimulator();

  /** A public project with an open merge request, and that merge request, read from the demo data. */
  function projectWithOpenMergeRequest() {
    const { state } = harness.simulator;
    const mergeRequest = [...state.mergeRequests.values()].find((mr) => mr.state === 'opened' && state.projects.get(mr.projectId)?.visibility === 'public')!;
    return { fullPath: state.projectFullPath(state.projects.get(mergeRequest.projectId)!), projectId: mergeRequest.projectId, mergeRequest };
  }

  it('answers a page of commits with statuses, refs and merge requests: one list call and three calls per commit', async () => {
    const { fullPath, projectId, mergeRequest } = projectWithOpenMergeRequest();
    const result = await harness.gateway.query<CommitsData<{ sha: string; title: string; statuses: { nodes: Array<{ name: string; status: string }> }; refs: { count: null; nodes: Array<{ type: string; name: string }> }; mergeRequests: { nodes: Array<{ iid: string }> } }>>(
      `query($path: ID!, $ref: String) { project(fullPath: $path) { repository { commits(refName: $ref, first: 4) { count nodes { sha title
          statuses { nodes { name status } } refs { count nodes { type name } } mergeRequests { nodes { iid } } } } } } }`,
      { path: fullPath, ref: mergeRequest.sourceBranch },
      token,
    );
    expect(result.errors).toBeUndefined();
    const calls = restCalls(harness.simulator);
    const commits = await harness.oracle.get<RestCommit[]>(`/projects/${projectId}/repository/commits?ref_name=${encodeURIComponent(mergeRequest.sourceBranch)}&per_page=4`, token);
    const nodes = result.data!.project.repository.commits.nodes;
    expect(result.data!.project.repository.commits.count).toBeNull();
    expect(nodes.map((node) => node.sha)).toEqual(commits.map((commit) => commit.id));
    for (const [index, commit] of commits.entries()) {
      const statuses = await harness.oracle.get<Array<{ name: string; status: string }>>(`/projects/${projectId}/repository/commits/${commit.id}/statuses`, token);
      const refs = await harness.oracle.get<Array<{ type: string; name: string }>>(`/projects/${projectId}/repository/commits/${commit.id}/refs`, token);
      const mergeRequests = await harness.oracle.get<Array<{ iid: number }>>(`/projects/${projectId}/repository/commits/${commit.id}/merge_requests`, token);
      expect(nodes[index]).toEqual({
        sha: commit.id,
        title: commit.title,
        statuses: { nodes: statuses.map(({ name, status }) => ({ name, status: status.toUpperCase() })) },
        refs: { count: null, nodes: refs.map(({ type, name }) => ({ type: type.toUpperCase(), name })) },
        mergeRequests: { nodes: mergeRequests.map(({ iid }) => ({ iid: String(iid) })) },
      });
    }
    // The branch's own commits are in its merge request.
    expect(nodes[0]!.mergeRequests.nodes).toContainEqual({ iid: String(mergeRequest.iid) });
    expect(calls).toHaveLength(2 + 3 * commits.length);
    expect(calls.filter((call) => call.startsWith('GET /projects/') && call.endsWith('/repository/commits'))).toHaveLength(1);
  });

  it('asks the list for stats when the query selects them, so stats cost no call per commit', async () => {
    const result = await harness.gateway.query<CommitsData<{ stats: { total: number } }>>(
      `{ project(fullPath: "gitlab-org/gitlab") { repository { commits(first: 10) { nodes { stats { additions deletions total } } } } } }`,
      {},
      token,
    );
    expect(result.errors).toBeUndefined();
    expect(restCalls(harness.simulator)).toEqual(['GET /projects/gitlab-org%2Fgitlab', 'GET /projects/1/repository/commits']);
    expect(harness.simulator.requests[1]!.query).toMatchObject({ with_stats: 'true' });
    const commits = await harness.oracle.get<RestCommit[]>('/projects/1/repository/commits?per_page=10&with_stats=true', token);
    expect(result.data!.project.repository.commits.nodes).toEqual(commits.map((commit) => ({ stats: commit.stats })));
  });

  describe('paging', () => {
    it('walks every commit of a long history forward, then refuses `last` without `before`', async () => {
      const expected = await harness.oracle.all<RestCommit>('/projects/1/repository/commits', token);
      expect(expected.length).toBeGreaterThan(100);
      const seen: string[] = [];
      let after: string | null = null;
      for (let guard = 0; guard < 20; guard++) {
        harness.simulator.resetRequests();
        const result: { data?: CommitsData<{ sha: string }> | null; errors?: unknown } = await harness.gateway.query(
          `query($after: String) { project(fullPath: "gitlab-org/gitlab") { repository { commits(first: 40, after: $after) { count nodes { sha } ${PAGE} } } } }`,
          { after },
          token,
        );
        expect(result.errors).toBeUndefined();
        const commits = result.data!.project.repository.commits;
        expect(commits.count).toBeNull();
        expect(commits.pageInfo.hasPreviousPage).toBe(after !== null);
        expect(restCalls(harness.simulator).length).toBeLessThanOrEqual(3);
        seen.push(...commits.nodes.map((node) => node.sha));
        if (!commits.pageInfo.hasNextPage) break;
        after = commits.pageInfo.endCursor;
      }
      expect(seen).toEqual(expected.map((commit) => commit.id));

      harness.simulator.resetRequests();
      const tail = await harness.gateway.query(`{ project(fullPath: "gitlab-org/gitlab") { repository { commits(last: 5) { nodes { sha } } } } }`, {}, token);
      expect(tail.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'last' });
      expect(tail.errors?.[0]?.message).toContain('`before`');
    });

    it('walks a short history backward with `last`, each commit once', async () => {
      const fullPath = 'gitlab-org/gitlab-runner';
      const expected = await harness.oracle.all<RestCommit>('/projects/2/repository/commits', token);
      const seen: string[] = [];
      let before: string | null = null;
      for (let guard = 0; guard < 20; guard++) {
        const result: { data?: CommitsData<{ sha: string }> | null; errors?: unknown } = await harness.gateway.query(
          `query($path: ID!, $before: String) { project(fullPath: $path) { repository { commits(last: 4, before: $before) { nodes { sha } ${PAGE} } } } }`,
          { path: fullPath, before },
          token,
        );
        expect(result.errors).toBeUndefined();
        const commits = result.data!.project.repository.commits;
        expect(commits.pageInfo.hasNextPage).toBe(before !== null);
        seen.unshift(...commits.nodes.map((node) => node.sha));
        if (!commits.pageInfo.hasPreviousPage) break;
        before = commits.pageInfo.startCursor;
      }
      expect(seen).toEqual(expected.map((commit) => commit.id));
    });
  });

  describe('filters', () => {
    it.each([
      ['a revision range', { refName: 'main~5..main' }, 'ref_name=main~5..main'],
      ['a symmetric range', { refName: 'v1.0.0...v1.1.0' }, 'ref_name=v1.0.0...v1.1.0'],
      ['a path', { path: 'docs/index.md' }, 'path=docs%2Findex.md'],
      ['a directory', { path: 'src' }, 'path=src'],
      ['every ref', { all: true }, 'all=true'],
      ['first parents', { firstParent: true }, 'first_parent=true'],
      ['topological order', { order: 'TOPO' }, 'order=topo'],
      ['an author', { author: 'Maria' }, 'author=Maria'],
      ['a time window', { since: '2025-03-01T00:00:00Z', until: '2025-04-01T00:00:00Z' }, 'since=2025-03-01T00%3A00%3A00Z&until=2025-04-01T00%3A00%3A00Z'],
    ])('filters by %s, as REST does', async (_name, filters, query) => {
      const expected = await harness.oracle.get<RestCommit[]>(`/projects/1/repository/commits?${query}&per_page=100`, token);
      expect(expected.length).toBeGreaterThan(0);
      const result = await harness.gateway.query<CommitsData<{ sha: string }>>(
        `query($refName: String, $path: String, $all: Boolean, $firstParent: Boolean, $order: CommitsOrder, $author: String, $since: Time, $until: Time) {
          project(fullPath: "gitlab-org/gitlab") { repository { commits(refName: $refName, path: $path, all: $all, firstParent: $firstParent, order: $order, author: $author, since: $since, until: $until, first: 100) { nodes { sha } } } } }`,
        filters,
        token,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data!.project.repository.commits.nodes.map((node) => node.sha)).toEqual(expected.map((commit) => commit.id));
    });

    it.each([
      ['a blank refName', '{ commits(refName: " ") { count } }', 'refName'],
      ['since after until', '{ commits(since: "2025-05-01T00:00:00Z", until: "2025-04-01T00:00:00Z") { count } }', 'since'],
      ['a page of 101', '{ commits(first: 101) { count } }', 'first'],
      ['a blank ref', '{ commit(ref: "") { sha } }', 'ref'],
    ])('refuses %s before any REST call about commits', async (_name, selection, argumentName) => {
      const result = await harness.gateway.query(`{ project(fullPath: "gitlab-org/gitlab") { repository ${selection} } }`, {}, token);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName });
      expect(restCalls(harness.simulator).filter((call) => call.includes('/repository/'))).toEqual([]);
    });
  });

  describe('one commit', () => {
    it('reads a commit with its detail, parents, diffs, comments, discussions and sequence', async () => {
      const sha = [...harness.simulator.state.commitNotes.values()].find((note) => note.projectId === 1 && note.lineCode !== null)!.sha;
      const base = `/projects/1/repository/commits/${sha}`;
      const result = await harness.gateway.query<{ project: { repository: { commit: Record<string, unknown> } } }>(
        `query($ref: String!) { project(fullPath: "gitlab-org/gitlab") { repository { commit(ref: $ref) {
            sha title stats { additions deletions total } status lastPipeline { id status } sequence
            parents { sha title }
            diffs { count nodes { newPath oldPath newFile diff } }
            comments { count nodes { note path line lineType author { username } } }
            discussions { nodes { id individualNote notes { nodes { body type author { username } } } } } } } } }`,
        { ref: sha },
        token,
      );
      expect(result.errors).toBeUndefined();
      const detail = await harness.oracle.get<RestCommit & { status: string; last_pipeline: { id: number; status: string } }>(base, token);
      const parent = await harness.oracle.get<RestCommit>(`/projects/1/repository/commits/${detail.parent_ids[0]}`, token);
      const diff = await harness.oracle.get<Array<{ new_path: string; old_path: string; new_file: boolean; diff: string }>>(`${base}/diff`, token);
      const comments = await harness.oracle.get<Array<{ note: string; path: string | null; line: number | null; line_type: string | null; author: { username: string } }>>(`${base}/comments`, token);
      const discussions = await harness.oracle.get<Array<{ id: string; individual_note: boolean; notes: Array<{ body: string; type: string | null; author: { username: string } }> }>>(`${base}/discussions`, token);
      const sequence = await harness.oracle.get<{ count: number }>(`${base}/sequence`, token);
      expect(result.data!.project.repository.commit).toEqual({
        sha,
        title: detail.title,
        stats: detail.stats,
        status: detail.status.toUpperCase(),
        lastPipeline: { id: `gid://gitlab/Ci::Pipeline/${detail.last_pipeline.id}`, status: detail.last_pipeline.status.toUpperCase() },
        sequence: sequence.count,
        parents: [{ sha: parent.id, title: parent.title }],
        diffs: { count: diff.length, nodes: diff.map((d) => ({ newPath: d.new_path, oldPath: d.old_path, newFile: d.new_file, diff: d.diff })) },
        comments: { count: comments.length, nodes: comments.map((c) => ({ note: c.note, path: c.path, line: c.line, lineType: c.line_type?.toUpperCase() ?? null, author: { username: c.author.username } })) },
        discussions: {
          nodes: discussions.map((d) => ({ id: `gid://gitlab/Discussion/${d.id}`, individualNote: d.individual_note, notes: { nodes: d.notes.map((n) => ({ body: n.body, type: n.type, author: { username: n.author.username } })) } })),
        },
      });
      expect(discussions.some((d) => !d.individual_note && d.notes.length === 2)).toBe(true);
      // The project, the commit and its parent once each, then one call per sub-resource
      // (sequence, diff, comments, discussions).
      expect(restCalls(harness.simulator)).toHaveLength(1 + 2 + 4);
    });

    it('answers signatures of every kind, the X.509 serial number exact, and null for an unsigned commit', async () => {
      const result = await harness.gateway.query<CommitsData<{ sha: string; signature: Record<string, unknown> | null }>>(
        `{ project(fullPath: "gitlab-org/gitlab") { repository { commits(first: 30) { nodes { sha signature { __typename verificationStatus
            ... on X509Signature { x509Certificate { serialNumber email } } ... on GpgSignature { gpgKeyUserEmail } ... on SshSignature { key { title usageType } } } } } } } }`,
        {},
        token,
      );
      expect(result.errors).toBeUndefined();
      const signed = result.data!.project.repository.commits.nodes.filter((node) => node.signature !== null);
      expect(signed.map((node) => node.signature!['__typename']).sort()).toEqual(['GpgSignature', 'SshSignature', 'X509Signature']);
      expect(signed.find((node) => node.signature!['__typename'] === 'X509Signature')!.signature).toEqual({
        __typename: 'X509Signature',
        verificationStatus: 'UNVERIFIED',
        x509Certificate: { serialNumber: '278969561018901340486471282831158785578', email: 'gitlab@example.org' },
      });
      expect(result.data!.project.repository.commits.nodes.length - signed.length).toBeGreaterThan(0);
    });

    it('answers null for a ref that names nothing, and a runner job\'s commit still reads', async () => {
      const missing = await harness.gateway.query(`{ project(fullPath: "gitlab-org/gitlab") { repository { commit(ref: "no-such-branch") { sha } } } }`, {}, token);
      expect(missing).toEqual({ data: { project: { repository: { commit: null } } } });
      const job = await harness.gateway.query<{ runner: { jobs: { nodes: Array<{ commit: { sha: string; title: string } }> } } }>(
        `{ runner(id: "gid://gitlab/Ci::Runner/1") { jobs(first: 1) { nodes { commit { sha title } } } } }`,
        {},
        DEMO_TOKENS.admin,
      );
      expect(job.errors).toBeUndefined();
      const [restJob] = await harness.oracle.get<Array<{ commit: { id: string; title: string } }>>('/runners/1/jobs?per_page=1', DEMO_TOKENS.admin);
      expect(job.data!.runner.jobs.nodes[0]!.commit).toEqual({ sha: restJob!.commit.id, title: restJob!.commit.title });
    });
  });
});
