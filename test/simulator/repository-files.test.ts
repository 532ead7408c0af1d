// The embedded server's `GET /projects/:id/repository/files/:file_path` as GitLab's REST answers it
// (lib/api/files.rb): the file at a ref with its base64 content, the content's SHA-256, its blob,
// the ref's commit and the file's last commit, and whether it is executable; `ref` required, 404
// "Commit Not Found" for an unknown ref and "File Not Found" for a path that is no file. And
// `GET /projects/:id/repository/branches/:branch` with the caller's `can_push`.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { lastCommitTouching } from '../../simulator/repository/log.js';
import { call, record } from './helpers.js';

const { developer, maintainer, outsider } = DEMO_TOKENS;
const P = '/projects/gitlab-org%2Fgitlab';

describe('GET /projects/:id/repository/files/:file_path', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });

  function defaultBranchCommit() {
    const project = sim.state.findProject('gitlab-org/gitlab')!;
    const repository = sim.state.repositories.get(project.id)!;
    return { project, repository, commit: repository.resolve(project.defaultBranch)! };
  }

  it('answers a nested file at a branch with its content, hashes, commits and file mode', async () => {
    const { repository, commit } = defaultBranchCommit();
    const answer = await call(sim, `${P}/repository/files/bin%2Fsetup?ref=main`, { token: developer });
    expect(answer.status).toBe(200);
    const file = record(answer);
    const entry = commit.tree.get('bin/setup')!;
    const content = repository.blob(entry.oid);
    expect(file).toEqual({
      file_name: 'setup',
      file_path: 'bin/setup',
      size: content.length,
      encoding: 'base64',
      content: content.toString('base64'),
      content_sha256: createHash('sha256').update(content).digest('hex'),
      ref: 'main',
      blob_id: entry.oid,
      commit_id: commit.sha,
      last_commit_id: lastCommitTouching(repository, commit.sha, 'bin/setup')!.sha,
      execute_filemode: true,
    });
  });

  it('takes a full ref name and a SHA, and says a plain file is not executable', async () => {
    const { commit } = defaultBranchCommit();
    for (const ref of ['refs/heads/main', commit.sha]) {
      const file = record(await call(sim, `${P}/repository/files/README.md?ref=${encodeURIComponent(ref)}`, { token: developer }));
      expect(file).toMatchObject({ file_name: 'README.md', file_path: 'README.md', ref, commit_id: commit.sha, execute_filemode: false });
    }
  });

  it.each([
    ['a missing ref', 'README.md', '', 400, { error: 'ref is missing' }],
    ['an unknown ref', 'README.md', '?ref=no-such-branch', 404, { message: '404 Commit Not Found' }],
    ['a missing file', 'no%2Fsuch%2Ffile.txt', '?ref=main', 404, { message: '404 File Not Found' }],
    ['a directory', 'bin', '?ref=main', 404, { message: '404 File Not Found' }],
  ])('answers %s as GitLab does', async (_name, path, query, status, body) => {
    const answer = await call(sim, `${P}/repository/files/${path}${query}`, { token: developer });
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual(body);
  });

  it('hides a private project\'s files from anonymous callers (404)', async () => {
    const hidden = [...sim.state.projects.values()].find((candidate) => candidate.visibility === 'private')!;
    const answer = await call(sim, `/projects/${hidden.id}/repository/files/README.md?ref=${hidden.defaultBranch}`);
    expect(answer.status).toBe(404);
  });
});

describe('GET /projects/:id/repository/branches/:branch', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });

  it('answers the branch with the caller\'s can_push: the protected default branch takes a maintainer', async () => {
    const forDeveloper = record(await call(sim, '/projects/1/repository/branches/main', { token: developer }));
    expect(forDeveloper).toMatchObject({ name: 'main', default: true, protected: true, can_push: false });
    const forMaintainer = record(await call(sim, '/projects/1/repository/branches/main', { token: maintainer }));
    expect(forMaintainer['can_push']).toBe(true);
    const listed = (await call(sim, '/projects/1/repository/branches?search=^main$', { token: maintainer })).body as unknown[];
    expect(listed).toEqual([forMaintainer]);
  });

  it('answers 404 "Branch Not Found" for no branch of that name, and no push to an outsider', async () => {
    const missing = await call(sim, '/projects/1/repository/branches/no-such-branch', { token: developer });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Branch Not Found' });
    const project = sim.state.projects.get(1)!;
    if (project.visibility !== 'private') {
      const forOutsider = record(await call(sim, '/projects/1/repository/branches/main', { token: outsider }));
      expect(forOutsider['can_push']).toBe(false);
    }
  });
});
