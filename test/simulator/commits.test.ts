import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoState, DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { readFixture } from '../support/stub-upstream.js';
import { call, list, record } from './helpers.js';

let sim: Simulator;
const { admin, maintainer, developer, guest } = DEMO_TOKENS;
const P = '/projects/gitlab-org%2Fgitlab';

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

const keys = (value: unknown) => Object.keys(value as Record<string, unknown>).sort();
/** Every key of the REST documentation's example is in the simulator's answer. */
function hasFixtureKeys(actual: unknown, fixture: string) {
  const example = readFixture(fixture);
  const sample = Array.isArray(example) ? (example[0] as unknown) : example;
  expect(keys(actual)).toEqual(expect.arrayContaining(keys(sample)));
}

async function head(branch = 'main'): Promise<Record<string, unknown>> {
  return record(await call(sim, `${P}/repository/commits/${encodeURIComponent(branch)}`, { token: maintainer }));
}

async function commit(body: Record<string, unknown>, token: string = maintainer) {
  return call(sim, `${P}/repository/commits`, { method: 'POST', token, json: body });
}

describe('demo repositories', () => {
  it('are the same on every start, and make the merge requests\' commits real', () => {
    const heads = (state: ReturnType<typeof createDemoState>) => [...state.repositories].map(([id, repository]) => [id, [...repository.branches], [...repository.tags.keys()]]);
    expect(JSON.stringify(heads(createDemoState()))).toBe(JSON.stringify(heads(sim.state)));
    for (const mr of sim.state.mergeRequests.values()) {
      const repository = sim.state.repositories.get(mr.projectId)!;
      expect(repository.commits.has(mr.sha)).toBe(true);
      if (mr.state === 'merged') expect(repository.commits.get(mr.mergeCommitSha!)!.parents).toContain(mr.sha);
    }
  });
});

describe('GET /projects/:id/repository/commits', () => {
  it('pages without totals, as the Commits API does', async () => {
    const page = await call(sim, `${P}/repository/commits?per_page=5`);
    expect(page.status).toBe(200);
    expect(list(page)).toHaveLength(5);
    expect(page.headers.get('x-total')).toBeNull();
    expect(page.headers.get('x-total-pages')).toBeNull();
    expect(page.headers.get('x-next-page')).toBe('2');
    expect(page.headers.get('link')).not.toContain('rel="last"');
    hasFixtureKeys(list(page)[0], 'commits/list-repository-commits.json');
  });

  it('reads ranges, paths and dates, and answers an unknown ref with nothing', async () => {
    const all = list(await call(sim, `${P}/repository/commits?per_page=100`));
    const range = list(await call(sim, `${P}/repository/commits?ref_name=main~3..main`));
    expect(range.map((c) => c['id'])).toEqual(all.slice(0, 3).map((c) => c['id']));
    const touched = list(await call(sim, `${P}/repository/commits?path=docs%2Findex.md&per_page=100`));
    expect(touched.length).toBeGreaterThan(0);
    expect(touched.length).toBeLessThan(all.length);
    const newest = all[0]!['committed_date'] as string;
    const since = list(await call(sim, `${P}/repository/commits?since=${encodeURIComponent(newest)}`));
    expect(since.map((c) => c['id'])).toEqual([all[0]!['id']]);
    expect(list(await call(sim, `${P}/repository/commits?ref_name=no-such-branch`))).toEqual([]);
    expect((await call(sim, `${P}/repository/commits?since=yesterday`)).body).toEqual({ error: 'since is invalid' });
  });

  it('adds stats and trailers on request', async () => {
    const [first] = list(await call(sim, `${P}/repository/commits?per_page=1&with_stats=true&trailers=true`));
    expect(first!['stats']).toEqual({ additions: expect.any(Number) as number, deletions: expect.any(Number) as number, total: expect.any(Number) as number });
    expect(Object.keys(first!['extended_trailers'] as object).length).toBeGreaterThan(0);
  });

  it('hides private projects', async () => {
    expect((await call(sim, '/projects/acme%2Fwebsite/repository/commits')).status).toBe(404);
    expect((await call(sim, '/projects/acme%2Fwebsite/repository/commits', { token: developer })).status).toBe(200);
  });
});

describe('one commit and its sub-resources', () => {
  it('answers the detail with stats, status and last pipeline, by SHA, branch or tag', async () => {
    const main = await head();
    hasFixtureKeys(main, 'commits/get-commit.json');
    expect(main['last_pipeline']).toMatchObject({ sha: main['id'], status: main['status'] });
    const bySha = await call(sim, `${P}/repository/commits/${String(main['id']).slice(0, 10)}`);
    expect(record(bySha)['id']).toBe(main['id']);
    expect(record(await call(sim, `${P}/repository/commits/v1%2E0%2E0`))['id']).toMatch(/^[0-9a-f]{40}$/);
    expect((await call(sim, `${P}/repository/commits/nothing`)).body).toEqual({ message: '404 Commit Not Found' });
  });

  it('lists refs, diffs, statuses and merge requests in the documented shapes', async () => {
    const main = await head();
    const sha = String(main['id']);
    const refs = await call(sim, `${P}/repository/commits/${sha}/refs?type=branch`);
    expect(list(refs)).toContainEqual({ type: 'branch', name: 'main' });
    expect(refs.headers.get('x-total')).toBeNull();
    const diff = list(await call(sim, `${P}/repository/commits/${sha}/diff`));
    hasFixtureKeys(diff[0], 'commits/get-commit-diff.json');
    const statuses = list(await call(sim, `${P}/repository/commits/${sha}/statuses`, { token: guest }));
    hasFixtureKeys(statuses[0], 'commits/list-commit-statuses.json');
    expect(record(await call(sim, `${P}/repository/commits/${sha}/sequence`))['count']).toBeGreaterThan(60);
  });

  it('finds the merge requests a commit is in, and refuses where merge requests are off', async () => {
    const mergeRequest = [...sim.state.mergeRequests.values()].find((mr) => mr.state === 'merged' && sim.state.projects.get(mr.projectId)?.visibility === 'public')!;
    const project = `/projects/${mergeRequest.projectId}`;
    const bySource = list(await call(sim, `${project}/repository/commits/${mergeRequest.sha}/merge_requests`));
    expect(bySource.map((mr) => mr['iid'])).toContain(mergeRequest.iid);
    hasFixtureKeys(bySource[0], 'commits/list-commit-merge-requests.json');
    const byMerge = list(await call(sim, `${project}/repository/commits/${mergeRequest.mergeCommitSha}/merge_requests`));
    expect(byMerge.map((mr) => mr['iid'])).toEqual([mergeRequest.iid]);
    expect((await call(sim, '/projects/opensource%2Ftools%2Flinter/repository/commits/main/merge_requests')).status).toBe(403);
  });

  it('answers signatures of each kind, the X.509 serial as a 39-digit JSON integer, and 404 when unsigned', async () => {
    const commits = [...sim.state.repositories.get(1)!.commits.values()];
    const signed = commits.filter((c) => c.signature !== null);
    expect(signed.map((c) => c.signature!.type).sort()).toEqual(['PGP', 'SSH', 'X509']);
    for (const { sha, signature } of signed) {
      const answer = await call(sim, `${P}/repository/commits/${sha}/signature`);
      hasFixtureKeys(answer.body, `commits/get-commit-signature-${signature!.type === 'PGP' ? 'gpg' : signature!.type.toLowerCase()}.json`);
      if (signature!.type === 'X509') expect(answer.text).toContain('"serial_number":278969561018901340486471282831158785578,');
    }
    const unsigned = commits.find((c) => c.signature === null)!;
    expect((await call(sim, `${P}/repository/commits/${unsigned.sha}/signature`)).body).toEqual(readFixture('commits/get-commit-signature-unsigned-404.json'));
  });
});

describe('POST /projects/:id/repository/commits', () => {
  it('applies every action as one batch and answers the detail with stats', async () => {
    const created = await commit({
      branch: 'sim-actions',
      start_branch: 'main',
      commit_message: 'Every action',
      actions: [
        { action: 'create', file_path: 'notes/a.txt', content: 'a\n' },
        { action: 'create', file_path: 'notes/logo.bin', content: Buffer.from([0, 1, 2]).toString('base64'), encoding: 'base64' },
        { action: 'update', file_path: 'README.md', content: '# Changed\n' },
        { action: 'move', file_path: 'docs/guide.md', previous_path: 'docs/index.md' },
        { action: 'chmod', file_path: 'notes/a.txt', execute_filemode: true },
        { action: 'delete', file_path: 'LICENSE' },
      ],
    });
    expect(created.status).toBe(201);
    hasFixtureKeys(created.body, 'commits/create-commit.json');
    const diff = list(await call(sim, `${P}/repository/commits/sim-actions/diff`));
    expect(diff.map((d) => [d['new_path'], d['new_file'], d['renamed_file'], d['deleted_file'], d['b_mode']])).toEqual([
      ['LICENSE', false, false, true, '0'],
      ['README.md', false, false, false, '100644'],
      ['docs/guide.md', false, true, false, '100644'],
      ['notes/a.txt', true, false, false, '100755'],
      ['notes/logo.bin', true, false, false, '100644'],
    ]);
    // A form body with actions[][...] fields is read the same way.
    const form = await call(sim, `${P}/repository/commits`, {
      method: 'POST',
      token: maintainer,
      form: 'branch=sim-actions&commit_message=Form&actions[][action]=create&actions[][file_path]=form.txt&actions[][content]=x',
    });
    expect(form.status).toBe(201);
  });

  it.each([
    [{ action: 'create', file_path: 'README.md', content: 'x' }, 'A file with this name already exists'],
    [{ action: 'delete', file_path: 'nope.md' }, "A file with this name doesn't exist"],
    [{ action: 'update', file_path: 'README.md', content: 'x', last_commit_id: 'f'.repeat(40) }, 'The file has changed since you started editing it: README.md'],
    [{ action: 'update', file_path: 'README.md' }, '400 Bad request - actions[0][content] is required for update action'],
    [{ action: 'rename', file_path: 'README.md' }, '400 Bad request - actions[0][action] must be one of: create, update, move, delete, chmod'],
  ])('refuses %o with %s, writing nothing', async (action, message) => {
    const before = await head();
    const refused = await commit({ branch: 'main', commit_message: 'No', actions: [action] });
    expect(refused).toMatchObject({ status: 400, body: { message } });
    expect((await head())['id']).toBe(before['id']);
  });

  it('guards branches: new ones need a start, existing ones refuse one, the default branch takes Maintainers', async () => {
    const actions = [{ action: 'create', file_path: `guard-${Date.now()}.txt`, content: 'x' }];
    expect((await commit({ branch: 'no-such-branch', commit_message: 'x', actions })).body).toEqual({ message: 'You can only create or edit files when you are on a branch' });
    expect((await commit({ branch: 'main', start_branch: 'sim-actions', commit_message: 'x', actions })).body).toEqual({
      message: "A branch called 'main' already exists. Switch to that branch in order to make changes",
    });
    expect((await commit({ branch: 'main', commit_message: 'x', actions }, developer)).body).toEqual({ message: '403 Forbidden - You are not allowed to push into this branch' });
    expect((await commit({ branch: 'dev-branch', start_branch: 'main', commit_message: 'x', actions }, developer)).status).toBe(201);
    expect((await commit({ branch: 'main', commit_message: 'x', actions }, guest)).status).toBe(403);
    expect((await call(sim, `${P}/repository/commits`, { method: 'POST', json: { branch: 'main' } })).status).toBe(401);
  });

  it('overwrites a branch with force', async () => {
    const main = await head();
    const forced = await commit({ branch: 'sim-actions', start_sha: main['id'], force: true, commit_message: 'Forced', actions: [{ action: 'create', file_path: 'forced.txt', content: 'f' }] });
    expect(forced.status).toBe(201);
    expect(record(forced)['parent_ids']).toEqual([main['id']]);
  });
});

describe('cherry-pick and revert', () => {
  it('picks once, refuses the same pick as empty, with the documented bodies; a dry run writes nothing', async () => {
    const base = await head();
    const branch = 'pick-target';
    await commit({ branch, start_branch: 'main', commit_message: 'Start', actions: [{ action: 'create', file_path: 'pick-start.txt', content: 's' }] });
    const change = record(await commit({ branch: 'pick-source', start_sha: base['id'], commit_message: 'Feature', actions: [{ action: 'create', file_path: 'feature.txt', content: 'f\n' }] }));
    const dry = await call(sim, `${P}/repository/commits/${String(change['id'])}/cherry_pick`, { method: 'POST', token: maintainer, json: { branch, dry_run: true } });
    expect(dry).toMatchObject({ status: 200, body: readFixture('commits/cherry-pick-commit-dry-run.json') });
    const picked = await call(sim, `${P}/repository/commits/${String(change['id'])}/cherry_pick`, { method: 'POST', token: maintainer, json: { branch } });
    expect(picked.status).toBe(201);
    expect(record(picked)['message']).toBe(`Feature\n\n(cherry picked from commit ${String(change['id'])})`);
    const again = await call(sim, `${P}/repository/commits/${String(change['id'])}/cherry_pick`, { method: 'POST', token: maintainer, json: { branch, dry_run: true } });
    expect(again).toMatchObject({ status: 400, body: { ...(readFixture('commits/cherry-pick-commit-error-empty.json') as object), dry_run: 'error' } });
    const revert = await call(sim, `${P}/repository/commits/${String(record(picked)['id'])}/revert`, { method: 'POST', token: maintainer, json: { branch } });
    expect(record(revert)['title']).toBe('Revert "Feature"');
    const twice = await call(sim, `${P}/repository/commits/${String(record(picked)['id'])}/revert`, { method: 'POST', token: maintainer, json: { branch } });
    expect(twice.body).toMatchObject({ error_code: 'empty' });
    expect((await call(sim, `${P}/repository/commits/${String(change['id'])}/cherry_pick`, { method: 'POST', token: maintainer, json: { branch: 'nope' } })).body).toEqual({ message: '404 Branch Not Found' });
  });
});

describe('commit statuses', () => {
  it('adds a status, updates the caller\'s running one, and keeps a finished one as retried', async () => {
    const sha = String((await head())['id']);
    const post = (state: string, extra: Record<string, unknown> = {}) => call(sim, `${P}/statuses/${sha}`, { method: 'POST', token: developer, json: { state, name: 'sim/check', ...extra } });
    const pending = record(await post('pending', { target_url: 'https://ci.example.com/1' }));
    hasFixtureKeys(pending, 'commits/set-commit-status.json');
    const running = record(await post('running'));
    expect(running['id']).toBe(pending['id']);
    expect((await post('pending')).body).toEqual({ message: 'Cannot transition status via :enqueue from :running (Reason(s): Status cannot transition via "enqueue")' });
    const done = record(await post('success', { coverage: 91.5 }));
    expect(done).toMatchObject({ id: pending['id'], status: 'success', coverage: 91.5, target_url: 'https://ci.example.com/1' });
    const next = record(await post('failed'));
    expect(next['id']).not.toBe(pending['id']);
    const latest = list(await call(sim, `${P}/repository/commits/${sha}/statuses?name=sim%2Fcheck`, { token: guest }));
    const all = list(await call(sim, `${P}/repository/commits/${sha}/statuses?name=sim%2Fcheck&all=true`, { token: guest }));
    expect(latest.map((s) => s['status'])).toEqual(['failed']);
    expect(all.map((s) => s['status'])).toEqual(['success', 'failed']);
    expect((await call(sim, `${P}/statuses/${sha}`, { method: 'POST', token: guest, json: { state: 'success' } })).status).toBe(403);
    expect((await call(sim, `${P}/repository/commits/${sha}/statuses`)).status).toBe(401);
  });
});

describe('comments and discussions', () => {
  it('places a comment on a changed line, and otherwise on the commit as a whole', async () => {
    const main = await head();
    const sha = String(main['id']);
    const [file] = list(await call(sim, `${P}/repository/commits/${sha}/diff`));
    const added = /^@@ -\d+(?:,\d+)? \+(\d+)/.exec(String(file!['diff']))!;
    const lines = String(file!['diff']).split('\n').slice(1);
    const offset = lines.findIndex((line) => line.startsWith('+'));
    const line = Number(added[1]) + lines.slice(0, offset).filter((l) => !l.startsWith('-')).length;
    const comment = (body: Record<string, unknown>) => call(sim, `${P}/repository/commits/${sha}/comments`, { method: 'POST', token: guest, json: { note: 'Hm.', ...body } });
    const placed = await comment({ path: file!['new_path'], line, line_type: 'new' });
    expect(placed.status).toBe(201);
    hasFixtureKeys(placed.body, 'commits/create-commit-comment.json');
    expect(placed.body).toMatchObject({ path: file!['new_path'], line, line_type: 'new' });
    const reply = await comment({ path: file!['new_path'], line, line_type: 'new', note: 'Agreed.' });
    expect(record(reply)['line']).toBe(line);
    for (const elsewhere of [{ path: 'no/such/file', line: 1 }, { path: file!['new_path'], line: 10_000 }, { path: file!['new_path'], line, line_type: 'old' }]) {
      expect((await comment(elsewhere)).body).toMatchObject({ path: null, line: null, line_type: null });
    }
    const discussions = list(await call(sim, `${P}/repository/commits/${sha}/discussions`));
    hasFixtureKeys(discussions[0], 'commits/list-commit-discussions.json');
    const onLine = discussions.find((d) => (d['notes'] as unknown[]).length === 2 && d['individual_note'] === false);
    expect((onLine!['notes'] as Array<Record<string, unknown>>).map((n) => n['body'])).toEqual(['Hm.', 'Agreed.']);
    expect(discussions.filter((d) => d['individual_note'] === true)).toHaveLength(4);
    expect((await call(sim, `${P}/repository/commits/${sha}/comments`)).headers.get('x-total')).toBe('6');
  });
});

describe('PUT /projects/:id/repository/submodules/:submodule', () => {
  it('moves the gitlink in a new commit, and refuses what is not a submodule or already there', async () => {
    const target = 'c'.repeat(40);
    const update = (submodule: string, body: Record<string, unknown>, token: string = maintainer) =>
      call(sim, `${P}/repository/submodules/${submodule}`, { method: 'PUT', token, json: { branch: 'main', commit_sha: target, ...body } });
    const updated = await update('vendor%2Fgitaly', {});
    expect(updated.status).toBe(200);
    hasFixtureKeys(updated.body, 'submodules/update-submodule-reference.json');
    expect(record(updated)['title']).toBe(`Update submodule vendor/gitaly with oid ${target}`);
    const [diff] = list(await call(sim, `${P}/repository/commits/main/diff`));
    expect(diff).toMatchObject({ new_path: 'vendor/gitaly', a_mode: '160000', b_mode: '160000' });
    expect(String(diff!['diff'])).toContain(`+Subproject commit ${target}\n`);
    expect((await update('vendor%2Fgitaly', {})).body).toEqual({ message: `The submodule vendor/gitaly is already at ${target}` });
    expect((await update('README%2Emd', {})).body).toEqual({ message: 'Invalid submodule path' });
    expect((await update('vendor%2Fgitaly', { branch: 'nope' })).body).toEqual({ message: 'You can only create or edit files when you are on a branch' });
    expect((await update('vendor%2Fgitaly', {}, guest)).status).toBe(403);
    expect((await update('vendor%2Fgitaly', { commit_message: 'Bump' }, admin)).status).toBe(400);
  });
});
