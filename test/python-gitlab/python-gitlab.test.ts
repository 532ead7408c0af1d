// python-gitlab (Debian's python3-gitlab, 3.12) as a real client of the embedded v4 server: a
// user's script (user-script.py) walks every seed domain, reading and writing through python-gitlab
// over HTTP, and prints one JSON line per step. Here each step must have succeeded, and what it read
// or wrote must be what the server holds, read back over plain REST.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, list, record } from '../simulator/helpers.js';

const run = promisify(execFile);

/** A Python that can `import gitlab`: Debian's, where scripts/ensure-python-gitlab.sh installs python3-gitlab. */
const PYTHON = process.env.PYTHON_GITLAB_PYTHON ?? '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('user-script.py', import.meta.url));

/** How many steps the script runs in each domain: a domain skipped or cut short fails here. */
const STEPS_PER_DOMAIN: Record<string, number> = {
  runners: 12,
  boards: 8,
  commits: 10,
  issues: 12,
  groups: 7,
  projects: 5,
  wikis: 6,
  'snippet storage moves': 4,
  'ssh keys': 3,
  submodules: 1,
  'job artifacts': 5,
  invitations: 4,
};

interface StepLine {
  domain: string;
  step: string;
  ok: boolean;
  values?: Record<string, unknown>;
  error?: { class: string; message: string; status?: number | null };
}

const { admin, maintainer } = DEMO_TOKENS;
let sim: Simulator;
let steps: StepLine[] = [];

/** Fails with the way to install python-gitlab when PYTHON cannot import it. */
async function requirePythonGitlab(): Promise<void> {
  try {
    await run(PYTHON, ['-c', 'import gitlab']);
  } catch (error) {
    const reason = (error as { stderr?: string }).stderr?.trim().split('\n').pop() ?? String(error);
    throw new Error(
      `python-gitlab is not importable by ${PYTHON} (${reason}). Install it with scripts/ensure-python-gitlab.sh ` +
        "(npm's pretest and .ci/run call it), or set PYTHON_GITLAB_PYTHON to a Python that has it.",
    );
  }
}

async function runScript(): Promise<StepLine[]> {
  const { stdout } = await run(PYTHON, [SCRIPT, sim.origin, '--token', maintainer, '--admin-token', admin], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as StepLine);
}

beforeAll(async () => {
  await requirePythonGitlab();
  sim = await startSimulator();
  steps = await runScript();
}, 120_000);

afterAll(async () => {
  await sim?.close();
});

const describeFailure = (line: StepLine) =>
  `${line.step}: ${line.error?.class ?? '?'}${line.error?.status ? ` (${line.error.status})` : ''}: ${line.error?.message ?? ''}`;

/** What a step read or wrote; fails with the step's error when it did not succeed. */
function valuesOf(domain: string, step: string): Record<string, unknown> {
  const line = steps.find((candidate) => candidate.domain === domain && candidate.step === step);
  if (!line) throw new Error(`the script ran no step "${step}" in ${domain}`);
  if (!line.ok || !line.values) throw new Error(`${domain}: ${describeFailure(line)}`);
  return line.values;
}

const num = (value: unknown): number => {
  if (typeof value !== 'number') throw new Error(`expected a number, got ${JSON.stringify(value)}`);
  return value;
};
const str = (value: unknown): string => {
  if (typeof value !== 'string') throw new Error(`expected a string, got ${JSON.stringify(value)}`);
  return value;
};
const field = (value: unknown, name: string): unknown => (value as Record<string, unknown>)[name];
const idsOf = (items: Record<string, unknown>[]) => items.map((item) => item['id']);
const sorted = (value: unknown) => [...(value as string[])].sort();
const sha256 = (bytes: ArrayBuffer) => createHash('sha256').update(Buffer.from(bytes)).digest('hex');

async function get(path: string, token: string = maintainer): Promise<Record<string, unknown>> {
  return record(await call(sim, path, { token }));
}

async function statusOf(path: string, token: string = maintainer): Promise<number> {
  return (await call(sim, path, { token })).status;
}

/** Every page of a list, as python-gitlab's get_all reads it. */
async function allPages(path: string, token: string = maintainer): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for (let page: string | null = '1'; page;) {
    const response = await call(sim, `${path}${path.includes('?') ? '&' : '?'}page=${page}`, { token });
    items.push(...list(response));
    page = response.headers.get('x-next-page') || null;
  }
  return items;
}

async function download(path: string, token: string = maintainer): Promise<ArrayBuffer> {
  const response = await fetch(`${sim.url}${path}`, { headers: { 'PRIVATE-TOKEN': token } });
  expect(response.status, path).toBe(200);
  return response.arrayBuffer();
}

describe('python-gitlab 3.12 against the embedded v4 server', () => {
  it.each(Object.entries(STEPS_PER_DOMAIN))('%s: every step ran and succeeded', (domain, count) => {
    const ran = steps.filter((line) => line.domain === domain);
    expect(ran.filter((line) => !line.ok).map(describeFailure)).toEqual([]);
    expect(ran.map((line) => line.step)).toHaveLength(count);
  });

  it('runs no domain that is not checked here', () => {
    expect([...new Set(steps.map((line) => line.domain))].sort()).toEqual(Object.keys(STEPS_PER_DOMAIN).sort());
  });
});

describe('runners: what python-gitlab read and wrote is what the server holds', () => {
  const v = (step: string) => valuesOf('runners', step);

  it('lists, details and jobs', async () => {
    expect(v('list owned runners')['ids']).toEqual(idsOf(await allPages('/runners')));
    expect(v('list online instance runners (admin, all)')['ids']).toEqual(
      idsOf(await allPages('/runners/all?type=instance_type&status=online', admin)),
    );
    const detail = v("read a runner's details");
    const server = await get(`/runners/${num(detail['id'])}`);
    expect(detail).toEqual({
      id: server['id'],
      description: server['description'],
      tag_list: server['tag_list'],
      status: server['status'],
    });
    const jobs = v("list a runner's successful jobs");
    expect(jobs['ids']).toEqual(idsOf(list(await call(sim, '/runners/36/jobs?status=success&per_page=20', { token: maintainer }))));
    expect(jobs['statuses']).toEqual(['success']);
    expect(v("list a group's runners")['ids']).toEqual(idsOf(await allPages('/groups/gitlab-org/runners')));
  });

  it('update, pause, enable and disable in a project', async () => {
    const update = v('update description and tags');
    const pause = v('pause');
    const server = await get(`/runners/${num(update['id'])}`);
    expect(server['description']).toBe(field(update['sent'], 'description'));
    expect(sorted(server['tag_list'])).toEqual(sorted(field(update['sent'], 'tag_list')));
    expect(sorted(update['tag_list'])).toEqual(sorted(server['tag_list']));
    expect(server['active']).toBe(field(pause['sent'], 'active'));
    expect(pause['status']).toBe(server['status']);
    const enable = v('enable a runner in a project');
    const disable = v('disable it again');
    expect(enable['ids']).toContain(enable['runner']);
    expect(disable['ids']).not.toContain(disable['runner']);
    expect(disable['ids']).toEqual(idsOf(await allPages('/projects/1/runners')));
  });

  it('register, verify and delete', async () => {
    const registered = v("register with the group's registration token");
    expect(registered['token_prefix']).toBe('glrt-');
    expect({ description: registered['description'], tag_list: registered['tag_list'] }).toEqual(registered['sent']);
    expect(v('verify its authentication token')['id']).toBe(registered['id']);
    expect(v('delete it')['id']).toBe(registered['id']);
    expect(await statusOf(`/runners/${num(registered['id'])}`, admin)).toBe(404);
  });
});

describe('boards: what python-gitlab read and wrote is what the server holds', () => {
  const v = (step: string) => valuesOf('boards', step);

  it('lists boards and their lists, of a project and a group', async () => {
    const boards = await allPages('/projects/maintainer%2Fdotfiles/boards');
    const expected = await Promise.all(
      boards.map(async (board) => ({
        id: board['id'],
        name: board['name'],
        lists: idsOf(await allPages(`/projects/33/boards/${num(board['id'])}/lists`)),
      })),
    );
    expect(v("list a project's boards and their lists")['boards']).toEqual(expected);
    const group = await allPages('/groups/gitlab-org/boards');
    expect(v("list a group's boards")).toEqual({ ids: idsOf(group), names: group.map((board) => board['name']) });
  });

  it('creates, renames, fills, reorders and deletes a board', async () => {
    const created = v('create a board');
    expect(created['name']).toBe(field(created['sent'], 'name'));
    expect(created['project']).toBe(field(await get('/projects/33'), 'path_with_namespace'));
    const renamed = v('rename it');
    expect({ name: renamed['name'], hide_closed_list: renamed['hide_closed_list'] }).toEqual(renamed['sent']);
    const filled = v('add two label lists');
    const lists = filled['lists'] as Record<string, unknown>[];
    expect(lists.map((entry) => entry['label'])).toEqual(filled['sent']);
    expect(v('move the second list first')['order']).toEqual([lists[1]?.['id'], lists[0]?.['id']]);
    expect(v('delete a list')['lists']).toEqual([lists[1]?.['id']]);
    expect(v('delete the board')['id']).toBe(created['id']);
    expect(await statusOf(`/projects/33/boards/${num(created['id'])}`)).toBe(404);
  });
});

describe('commits: what python-gitlab read and wrote is what the server holds', () => {
  const v = (step: string) => valuesOf('commits', step);
  const commitPath = (sha: unknown) => `/projects/1/repository/commits/${str(sha)}`;

  it('reads the main line, a commit, a signature and merge requests', async () => {
    // From the first commit listed: main has moved on since (cherry-pick, submodule update).
    const listed = v('list the main line')['ids'] as string[];
    expect(listed).toEqual(
      idsOf(list(await call(sim, `/projects/1/repository/commits?ref_name=${str(listed[0])}&per_page=20`, { token: maintainer }))),
    );
    const read = v('read a commit with its diff and refs');
    const server = await get(commitPath(read['id']));
    expect({ title: read['title'], parent_ids: read['parent_ids'], stats: read['stats'] }).toEqual({
      title: server['title'],
      parent_ids: server['parent_ids'],
      stats: server['stats'],
    });
    expect(read['diff_paths']).toEqual(
      list(await call(sim, `${commitPath(read['id'])}/diff`, { token: maintainer })).map((entry) => entry['new_path']),
    );
    const refs = list(await call(sim, `${commitPath(read['id'])}/refs?type=all`, { token: maintainer })).map(
      (ref) => `${str(ref['type'])}:${str(ref['name'])}`,
    );
    expect(read['refs']).toContain('branch:main');
    expect(refs).toEqual(expect.arrayContaining(read['refs'] as string[]));
    const signed = v('find a signed commit');
    const signature = await get(`${commitPath(signed['id'])}/signature`);
    expect({ signature_type: signed['signature_type'], verification_status: signed['verification_status'] }).toEqual({
      signature_type: signature['signature_type'],
      verification_status: signature['verification_status'],
    });
    const merged = v('list the merge requests of a commit');
    expect(merged['iids']).toContain(merged['iid']);
    expect(merged['iids']).toEqual(
      list(await call(sim, `${commitPath(merged['sha'])}/merge_requests`, { token: maintainer })).map((mr) => mr['iid']),
    );
  });

  it('commits, cherry-picks and reverts', async () => {
    const created = v('commit two files to a new branch');
    for (const [path, content] of Object.entries(created['files'] as Record<string, string>)) {
      const file = await get(`/projects/1/repository/files/${encodeURIComponent(path)}?ref=${str(created['id'])}`);
      expect(Buffer.from(str(file['content']), 'base64').toString('utf8'), path).toBe(content);
    }
    expect(created['title']).toBe(field(await get(commitPath(created['id'])), 'title'));
    const picked = v('cherry-pick it onto main');
    expect(picked['picked']).toBe(created['id']);
    expect(field(await get(commitPath(picked['main_head'])), 'title')).toBe(created['title']);
    expect(idsOf(list(await call(sim, '/projects/1/repository/commits?ref_name=main&per_page=20', { token: maintainer })))).toContain(
      picked['main_head'],
    );
    const reverted = v('revert it on its branch');
    const branch = await get(`/projects/1/repository/branches/${encodeURIComponent(str(reverted['branch']))}`);
    expect(field(branch['commit'], 'id')).toBe(reverted['id']);
    expect(field(await get(commitPath(reverted['id'])), 'parent_ids')).toEqual([created['id']]);
  });

  it('comments, discussions and statuses', async () => {
    const comment = v('comment on it');
    const comments = list(await call(sim, `${commitPath(comment['sha'])}/comments`, { token: maintainer }));
    expect(comment['notes']).toEqual(comments.map((entry) => entry['note']));
    expect(comment['notes']).toContain(field(comment['sent'], 'note'));
    const discussions = v('read its discussions');
    const notes = list(await call(sim, `${commitPath(discussions['sha'])}/discussions`, { token: maintainer })).flatMap(
      (d) => d['notes'] as Record<string, unknown>[],
    );
    expect(discussions['bodies']).toEqual(notes.map((note) => note['body']));
    const status = v('set and list a status');
    const statuses = list(await call(sim, `${commitPath(status['sha'])}/statuses`, { token: maintainer }));
    expect(status['statuses']).toEqual(
      statuses.map((entry) => ({ name: entry['name'], status: entry['status'], coverage: entry['coverage'] })),
    );
    expect(status['statuses']).toContainEqual({
      name: field(status['sent'], 'name'),
      status: field(status['sent'], 'state'),
      coverage: field(status['sent'], 'coverage'),
    });
  });
});

describe('issues: what python-gitlab read and wrote is what the server holds', () => {
  const v = (step: string) => valuesOf('issues', step);
  const issuePath = (iid: unknown) => `/projects/1/issues/${num(iid)}`;
  const iidsOf = (items: Record<string, unknown>[]) => items.map((item) => item['iid']);

  it('lists, related reads and administrator reads', async () => {
    expect(v('list open issues everywhere')['ids']).toEqual(
      idsOf(list(await call(sim, '/issues?scope=all&state=opened&per_page=20', { token: maintainer }))),
    );
    expect(v("list a group's open bugs")['ids']).toEqual(
      idsOf(list(await call(sim, '/groups/gitlab-org/issues?labels=bug&state=opened&per_page=20', { token: maintainer }))),
    );
    const related = v('read participants, related and closing merge requests');
    expect(related['participants']).toEqual(
      list(await call(sim, `${issuePath(related['iid'])}/participants`, { token: maintainer })).map((user) => user['username']),
    );
    expect(related['related']).toEqual(
      iidsOf(list(await call(sim, `${issuePath(related['iid'])}/related_merge_requests`, { token: maintainer }))),
    );
    expect(related['closed_by']).toEqual(iidsOf(list(await call(sim, `${issuePath(related['iid'])}/closed_by`, { token: maintainer }))));
    const byId = v('read an issue by id and its user agent (admin)');
    expect(field(await get(`/issues/${num(byId['id'])}`, admin), 'iid')).toBe(byId['iid']);
    expect(field(await get(`${issuePath(byId['iid'])}/user_agent_detail`, admin), 'user_agent')).toBe(byId['user_agent']);
    const image = v('upload and list a metric image of an incident');
    const images = list(await call(sim, `${issuePath(image['iid'])}/metric_images`, { token: maintainer }));
    expect(image['listed']).toEqual(images.map((entry) => entry['filename']));
    expect(image['listed']).toContain(image['uploaded']);
  });

  it('opens, edits, closes, comments and tracks time', async () => {
    const opened = v('open an issue');
    expect({ title: opened['title'], description: opened['description'], labels: sorted(opened['labels']) }).toEqual({
      ...(opened['sent'] as object),
      labels: sorted(field(opened['sent'], 'labels')),
    });
    const edited = v('edit and close it');
    const server = await get(issuePath(opened['iid']));
    expect(server['id']).toBe(opened['id']);
    expect({ title: server['title'], labels: server['labels'], state: server['state'] }).toEqual({
      title: edited['title'],
      labels: edited['labels'],
      state: edited['state'],
    });
    expect({ title: edited['title'], labels: edited['labels'] }).toEqual({
      title: field(edited['sent'], 'title'),
      labels: field(edited['sent'], 'labels'),
    });
    expect(edited['state']).toBe('closed');
    const note = v('comment on it');
    expect(note['bodies']).toEqual(
      list(await call(sim, `${issuePath(note['iid'])}/notes`, { token: maintainer })).map((entry) => entry['body']),
    );
    expect(note['bodies']).toContain(field(note['sent'], 'body'));
    const tracked = v('track time');
    const reset = v('reset the spent time');
    const stats = await get(`${issuePath(tracked['iid'])}/time_stats`);
    expect(stats['time_estimate']).toBe(tracked['time_estimate']);
    expect(num(tracked['total_time_spent'])).toBeGreaterThan(0);
    expect({ time_estimate: reset['time_estimate'], total_time_spent: reset['total_time_spent'] }).toEqual({
      time_estimate: stats['time_estimate'],
      total_time_spent: 0,
    });
    expect(stats['total_time_spent']).toBe(0);
  });

  it('marks a to-do and then it done', async () => {
    const todo = v('mark the issue as a to-do, then done');
    expect(todo['pending_before']).toContain(todo['done']);
    expect(todo['pending_after']).not.toContain(todo['done']);
    expect(idsOf(await allPages('/todos?state=done'))).toContain(todo['done']);
  });

  // gl.todos.mark_all_as_done(): POST /todos/mark_as_done answers 204, read by python-gitlab by its Content-Type.
  it('marks all to-dos done', async () => {
    expect(v('mark all to-dos as done')['pending_after']).toEqual([]);
    expect(await allPages('/todos')).toEqual([]);
  });
});

describe('groups: what python-gitlab read and wrote is what the server holds', () => {
  const v = (step: string) => valuesOf('groups', step);

  it('creates and updates a subgroup', async () => {
    const created = v('create a subgroup');
    const server = await get(`/groups/${num(created['id'])}`);
    const { name, path, parent_id, visibility } = created['sent'] as Record<string, unknown>;
    expect({ name: server['name'], path: server['path'], parent_id: server['parent_id'], visibility: server['visibility'] }).toEqual({
      name,
      path,
      parent_id,
      visibility,
    });
    expect(parent_id).toBe(field(await get('/groups/opensource'), 'id'));
    expect({ name: created['name'], path: created['path'], full_path: created['full_path'] }).toEqual({
      name,
      path,
      full_path: server['full_path'],
    });
    const updated = v('update it');
    const after = await get(`/groups/${num(updated['id'])}`);
    expect({ description: after['description'], request_access_enabled: after['request_access_enabled'] }).toEqual(updated['sent']);
    expect({ description: updated['description'], request_access_enabled: updated['request_access_enabled'] }).toEqual(updated['sent']);
  });

  // group = gl.groups.get('<full path>', lazy=True); group.save(): PUT /groups/<URL-encoded path>.
  it('updates a group named by its full path', async () => {
    const updated = v('update a group named by its full path');
    const server = await get(`/groups/${encodeURIComponent(str(updated['full_path']))}`);
    expect(server['description']).toBe(field(updated['sent'], 'description'));
    expect(updated['description']).toBe(server['description']);
  });

  it('lists groups, subgroups, descendants and projects, and reads one', async () => {
    const listed = v('list groups');
    expect(listed['ids']).toEqual(idsOf(await allPages('/groups')));
    expect(listed['top_level']).toEqual(idsOf(await allPages('/groups?top_level_only=true')));
    const read = v('read a group');
    const server = await get('/groups/gitlab-org%2Fbackend');
    expect(read).toEqual({
      id: server['id'],
      full_path: server['full_path'],
      visibility: server['visibility'],
      parent_id: server['parent_id'],
    });
    const tree = v('list subgroups and descendants');
    expect(tree['subgroups']).toEqual(idsOf(await allPages('/groups/opensource/subgroups')));
    expect(tree['descendants']).toEqual(idsOf(await allPages('/groups/opensource/descendant_groups')));
    expect(tree['subgroups']).toContain(v('create a subgroup')['id']);
    expect(v("list a group's projects with its subgroups'")['ids']).toEqual(
      idsOf(await allPages('/groups/gitlab-org/projects?include_subgroups=true&order_by=id&sort=asc')),
    );
  });
});

describe('projects: what python-gitlab read and wrote is what the server holds', () => {
  const v = (step: string) => valuesOf('projects', step);

  it('transfers a project to a group', async () => {
    const moved = v('transfer a project to a group (admin)');
    const server = await get(`/projects/${num(moved['id'])}`, admin);
    expect(field(server['namespace'], 'full_path')).toBe(moved['group']);
    expect({ namespace: moved['namespace'], path_with_namespace: moved['path_with_namespace'] }).toEqual({
      namespace: moved['group'],
      path_with_namespace: server['path_with_namespace'],
    });
  });

  it("lists the caller's, a user's, starred and shared projects, and reads one by path", async () => {
    expect(v('list my projects')['ids']).toEqual(idsOf(await allPages('/projects?membership=true&order_by=id&sort=asc')));
    const read = v('read a project by its path');
    const server = await get('/projects/gitlab-org%2Fgitlab');
    expect(read).toEqual({
      id: server['id'],
      path_with_namespace: server['path_with_namespace'],
      default_branch: server['default_branch'],
      namespace: field(server['namespace'], 'full_path'),
    });
    const ofUser = v("list a user's and their starred projects");
    expect(ofUser['projects']).toEqual(idsOf(await allPages('/users/2/projects')));
    expect(ofUser['starred']).toEqual(idsOf(await allPages('/users/2/starred_projects')));
    expect(v("list a group's shared projects")['ids']).toEqual(idsOf(await allPages('/groups/design/projects/shared')));
  });
});

describe('wikis: what python-gitlab read and wrote is what the server holds', () => {
  const v = (step: string) => valuesOf('wikis', step);
  const pagePath = (slug: unknown) => `/projects/1/wikis/${encodeURIComponent(str(slug))}`;

  it('creates, edits, deletes pages and uploads an attachment', async () => {
    const created = v('create a page');
    expect({ content: created['content'], format: created['format'] }).toEqual({
      content: field(created['sent'], 'content'),
      format: field(created['sent'], 'format'),
    });
    const edited = v('edit it');
    expect(edited['slug']).toBe(created['slug']);
    const server = await get(pagePath(edited['slug']));
    expect({ title: server['title'], content: server['content'], format: server['format'] }).toEqual({
      title: created['title'],
      ...(edited['sent'] as object),
    });
    expect({ content: edited['content'], format: edited['format'] }).toEqual(edited['sent']);
    expect(await statusOf(pagePath(v('create and delete a scratch page')['slug']))).toBe(404);
    const attachment = v('upload an attachment');
    expect(attachment['file_name']).toBe(attachment['sent']);
    expect(str(attachment['file_path']).endsWith(`/${str(attachment['sent'])}`)).toBe(true);
    expect(attachment['branch']).toBe(field(await get('/projects/1'), 'default_branch'));
  });

  it('lists pages with their content and reads one in a directory', async () => {
    const pages = list(await call(sim, '/projects/1/wikis?with_content=true', { token: maintainer }));
    expect(v('list pages with their content')['pages']).toEqual(
      pages.map((page) => ({ slug: page['slug'], format: page['format'], content: page['content'] })),
    );
    const read = v('read a page in a directory');
    const server = await get(pagePath(read['slug']));
    expect(read).toEqual({ slug: server['slug'], title: server['title'], content: server['content'] });
  });
});

describe('snippet storage moves: what python-gitlab read and wrote is what the server holds', () => {
  const v = (step: string) => valuesOf('snippet storage moves', step);

  it('moves one snippet and every snippet off a shard, and reads the moves', async () => {
    const moved = v('move one snippet');
    const move = await get(`/snippet_repository_storage_moves/${num(moved['id'])}`, admin);
    expect({ snippet: moved['snippet'], source: moved['source'], destination: moved['destination'] }).toEqual({
      snippet: field(move['snippet'], 'id'),
      source: move['source_storage_name'],
      destination: field(moved['sent'], 'destination_storage_name'),
    });
    expect(move['destination_storage_name']).toBe(moved['destination']);
    const bulk = v('move every snippet off a shard');
    expect(bulk['message']).toMatch(/^202\b/);
    const all = await allPages('/snippet_repository_storage_moves', admin);
    const { source_storage_name: source, destination_storage_name: destination } = bulk['sent'] as Record<string, unknown>;
    expect(all.some((entry) => entry['source_storage_name'] === source && entry['destination_storage_name'] === destination)).toBe(true);
    expect(v('list every move')['ids']).toEqual(idsOf(all));
    const read = v("read a snippet's moves and one move");
    expect(read['ids']).toEqual(idsOf(await allPages('/snippets/1/repository_storage_moves', admin)));
    expect(read['move']).toEqual(await get(`/snippet_repository_storage_moves/${num((read['ids'] as number[])[0])}`, admin));
    expect(read['same']).toBe(true);
  });
});

describe('ssh keys: what python-gitlab read is what the server holds', () => {
  const v = (step: string) => valuesOf('ssh keys', step);
  const blobOf = (key: unknown) => Buffer.from(str(key).split(' ')[1] ?? '', 'base64');

  it('reads a key, and finds keys by their SHA256 and MD5 fingerprints', async () => {
    const read = v('read a key and its owner');
    const server = await get(`/keys/${num(read['id'])}`, admin);
    expect(read).toEqual({ id: server['id'], title: server['title'], key: server['key'], user: field(server['user'], 'username') });
    const bySha = v('find it by its SHA256 fingerprint');
    // The fingerprint ssh-keygen prints, worked out here on its own from the key's blob.
    const sha = `SHA256:${createHash('sha256').update(blobOf(read['key'])).digest('base64').replace(/=+$/, '')}`;
    expect(bySha['fingerprint']).toBe(sha);
    expect(bySha['id']).toBe(bySha['looked_up']);
    expect(field(await get(`/keys?fingerprint=${encodeURIComponent(sha)}`, admin), 'id')).toBe(bySha['id']);
    const byMd5 = v('find a deploy key by its MD5 fingerprint');
    const deploy = await get(`/keys/${num(byMd5['looked_up'])}`, admin);
    const md5 = createHash('md5')
      .update(blobOf(deploy['key']))
      .digest('hex')
      .replace(/(..)(?!$)/g, '$1:');
    expect(byMd5['fingerprint']).toBe(md5);
    const found = await get(`/keys?fingerprint=${md5}`, admin);
    expect(byMd5['id']).toBe(found['id']);
    expect(byMd5['projects']).toEqual(
      (found['deploy_keys_projects'] as Record<string, unknown>[]).map((link) => link['project_id']).sort(),
    );
  });
});

describe('submodules: what python-gitlab wrote is what the server holds', () => {
  it('points a submodule at another commit of its project', async () => {
    const update = valuesOf('submodules', 'point a submodule at another commit');
    expect(update['before']).not.toBe(update['target']);
    const tree = list(await call(sim, '/projects/1/repository/tree?path=vendor', { token: maintainer }));
    expect(tree.find((entry) => entry['path'] === 'vendor/gitaly')?.['id']).toBe(update['target']);
    expect(update['after']).toBe(update['target']);
    const commit = await get(`/projects/1/repository/commits/${str(update['commit'])}`);
    expect({ title: update['title'], message: str(commit['message']).trim() }).toEqual({
      title: commit['title'],
      message: update['message'],
    });
    expect(idsOf(list(await call(sim, '/projects/3/repository/commits?ref_name=main&per_page=20', { token: maintainer })))).toContain(
      update['target'],
    );
  });
});

describe('job artifacts: what python-gitlab read and wrote is what the server holds', () => {
  const v = (step: string) => valuesOf('job artifacts', step);

  it("downloads a job's archive, one file of it, and the latest of a ref", async () => {
    const archive = v("download a job's archive");
    expect(archive['sha256']).toBe(sha256(await download(`/projects/1/jobs/${num(archive['job'])}/artifacts`)));
    expect(archive['names']).toContain(v('read one file of it')['path']);
    const file = v('read one file of it');
    expect(file['text']).toBe(
      Buffer.from(await download(`/projects/1/jobs/${num(file['job'])}/artifacts/${str(file['path'])}`)).toString('utf8'),
    );
    const latest = v('download the latest of a ref');
    expect(latest['sha256']).toBe(sha256(await download('/projects/1/jobs/artifacts/main/download?job=build-docs')));
    expect(latest['index']).toBe(
      Buffer.from(await download('/projects/1/jobs/artifacts/main/raw/docs/index.html?job=build-docs')).toString('utf8'),
    );
  });

  it('keeps and deletes artifacts', async () => {
    const kept = v('keep them');
    expect(kept['expire_at_before']).not.toBeNull();
    expect(kept['expire_at_after']).toBeNull();
    expect(field(await get(`/projects/1/jobs/${num(kept['job'])}`), 'artifacts_expire_at')).toBeNull();
    expect(await statusOf(`/projects/1/jobs/${num(v('delete them')['job'])}/artifacts`)).toBe(404);
  });
});

describe('invitations: what python-gitlab read and wrote is what the server holds', () => {
  const v = (step: string) => valuesOf('invitations', step);
  const emailsOf = (items: Record<string, unknown>[]) => items.map((item) => item['invite_email']);

  it('invites to a group, changes and withdraws invitations', async () => {
    const invited = v('invite two people to a group');
    expect(invited['status']).toBe('success');
    expect(invited['emails']).toEqual(expect.arrayContaining(str(field(invited['sent'], 'email')).split(',')));
    const changed = v("change one invitation's role and expiry");
    const [server] = list(
      await call(sim, `/groups/opensource/invitations?query=${encodeURIComponent(str(changed['email']))}`, { token: maintainer }),
    );
    expect({ access_level: server?.['access_level'], expires_at: server?.['expires_at'] }).toEqual(changed['sent']);
    expect({ access_level: changed['access_level'], expires_at: changed['expires_at'] }).toEqual(changed['sent']);
    const withdrawn = v('withdraw the other');
    expect(withdrawn['emails']).toEqual(emailsOf(await allPages('/groups/opensource/invitations')));
    expect(withdrawn['emails']).not.toContain(withdrawn['withdrawn']);
  });

  it('invites to a project and withdraws', async () => {
    const project = v('invite to a project and withdraw');
    expect(project['before']).toContain(project['email']);
    expect(project['after']).toEqual(emailsOf(await allPages('/projects/1/invitations')));
    expect(project['after']).not.toContain(project['email']);
  });
});
