import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, ids, list, record } from './helpers.js';

let sim: Simulator;
const { admin, maintainer, developer, guest, outsider } = DEMO_TOKENS;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

async function allIds(path: string, token: string): Promise<number[]> {
  const sep = path.includes('?') ? '&' : '?';
  return ids(await call(sim, `${path}${sep}per_page=100`, { token }));
}

describe('GET /runners (owned runners)', () => {
  it('lists the project runners of projects the developer maintains', async () => {
    expect(await allIds('/runners', developer)).toEqual([37, 38]);
  });

  it('lists group and project runners the maintainer owns, never instance runners', async () => {
    const result = await allIds('/runners', maintainer);
    expect(result).toHaveLength(50);
    expect(result.every((id) => id >= 16)).toBe(true);
    // secret-lab's group runner and runners of projects the maintainer does not maintain
    for (const id of [27, 62, 63, 65, 66]) expect(result).not.toContain(id);
  });

  it('applies the same rule to administrators (all runners are /runners/all)', async () => {
    const result = await allIds('/runners', admin);
    expect(result).toContain(16);
    expect(result).not.toContain(1);
    expect(result).not.toContain(21); // acme group runner: root is no member
  });

  it('lists nothing for guests and outsiders', async () => {
    expect(await allIds('/runners', guest)).toEqual([]);
    expect(await allIds('/runners', outsider)).toEqual([]);
  });

  it('filters by type, status and tags', async () => {
    expect(await allIds('/runners?type=group_type', developer)).toEqual([]);
    const paused = list(await call(sim, '/runners?status=paused&per_page=100', { token: maintainer }));
    expect(paused.length).toBeGreaterThan(0);
    expect(paused.every((r) => r['active'] === false && r['paused'] === true && r['status'] === 'paused')).toBe(true);
    const tagged = await allIds('/runners?tag_list=macos,windows', developer);
    expect(tagged).toEqual([37]);
  });

  it('refuses a status scope that is a type on /runners', async () => {
    const result = await call(sim, '/runners?scope=specific', { token: maintainer });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ message: 'Scope contains invalid value' });
  });

  it('refuses an invalid type', async () => {
    const result = await call(sim, '/runners?type=cloud_type', { token: maintainer });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ error: 'type does not have a valid value' });
  });
});

describe('GET /runners/all', () => {
  it('is for administrators only', async () => {
    const result = await call(sim, '/runners/all', { token: developer });
    expect(result.status).toBe(403);
    expect(result.body).toEqual({ message: '403 Forbidden' });
  });

  it('filters by type and by the legacy scopes shared and specific', async () => {
    expect(await allIds('/runners/all?type=instance_type', admin)).toEqual(range(1, 15));
    expect(await allIds('/runners/all?scope=shared', admin)).toEqual(range(1, 15));
    expect(await allIds('/runners/all?scope=specific', admin)).toEqual(range(16, 70));
  });

  it.each([
    ['online', (r: Record<string, unknown>) => r['online'] === true],
    ['offline', (r: Record<string, unknown>) => r['online'] === false],
    ['stale', (r: Record<string, unknown>) => r['online'] === false],
    ['never_contacted', (r: Record<string, unknown>) => r['online'] === null],
    ['active', (r: Record<string, unknown>) => r['active'] === true && r['status'] !== 'paused'],
    ['paused', (r: Record<string, unknown>) => r['status'] === 'paused'],
  ])('filters by status=%s', async (status, check) => {
    const result = list(await call(sim, `/runners/all?status=${status}&per_page=100`, { token: admin }));
    expect(result.length).toBeGreaterThan(0);
    expect(result.every(check)).toBe(true);
  });
});

describe('GET /runners/:id', () => {
  it('shows instance runners to any signed-in user', async () => {
    const result = await call(sim, '/runners/1', { token: outsider });
    expect(result.status).toBe(200);
    expect(record(result)).toMatchObject({ id: 1, runner_type: 'instance_type', is_shared: true, status: 'online' });
  });

  it('has the keys of the documented runner detail', async () => {
    const detail = record(await call(sim, '/runners/37', { token: developer }));
    for (const key of [
      'active', 'paused', 'architecture', 'description', 'id', 'ip_address', 'is_shared', 'runner_type', 'contacted_at',
      'maintenance_note', 'name', 'online', 'status', 'job_execution_status', 'platform', 'projects', 'revision', 'tag_list',
      'version', 'access_level', 'maximum_timeout', 'locked', 'run_untagged',
    ]) {
      expect(detail).toHaveProperty(key);
    }
    expect((detail['projects'] as { path_with_namespace: string }[]).map((p) => p.path_with_namespace)).toEqual([
      'gitlab-org/frontend/web-ui',
      'gitlab-org/gitlab',
    ]);
  });

  it('forbids group and project runners to callers who do not own them', async () => {
    for (const [id, token] of [[38, guest], [27, maintainer], [36, developer]] as const) {
      const result = await call(sim, `/runners/${id}`, { token });
      expect(result.status, `runner ${id}`).toBe(403);
      expect(result.body).toEqual({ message: '403 Forbidden' });
    }
    expect((await call(sim, '/runners/27', { token: admin })).status).toBe(200);
  });

  it('answers 404 "Runner Not Found" for a missing runner', async () => {
    const result = await call(sim, '/runners/9999', { token: admin });
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ message: '404 Runner Not Found' });
  });

  it('shows a never-contacted runner with online null', async () => {
    const result = record(await call(sim, '/runners/21', { token: maintainer }));
    expect(result).toMatchObject({ online: null, status: 'never_contacted', contacted_at: null, version: null });
  });
});

describe('PUT /runners/:id', () => {
  it('pauses and resumes a runner, and the change persists', async () => {
    const paused = await call(sim, '/runners/37', { method: 'PUT', token: developer, json: { paused: true } });
    expect(record(paused)).toMatchObject({ active: false, paused: true, status: 'paused', online: true });
    expect(record(await call(sim, '/runners/37', { token: developer }))).toMatchObject({ active: false, paused: true, status: 'paused' });
    const listed = list(await call(sim, '/runners', { token: developer })).find((r) => r['id'] === 37);
    expect(listed).toMatchObject({ status: 'paused' });

    const resumed = await call(sim, '/runners/37', { method: 'PUT', token: developer, form: 'active=true' });
    expect(record(resumed)).toMatchObject({ active: true, paused: false, status: 'online' });
  });

  it('replaces the tag list and updates the other fields', async () => {
    const result = await call(sim, '/runners/38', {
      method: 'PUT',
      token: developer,
      json: {
        description: 'renamed',
        tag_list: ['ruby', 'mysql'],
        run_untagged: false,
        locked: false,
        access_level: 'ref_protected',
        maximum_timeout: 3600,
        maintenance_note: 'checked',
      },
    });
    expect(result.status).toBe(200);
    expect(record(result)).toMatchObject({
      description: 'renamed',
      tag_list: ['ruby', 'mysql'],
      run_untagged: false,
      locked: false,
      access_level: 'ref_protected',
      maximum_timeout: 3600,
      maintenance_note: 'checked',
    });
    expect(sim.state.runners.get(38)?.tagList).toEqual(['ruby', 'mysql']);
  });

  it('lets only administrators update instance runners', async () => {
    expect((await call(sim, '/runners/2', { method: 'PUT', token: maintainer, json: { description: 'x' } })).status).toBe(403);
    const result = await call(sim, '/runners/2', { method: 'PUT', token: admin, json: { description: 'shared' } });
    expect(record(result)['description']).toBe('shared');
  });

  it.each([
    [{}, { error: 'description, active, paused, tag_list, run_untagged, locked, access_level, maximum_timeout, maintenance_note are missing, at least one parameter must be provided' }],
    [{ active: true, paused: true }, { error: 'active, paused are mutually exclusive' }],
    [{ access_level: 'everyone' }, { error: 'access_level does not have a valid value' }],
    [{ maximum_timeout: 'soon' }, { error: 'maximum_timeout is invalid' }],
    [{ maximum_timeout: 60 }, { message: { maximum_timeout: ['needs to be at least 10 minutes'] } }],
    [{ tag_list: [], run_untagged: false }, { message: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] } }],
  ])('refuses %j with 400', async (json, body) => {
    const result = await call(sim, '/runners/38', { method: 'PUT', token: admin, json });
    expect(result.status).toBe(400);
    expect(result.body).toEqual(body);
  });
});

describe('GET /runners/:id/jobs', () => {
  it('pages through a runner with more than 100 jobs, newest first', async () => {
    const first = await call(sim, '/runners/16/jobs?per_page=100', { token: maintainer });
    expect(first.headers.get('x-total')).toBe('150');
    const second = await call(sim, '/runners/16/jobs?per_page=100&page=2', { token: maintainer });
    const all = [...ids(first), ...ids(second)];
    expect(all).toHaveLength(150);
    expect(new Set(all).size).toBe(150);
    expect(all).toEqual([...all].sort((a, b) => b - a));
  });

  it('sorts ascending and filters by status', async () => {
    const asc = ids(await call(sim, '/runners/1/jobs?sort=asc&order_by=id', { token: admin }));
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    const failed = list(await call(sim, '/runners/1/jobs?status=failed&per_page=100', { token: admin }));
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((j) => j['status'] === 'failed')).toBe(true);
  });

  it('embeds user, commit, pipeline and project like the documented job', async () => {
    const [job] = list(await call(sim, '/runners/36/jobs?per_page=1', { token: maintainer }));
    expect(job).toBeDefined();
    expect(Object.keys(job ?? {})).toEqual(
      expect.arrayContaining(['id', 'status', 'stage', 'name', 'ref', 'tag', 'coverage', 'created_at', 'started_at', 'finished_at', 'duration', 'user', 'commit', 'pipeline', 'project']),
    );
    const commit = job?.['commit'] as Record<string, unknown>;
    expect(commit['id']).toMatch(/^[0-9a-f]{40}$/);
    expect(job?.['pipeline']).toMatchObject({ sha: commit['id'] });
    expect(job?.['project']).toMatchObject({ id: 1, path_with_namespace: 'gitlab-org/gitlab' });
    expect(Object.keys(job?.['user'] as object)).toEqual(expect.arrayContaining(['id', 'username', 'name', 'state', 'avatar_url', 'web_url', 'created_at', 'bio']));
  });

  it('limits the jobs of an instance runner to projects where the caller is Reporter+', async () => {
    const result = await call(sim, '/runners/1/jobs', { token: outsider });
    expect(result.status).toBe(200);
    expect(list(result)).toEqual([]);
  });

  it('refuses an unknown status or order and forbids non-owners', async () => {
    expect((await call(sim, '/runners/1/jobs?status=pending', { token: admin })).body).toEqual({ error: 'status does not have a valid value' });
    expect((await call(sim, '/runners/1/jobs?order_by=name', { token: admin })).body).toEqual({ error: 'order_by does not have a valid value' });
    expect((await call(sim, '/runners/38/jobs', { token: guest })).status).toBe(403);
    expect((await call(sim, '/runners/9999/jobs', { token: admin })).status).toBe(404);
  });
});

describe('project runners', () => {
  it('lists the project, group and instance runners available to a project', async () => {
    const result = await allIds('/projects/gitlab-org%2Ffrontend%2Fweb-ui/runners', developer);
    expect(result).toEqual([...range(1, 15), 16, 17, 28, 29, 34, 37, 38]);
  });

  it('leaves out instance runners when shared runners are disabled', async () => {
    const result = await allIds('/projects/gitlab-org%2Fbackend%2Fservices%2Fnotifications/runners', maintainer);
    expect(result.some((id) => id <= 15)).toBe(false);
    expect(result).toContain(49);
  });

  it('filters by type and scope', async () => {
    expect(await allIds('/projects/6/runners?type=project_type', developer)).toEqual([37, 38]);
    expect(await allIds('/projects/6/runners?scope=shared', developer)).toEqual(range(1, 15));
  });

  it('answers 403 below Maintainer and 404 when the project is not visible', async () => {
    expect((await call(sim, '/projects/1/runners', { token: developer })).status).toBe(403);
    const hidden = await call(sim, '/projects/acme%2Fwebsite/runners', { token: outsider });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Project Not Found' });
  });

  it('enables a project runner the caller owns elsewhere', async () => {
    const result = await call(sim, '/projects/6/runners', { method: 'POST', token: maintainer, form: 'runner_id=36' });
    expect(result.status).toBe(201);
    expect(record(result)).toMatchObject({ id: 36, runner_type: 'project_type', is_shared: false });
    expect(sim.state.runners.get(36)?.projectIds).toEqual([1, 6]);
    const again = await call(sim, '/projects/6/runners', { method: 'POST', token: maintainer, json: { runner_id: 36 } });
    expect(again.status).toBe(400);
  });

  it.each([
    ['a runner the caller does not own', 39, developer, 6, '403 Forbidden - No access granted'],
    ['a group runner', 16, admin, 6, '403 Forbidden - Runner is a group runner'],
    ['a locked runner', 42, maintainer, 1, '403 Forbidden - Runner is locked'],
  ])('refuses to enable %s', async (_name, runnerId, token, projectId, message) => {
    const result = await call(sim, `/projects/${projectId}/runners`, { method: 'POST', token, json: { runner_id: runnerId } });
    expect(result.status).toBe(403);
    expect(result.body).toEqual({ message });
  });

  it('lets an administrator enable a locked runner, but never an instance runner', async () => {
    expect((await call(sim, '/projects/1/runners', { method: 'POST', token: admin, json: { runner_id: 42 } })).status).toBe(201);
    const instance = await call(sim, '/projects/1/runners', { method: 'POST', token: admin, json: { runner_id: 1 } });
    expect(instance.status).toBe(400);
  });

  it('requires runner_id', async () => {
    const result = await call(sim, '/projects/6/runners', { method: 'POST', token: developer, json: {} });
    expect(result.body).toEqual({ error: 'runner_id is missing' });
  });

  it('disables a runner in a project unless it is its only project', async () => {
    const only = await call(sim, '/projects/6/runners/38', { method: 'DELETE', token: developer });
    expect(only.status).toBe(403);
    expect(only.body).toEqual({ message: '403 Forbidden - Only one project associated with the runner. Please remove the runner instead' });

    const removed = await call(sim, '/projects/gitlab-org%2Ffrontend%2Fweb-ui/runners/37', { method: 'DELETE', token: developer });
    expect(removed.status).toBe(204);
    expect(sim.state.runners.get(37)?.projectIds).toEqual([1]);

    const gone = await call(sim, '/projects/6/runners/37', { method: 'DELETE', token: developer });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: '404 Runner Not Found' });
  });
});

describe('group runners', () => {
  it('lists the group, ancestor and instance runners', async () => {
    expect(await allIds('/groups/gitlab-org%2Ffrontend/runners', maintainer)).toEqual([...range(1, 15), 16, 17, 28, 29, 34]);
  });

  it('filters by type, status and tags', async () => {
    expect(await allIds('/groups/1/runners?type=group_type', maintainer)).toEqual([16, 28, 34]);
    const online = list(await call(sim, '/groups/1/runners?status=online&per_page=100', { token: maintainer }));
    expect(online.every((r) => r['online'] === true)).toBe(true);
  });

  it('answers 403 below Maintainer and 404 when the group is not visible', async () => {
    expect((await call(sim, '/groups/1/runners', { token: developer })).status).toBe(403);
    const hidden = await call(sim, '/groups/acme/runners', { token: outsider });
    expect(hidden.body).toEqual({ message: '404 Group Not Found' });
  });
});

describe('runner registration and runner tokens', () => {
  it('registers an instance runner with the instance registration token', async () => {
    const result = await call(sim, '/runners', {
      method: 'POST',
      json: { token: DEMO_TOKENS.runnerRegistration, description: 'new shared', tag_list: 'docker,linux', info: { version: '18.2.0', platform: 'linux' } },
    });
    expect(result.status).toBe(201);
    const body = record(result);
    expect(Object.keys(body).sort()).toEqual(['id', 'token', 'token_expires_at']);
    expect(body['token']).toMatch(/^glrt-/);
    expect(body['token_expires_at']).toBeNull();
    const detail = record(await call(sim, `/runners/${String(body['id'])}`, { token: admin }));
    expect(detail).toMatchObject({ runner_type: 'instance_type', status: 'never_contacted', online: null, tag_list: ['docker', 'linux'], version: '18.2.0' });
  });

  it('registers group and project runners with their registration tokens', async () => {
    const group = sim.state.groups.get(2);
    const project = sim.state.projects.get(6);
    const groupRunner = record(await call(sim, '/runners', { method: 'POST', form: `token=${group?.runnersToken ?? ''}` }));
    const projectRunner = record(await call(sim, '/runners', { method: 'POST', form: `token=${project?.runnersToken ?? ''}&paused=true` }));
    expect(sim.state.runners.get(groupRunner['id'] as number)).toMatchObject({ runnerType: 'group_type', groupId: 2 });
    expect(sim.state.runners.get(projectRunner['id'] as number)).toMatchObject({ runnerType: 'project_type', projectIds: [6], active: false });
    expect(await allIds('/runners', developer)).toContain(projectRunner['id']);
  });

  it('answers 403 to an invalid registration token and 400 without one', async () => {
    const invalid = await call(sim, '/runners', { method: 'POST', json: { token: 'nope' } });
    expect(invalid.status).toBe(403);
    expect(invalid.body).toEqual({ message: '403 Forbidden' });
    const missing = await call(sim, '/runners', { method: 'POST', form: '' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'token is missing' });
  });

  it('verifies and deletes a runner by its authentication token, without user credentials', async () => {
    const { id, token } = record(await call(sim, '/runners', { method: 'POST', json: { token: DEMO_TOKENS.runnerRegistration } })) as { id: number; token: string };
    const verified = await call(sim, '/runners/verify', { method: 'POST', json: { token }, headers: { 'PRIVATE-TOKEN': 'not-a-user-token' } });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ id, token, token_expires_at: null });

    const seeded = sim.state.runners.get(5)?.token ?? '';
    expect((await call(sim, '/runners/verify', { method: 'POST', form: `token=${seeded}` })).status).toBe(200);

    expect((await call(sim, '/runners', { method: 'DELETE', json: { token } })).status).toBe(204);
    const after = await call(sim, '/runners/verify', { method: 'POST', json: { token } });
    expect(after.status).toBe(403);
    expect(after.body).toEqual({ message: '403 Forbidden' });
    expect((await call(sim, '/runners', { method: 'DELETE', json: { token } })).status).toBe(403);
  });
});

describe('DELETE /runners/:id', () => {
  it('refuses non-owners and runners in more than one project', async () => {
    expect((await call(sim, '/runners/1', { method: 'DELETE', token: maintainer })).status).toBe(403);
    const shared = await call(sim, '/runners/69', { method: 'DELETE', token: maintainer });
    expect(shared.body).toEqual({ message: '403 Forbidden - Runner associated with more than one project' });
  });

  it('deletes a runner its owner may delete', async () => {
    expect((await call(sim, '/runners/38', { method: 'DELETE', token: developer })).status).toBe(204);
    expect((await call(sim, '/runners/38', { token: admin })).status).toBe(404);
    expect(await allIds('/runners', developer)).not.toContain(38);
  });

  it('lets an administrator delete any runner', async () => {
    expect((await call(sim, '/runners/69', { method: 'DELETE', token: admin })).status).toBe(204);
    expect(sim.state.runners.has(69)).toBe(false);
  });
});
