import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const token = DEMO_TOKENS.maintainer;
const PROJECT = 'gitlab-org/gitlab-runner';
const REST_PROJECT = '/projects/gitlab-org%2Fgitlab-runner';

interface Commit {
  sha: string;
  title: string;
  message: string;
  parentIds: string[];
  stats: { additions: number; deletions: number; total: number } | null;
}
interface ChangePayload {
  errors: string[];
  errorCode: string | null;
  dryRun: boolean;
  commit: Commit | null;
}
interface RestDiff {
  new_path: string;
  old_path: string;
  a_mode: string;
  b_mode: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
  diff: string;
}

const COMMIT = 'sha title message parentIds stats { additions deletions total }';
const CREATE = `mutation($input: CommitCreateInput!) { commitCreate(input: $input) { clientMutationId errors commit { ${COMMIT} } } }`;
const CHANGE = (name: 'commitCherryPick' | 'commitRevert', input: 'CommitCherryPickInput' | 'CommitRevertInput') =>
  `mutation($input: ${input}!) { ${name}(input: $input) { errors errorCode dryRun commit { ${COMMIT} } } }`;
const CHERRY_PICK = CHANGE('commitCherryPick', 'CommitCherryPickInput');
const REVERT = CHANGE('commitRevert', 'CommitRevertInput');

describe('commit mutations over real HTTP', () => {
  const harness = gatewayOverSimulator();

  async function create(input: Record<string, unknown>, as: string = token) {
    return harness.gateway.query<{ commitCreate: { clientMutationId: string | null; errors: string[]; commit: Commit | null } }>(CREATE, { input: { projectPath: PROJECT, ...input } }, as);
  }

  async function newBranch(branch: string, file: string, content: string, from = 'main'): Promise<Commit> {
    const result = await create({ branch, startBranch: from, message: `Start ${branch}`, actions: [{ action: 'CREATE', filePath: file, content }] });
    expect(result.errors).toBeUndefined();
    return result.data!.commitCreate.commit!;
  }

  async function change(query: string, sha: string, branch: string, dryRun = false) {
    const result = await harness.gateway.query<Record<string, ChangePayload>>(query, { input: { projectPath: PROJECT, sha, branch, dryRun } }, token);
    expect(result.errors).toBeUndefined();
    return Object.values(result.data!)[0]!;
  }

  async function headOf(branch: string): Promise<string> {
    return (await harness.oracle.get<{ id: string }>(`${REST_PROJECT}/repository/commits/${encodeURIComponent(branch)}`, token)).id;
  }

  describe('a commit through its life', () => {
    it('creates a commit with every kind of action, reads it back, picks it, picks it again, reverts it', async () => {
      const main = await headOf('main');
      const created = await create({
        clientMutationId: 'every-action',
        branch: 'e2e-feature',
        startBranch: 'main',
        message: 'Every kind of action\n\nOne batch.',
        actions: [
          { action: 'CREATE', filePath: 'notes/todo.md', content: '# To do\n\n- ship it\n' },
          { action: 'CREATE', filePath: 'assets/pixel.bin', content: Buffer.from([0, 255, 0, 1]).toString('base64'), encoding: 'BASE64' },
          { action: 'UPDATE', filePath: 'README.md', content: '# GitLab Runner\n\nRewritten.\n' },
          { action: 'MOVE', filePath: 'docs/guide.md', previousPath: 'docs/index.md' },
          { action: 'CHMOD', filePath: 'bin/setup', executeFilemode: false },
          { action: 'DELETE', filePath: 'LICENSE' },
        ],
      });
      expect(created.errors).toBeUndefined();
      // One POST with the whole batch.
      expect(restCalls(harness.simulator)).toEqual([`POST ${REST_PROJECT}/repository/commits`]);
      const commit = created.data!.commitCreate.commit!;
      expect(created.data!.commitCreate).toMatchObject({ clientMutationId: 'every-action', errors: [] });
      expect(commit).toMatchObject({ title: 'Every kind of action', message: 'Every kind of action\n\nOne batch.', parentIds: [main] });

      // Read back: the diff and stats as REST has them.
      harness.simulator.resetRequests();
      const read = await harness.gateway.query<{ project: { repository: { commit: { stats: Commit['stats']; diffs: { nodes: Array<Record<string, unknown>> } } } } }>(
        `query($sha: String!) { project(fullPath: "${PROJECT}") { repository { commit(ref: $sha) { stats { additions deletions total }
            diffs(first: 20) { nodes { newPath oldPath aMode bMode newFile renamedFile deletedFile diff } } } } } }`,
        { sha: commit.sha },
        token,
      );
      expect(read.errors).toBeUndefined();
      const diffs = await harness.oracle.get<RestDiff[]>(`${REST_PROJECT}/repository/commits/${commit.sha}/diff`, token);
      expect(read.data!.project.repository.commit.diffs.nodes).toEqual(
        diffs.map((d) => ({ newPath: d.new_path, oldPath: d.old_path, aMode: d.a_mode, bMode: d.b_mode, newFile: d.new_file, renamedFile: d.renamed_file, deletedFile: d.deleted_file, diff: d.diff })),
      );
      expect(read.data!.project.repository.commit.stats).toEqual(commit.stats);
      expect(diffs.map((d) => [d.new_path, d.new_file, d.renamed_file, d.deleted_file, d.b_mode])).toEqual([
        ['LICENSE', false, false, true, '0'],
        ['README.md', false, false, false, '100644'],
        ['assets/pixel.bin', true, false, false, '100644'],
        ['bin/setup', false, false, false, '100644'],
        ['docs/guide.md', false, true, false, '100644'],
        ['notes/todo.md', true, false, false, '100644'],
      ]);
      const additions = diffs.reduce((sum, d) => sum + d.diff.split('\n').filter((line) => line.startsWith('+')).length, 0);
      expect(commit.stats!.additions).toBe(additions);

      // Picked onto another branch: a dry run first, which writes nothing.
      const release = await newBranch('e2e-release', 'release.txt', 'v2\n');
      harness.simulator.resetRequests();
      expect(await change(CHERRY_PICK, commit.sha, 'e2e-release', true)).toEqual({ errors: [], errorCode: null, dryRun: true, commit: null });
      expect(restCalls(harness.simulator)).toEqual([`POST ${REST_PROJECT}/repository/commits/${commit.sha}/cherry_pick`]);
      expect(await headOf('e2e-release')).toBe(release.sha);
      const picked = await change(CHERRY_PICK, commit.sha, 'e2e-release');
      expect(picked).toMatchObject({ errors: [], errorCode: null, dryRun: false });
      expect(picked.commit).toMatchObject({ title: commit.title, parentIds: [release.sha], message: `${commit.message}\n\n(cherry picked from commit ${commit.sha})` });
      // Stats are not in REST's cherry-pick answer: they come from the commit's own record.
      expect(picked.commit!.stats).toEqual(commit.stats);

      // Picked again: the change is already there.
      const again = await change(CHERRY_PICK, commit.sha, 'e2e-release');
      expect(again).toEqual({
        errors: ['Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, or a more recent commit may have updated some of its content.'],
        errorCode: 'EMPTY',
        dryRun: false,
        commit: null,
      });

      // Reverted, then reverted again (empty).
      const reverted = await change(REVERT, picked.commit!.sha, 'e2e-release');
      // A revert adds what the commit deleted and deletes what it added.
      const undone = { additions: commit.stats!.deletions, deletions: commit.stats!.additions, total: commit.stats!.total };
      expect(reverted.commit).toMatchObject({ title: `Revert "${commit.title}"`, parentIds: [picked.commit!.sha], stats: undone });
      expect(await change(REVERT, picked.commit!.sha, 'e2e-release')).toMatchObject({ errorCode: 'EMPTY', commit: null });
      expect(await headOf('e2e-release')).toBe(reverted.commit!.sha);
    });

    it('reports a conflicting cherry-pick as data, on a dry run as on a real one', async () => {
      const left = await create({ branch: 'e2e-left', startBranch: 'main', message: 'Left', actions: [{ action: 'UPDATE', filePath: 'README.md', content: '# Left\n' }] });
      await create({ branch: 'e2e-right', startBranch: 'main', message: 'Right', actions: [{ action: 'UPDATE', filePath: 'README.md', content: '# Right\n' }] });
      const right = await headOf('e2e-right');
      const conflict = {
        errors: ['Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, or a more recent commit may have updated some of its content.'],
        errorCode: 'CONFLICT',
        commit: null,
      };
      expect(await change(CHERRY_PICK, left.data!.commitCreate.commit!.sha, 'e2e-right', true)).toEqual({ ...conflict, dryRun: true });
      expect(await change(CHERRY_PICK, left.data!.commitCreate.commit!.sha, 'e2e-right')).toEqual({ ...conflict, dryRun: false });
      expect(await headOf('e2e-right')).toBe(right);
    });
  });

  describe('commitCreate refusals', () => {
    it('returns what REST refused as errors, with no commit', async () => {
      const result = await create({ branch: 'main', message: 'Again', actions: [{ action: 'CREATE', filePath: 'README.md', content: 'x' }] });
      expect(result).toEqual({ data: { commitCreate: { clientMutationId: null, errors: ['A file with this name already exists'], commit: null } } });
      expect(restCalls(harness.simulator)).toEqual([`POST ${REST_PROJECT}/repository/commits`]);
      const stale = await create({ branch: 'main', message: 'Stale', actions: [{ action: 'UPDATE', filePath: 'README.md', content: 'x', lastCommitId: 'f'.repeat(40) }] });
      expect(stale.data!.commitCreate.errors).toEqual(['The file has changed since you started editing it: README.md']);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['a CREATE without content', { actions: [{ action: 'CREATE', filePath: 'a.txt' }] }, 'actions'],
      ['a CHMOD without executeFilemode', { actions: [{ action: 'CHMOD', filePath: 'a.txt' }] }, 'actions'],
      ['content on a DELETE', { actions: [{ action: 'DELETE', filePath: 'a.txt', content: 'x' }] }, 'actions'],
      ['a MOVE without previousPath', { actions: [{ action: 'MOVE', filePath: 'a.txt' }] }, 'actions'],
      ['lastCommitId on a CREATE', { actions: [{ action: 'CREATE', filePath: 'a.txt', content: 'x', lastCommitId: 'a'.repeat(40) }] }, 'actions'],
      ['content that is not base64', { actions: [{ action: 'CREATE', filePath: 'a.bin', content: 'not base64!', encoding: 'BASE64' }] }, 'actions'],
      ['no actions', { actions: [] }, 'actions'],
      ['startBranch and startSha', { startBranch: 'main', startSha: 'a'.repeat(40), actions: [{ action: 'DELETE', filePath: 'a.txt' }] }, 'startSha'],
      ['a short startSha', { startSha: 'abc1234', actions: [{ action: 'DELETE', filePath: 'a.txt' }] }, 'startSha'],
      ['a blank message', { message: ' ', actions: [{ action: 'DELETE', filePath: 'a.txt' }] }, 'message'],
    ])('refuses %s before any REST call', async (_name, input, argumentName) => {
      const result = await create({ branch: 'main', message: 'x', ...input });
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName });
      expect(restCalls(harness.simulator)).toEqual([]);
    });

    it('fails with FORBIDDEN when the caller may not push to the branch', async () => {
      const result = await create({ branch: 'main', message: 'x', actions: [{ action: 'CREATE', filePath: 'dev.txt', content: 'x' }] }, DEMO_TOKENS.developer);
      expect(result.data!.commitCreate).toBeNull();
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
    });
  });

  describe('commitStatusCreate', () => {
    const STATUS = `mutation($input: CommitStatusCreateInput!) { commitStatusCreate(input: $input) { errors commitStatus { id status name ref targetUrl coverage pipelineId } } }`;
    const post = async (sha: string, input: Record<string, unknown>) => {
      const result = await harness.gateway.query<{ commitStatusCreate: { errors: string[]; commitStatus: Record<string, unknown> | null } }>(
        STATUS,
        { input: { projectPath: PROJECT, sha, name: 'e2e/deploy', ...input } },
        DEMO_TOKENS.developer,
      );
      expect(result.errors).toBeUndefined();
      return result.data!.commitStatusCreate;
    };

    it('adds a status, updates it while it runs, and reports a refused move as data', async () => {
      const sha = await headOf('main');
      const pending = await post(sha, { state: 'PENDING', targetUrl: 'https://deploy.example.com/1' });
      expect(pending).toMatchObject({ errors: [], commitStatus: { status: 'PENDING', name: 'e2e/deploy', ref: 'main', targetUrl: 'https://deploy.example.com/1' } });
      expect(restCalls(harness.simulator)).toEqual([`POST ${REST_PROJECT}/statuses/${sha}`]);
      const running = await post(sha, { state: 'RUNNING' });
      expect(running.commitStatus!['id']).toBe(pending.commitStatus!['id']);
      expect(await post(sha, { state: 'PENDING' })).toEqual({
        errors: ['Cannot transition status via :enqueue from :running (Reason(s): Status cannot transition via "enqueue")'],
        commitStatus: null,
      });
      const done = await post(sha, { state: 'SUCCESS', coverage: 88.25, pipelineId: running.commitStatus!['pipelineId'] });
      expect(done.commitStatus).toMatchObject({ id: pending.commitStatus!['id'], status: 'SUCCESS', coverage: 88.25 });
      const redeploy = await post(sha, { state: 'RUNNING' });
      expect(redeploy.commitStatus!['id']).not.toBe(pending.commitStatus!['id']);

      const read = await harness.gateway.query<{ project: { repository: { commit: { latest: { nodes: unknown[] }; all: { count: number; nodes: Array<{ status: string }> } } } } }>(
        `query($sha: String!) { project(fullPath: "${PROJECT}") { repository { commit(ref: $sha) {
            latest: statuses(name: "e2e/deploy") { nodes { status } } all: statuses(name: "e2e/deploy", all: true) { count nodes { status } } } } } }`,
        { sha },
        token,
      );
      expect(read.errors).toBeUndefined();
      expect(read.data!.project.repository.commit.latest.nodes).toEqual([{ status: 'RUNNING' }]);
      expect(read.data!.project.repository.commit.all).toEqual({ count: 2, nodes: [{ status: 'SUCCESS' }, { status: 'RUNNING' }] });
    });

    it('refuses a pipeline ID of another class before any REST call', async () => {
      const result = await harness.gateway.query(STATUS, { input: { projectPath: PROJECT, sha: 'a'.repeat(40), state: 'SUCCESS', pipelineId: 'gid://gitlab/Project/1' } }, token);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'pipelineId' });
      expect(restCalls(harness.simulator)).toEqual([]);
    });
  });

  describe('commitCommentCreate', () => {
    const COMMENT = `mutation($input: CommitCommentCreateInput!) { commitCommentCreate(input: $input) { errors comment { note path line lineType author { username } } } }`;

    it('places a comment on a changed line by the rule, and on the commit as a whole otherwise', async () => {
      const commit = await newBranch('e2e-comments', 'comment-me.txt', 'first\nsecond\n');
      const comment = async (input: Record<string, unknown>) => {
        const result = await harness.gateway.query<{ commitCommentCreate: { comment: Record<string, unknown> } }>(COMMENT, { input: { projectPath: PROJECT, sha: commit.sha, ...input } }, DEMO_TOKENS.guest);
        expect(result.errors).toBeUndefined();
        return result.data!.commitCommentCreate.comment;
      };
      expect(await comment({ note: 'On line two', path: 'comment-me.txt', line: 2, lineType: 'NEW' })).toEqual({ note: 'On line two', path: 'comment-me.txt', line: 2, lineType: 'NEW', author: { username: 'guest' } });
      expect(await comment({ note: 'No such line', path: 'comment-me.txt', line: 9 })).toMatchObject({ path: null, line: null, lineType: null });
      // By branch name the line is found too: the branch resolves to the same commit.
      expect(await comment({ note: 'Via the branch', path: 'comment-me.txt', line: 1 })).toMatchObject({ line: 1 });
      expect(await comment({ note: 'Whole commit' })).toMatchObject({ path: null });

      const read = await harness.gateway.query<{ project: { repository: { commit: { comments: { count: number }; discussions: { nodes: Array<{ individualNote: boolean; notes: { nodes: Array<{ body: string }> } }> } } } } }>(
        `query($sha: String!) { project(fullPath: "${PROJECT}") { repository { commit(ref: $sha) { comments { count } discussions { nodes { individualNote notes { nodes { body } } } } } } } }`,
        { sha: commit.sha },
        token,
      );
      expect(read.data!.project.repository.commit.comments.count).toBe(4);
      expect(read.data!.project.repository.commit.discussions.nodes.map((d) => [d.individualNote, d.notes.nodes.map((n) => n.body)])).toEqual([
        [false, ['On line two']],
        [true, ['No such line']],
        [false, ['Via the branch']],
        [true, ['Whole commit']],
      ]);
    });

    it.each([
      ['a path without a line', { path: 'a.txt' }, 'line'],
      ['a line without a path', { line: 3 }, 'path'],
      ['a line type alone', { lineType: 'OLD' }, 'lineType'],
    ])('refuses %s before any REST call', async (_name, input, argumentName) => {
      const result = await harness.gateway.query(COMMENT, { input: { projectPath: PROJECT, sha: 'main', note: 'x', ...input } }, token);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName });
      expect(restCalls(harness.simulator)).toEqual([]);
    });
  });

  describe('submoduleUpdate', () => {
    const UPDATE = `mutation($input: SubmoduleUpdateInput!) { submoduleUpdate(input: $input) { errors commit { sha title parentIds diffs { nodes { newPath diff } } } } }`;
    const update = (input: Record<string, unknown>) =>
      harness.gateway.query<{ submoduleUpdate: { errors: string[]; commit: { sha: string; title: string; parentIds: string[]; diffs: { nodes: Array<{ newPath: string; diff: string }> } } | null } }>(
        UPDATE,
        { input: { projectPath: 'gitlab-org/gitlab', submodule: 'vendor/gitaly', branch: 'main', ...input } },
        token,
      );

    it('moves the submodule in a new commit, and says when it is already there', async () => {
      const gitaly = await harness.oracle.get<{ id: string }>('/projects/3/repository/commits/main', token);
      const before = (await harness.oracle.get<{ id: string }>('/projects/1/repository/commits/main', token)).id;
      harness.simulator.resetRequests();
      const moved = await update({ commitSha: gitaly.id });
      expect(moved.errors).toBeUndefined();
      expect(restCalls(harness.simulator)[0]).toBe('PUT /projects/gitlab-org%2Fgitlab/repository/submodules/vendor%2Fgitaly');
      expect(moved.data!.submoduleUpdate.commit).toMatchObject({ title: `Update submodule vendor/gitaly with oid ${gitaly.id}`, parentIds: [before] });
      expect(moved.data!.submoduleUpdate.commit!.diffs.nodes).toEqual([{ newPath: 'vendor/gitaly', diff: expect.stringContaining(`+Subproject commit ${gitaly.id}\n`) as unknown }]);
      const again = await update({ commitSha: gitaly.id });
      expect(again.data!.submoduleUpdate).toEqual({ errors: [`The submodule vendor/gitaly is already at ${gitaly.id}`], commit: null });
      const notSubmodule = await update({ submodule: 'README.md', commitSha: gitaly.id });
      expect(notSubmodule.data!.submoduleUpdate.errors).toEqual(['Invalid submodule path']);
    });

    it('refuses a commit SHA that is not a full SHA before any REST call', async () => {
      const result = await update({ commitSha: 'abc123' });
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'commitSha' });
      expect(restCalls(harness.simulator)).toEqual([]);
    });
  });
});
