import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, SPECIAL_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, record } from './helpers.js';

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

describe('credentials (rest-conventions §7)', () => {
  it('accepts PRIVATE-TOKEN, Authorization: Bearer, private_token and access_token', async () => {
    const header = await call(sim, '/user', { token: DEMO_TOKENS.developer });
    const bearer = await call(sim, '/user', { headers: { Authorization: `Bearer ${DEMO_TOKENS.developer}` } });
    const privateToken = await call(sim, `/user?private_token=${DEMO_TOKENS.developer}`);
    const accessToken = await call(sim, `/user?access_token=${DEMO_TOKENS.developer}`);
    for (const result of [header, bearer, privateToken, accessToken]) {
      expect(result.status).toBe(200);
      expect(record(result)['username']).toBe('developer');
    }
  });

  it('answers 401 without a token where one is needed', async () => {
    for (const path of ['/user', '/runners', '/runners/1', '/projects/1/runners', '/groups/1/runners']) {
      const result = await call(sim, path);
      expect(result.status, path).toBe(401);
      expect(result.body).toEqual({ message: '401 Unauthorized' });
    }
  });

  it('answers 401 to an unknown token, even where anonymous access is allowed', async () => {
    const result = await call(sim, '/projects/1', { token: 'glpat-nope' });
    expect(result.status).toBe(401);
    expect(result.body).toEqual({ message: '401 Unauthorized' });
  });

  it('answers the OAuth-style bodies to revoked and expired tokens (§6.5)', async () => {
    const revoked = await call(sim, '/user', { token: SPECIAL_TOKENS.revoked });
    expect(revoked.status).toBe(401);
    expect(revoked.body).toEqual({ error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' });
    const expired = await call(sim, '/user', { token: SPECIAL_TOKENS.expired });
    expect(expired.status).toBe(401);
    expect(record(expired)['error_description']).toMatch(/^Token is expired/);
  });

  it('lets a read_api token read but not write', async () => {
    expect((await call(sim, '/runners', { token: SPECIAL_TOKENS.readOnly })).status).toBe(200);
    const write = await call(sim, '/runners/38', { method: 'PUT', token: SPECIAL_TOKENS.readOnly, json: { description: 'x' } });
    expect(write.status).toBe(403);
    expect(record(write)).toMatchObject({ error: 'insufficient_scope', scope: 'api' });
  });

  it('lets an administrator act as another user with Sudo', async () => {
    const asDeveloper = await call(sim, '/user', { token: DEMO_TOKENS.admin, headers: { Sudo: 'developer' } });
    expect(record(asDeveloper)['username']).toBe('developer');
    const byId = await call(sim, '/runners?sudo=3', { token: DEMO_TOKENS.admin });
    expect(byId.status).toBe(200);
    const notAdmin = await call(sim, '/user', { token: DEMO_TOKENS.maintainer, headers: { Sudo: 'root' } });
    expect(notAdmin.status).toBe(403);
    expect(notAdmin.body).toEqual({ message: '403 Forbidden - Must be admin to use sudo' });
    const missing = await call(sim, '/user', { token: DEMO_TOKENS.admin, headers: { Sudo: 'nobody' } });
    expect(missing.body).toEqual({ message: "404 User with ID or username 'nobody' Not Found" });
  });

  it('answers 403 "403 Forbidden" when the role is too low', async () => {
    const result = await call(sim, '/runners/all', { token: DEMO_TOKENS.maintainer });
    expect(result.status).toBe(403);
    expect(result.body).toEqual({ message: '403 Forbidden' });
  });
});

describe('project visibility', () => {
  it.each([
    ['public', 'gitlab-org%2Fgitlab', undefined, 200],
    ['internal, anonymous', 'gitlab-org%2Fomnibus-gitlab', undefined, 404],
    ['internal, signed in', 'gitlab-org%2Fomnibus-gitlab', DEMO_TOKENS.outsider, 200],
    ['private, anonymous', 'acme%2Fwebsite', undefined, 404],
    ['private, non-member', 'acme%2Fwebsite', DEMO_TOKENS.outsider, 404],
    ['private, guest member', 'acme%2Fwebsite', DEMO_TOKENS.guest, 200],
    ['private, admin', 'secret-lab%2Fresearch', DEMO_TOKENS.admin, 200],
    ['private, inherited through 4 levels', 'gitlab-org%2Fbackend%2Fservices%2Fbilling%2Fpayments', DEMO_TOKENS.guest, 200],
    ['private, no demo member', 'secret-lab%2Fresearch', DEMO_TOKENS.maintainer, 404],
    ['missing', 'no%2Fsuch', DEMO_TOKENS.admin, 404],
  ])('%s -> %i', async (_name, id, token, status) => {
    const result = await call(sim, `/projects/${id}`, token ? { token } : {});
    expect(result.status).toBe(status);
    if (status === 404) expect(result.body).toEqual({ message: '404 Project Not Found' });
  });

  it('gives the full project record with the registration token only to maintainers', async () => {
    const asMaintainer = record(await call(sim, '/projects/1', { token: DEMO_TOKENS.maintainer }));
    expect(asMaintainer['runners_token']).toBe('GR1348941-demo-project-1');
    expect(asMaintainer['permissions']).toEqual({ project_access: null, group_access: { access_level: 40, notification_level: 3 } });
    const asDeveloper = record(await call(sim, '/projects/1', { token: DEMO_TOKENS.developer }));
    expect(asDeveloper).not.toHaveProperty('runners_token');
    const anonymous = record(await call(sim, '/projects/1'));
    expect(anonymous).not.toHaveProperty('permissions');
    for (const key of ['namespace', '_links', 'container_expiration_policy', 'shared_runners_enabled', 'http_url_to_repo', 'builds_access_level']) {
      expect(anonymous).toHaveProperty(key);
    }
    expect(anonymous['web_url']).toBe(`${sim.origin}/gitlab-org/gitlab`);
  });
});

describe('group visibility', () => {
  it.each([
    ['public, anonymous', 'gitlab-org', undefined, 200],
    ['internal, anonymous', 'design', undefined, 404],
    ['internal, signed in', 'design', DEMO_TOKENS.outsider, 200],
    ['private, non-member', 'acme', DEMO_TOKENS.outsider, 404],
    ['private subgroup, inherited member', 'acme%2Fplatform%2Finfra', DEMO_TOKENS.guest, 200],
    ['private, member of nothing inside', 'secret-lab', DEMO_TOKENS.maintainer, 404],
    ['private, admin', 'secret-lab', DEMO_TOKENS.admin, 200],
  ])('%s -> %i', async (_name, id, token, status) => {
    const result = await call(sim, `/groups/${id}`, token ? { token } : {});
    expect(result.status).toBe(status);
    if (status === 404) expect(result.body).toEqual({ message: '404 Group Not Found' });
  });

  it('embeds projects and shared projects, and only owners see runners_token', async () => {
    const owner = record(await call(sim, '/groups/opensource', { token: DEMO_TOKENS.maintainer }));
    expect(owner['runners_token']).toBe('GR1348941-demo-group-9');
    expect((owner['projects'] as unknown[]).length).toBe(3);
    const design = record(await call(sim, '/groups/design', { token: DEMO_TOKENS.maintainer }));
    expect(design).not.toHaveProperty('runners_token');
    expect(design['shared_with_groups']).toEqual([
      { group_id: 9, group_name: 'Open Source', group_full_path: 'opensource', group_access_level: 30, expires_at: '2026-12-31' },
    ]);
    expect((design['shared_projects'] as { id: number }[]).map((p) => p.id)).toEqual([18]);
  });

  it('omits projects with with_projects=false', async () => {
    const group = record(await call(sim, '/groups/1?with_projects=false'));
    expect(group).not.toHaveProperty('projects');
    expect(group).not.toHaveProperty('shared_projects');
    expect(group['full_name']).toBe('GitLab.org');
  });

  it('lists only the embedded projects the caller may see', async () => {
    const anonymous = record(await call(sim, '/groups/gitlab-org'));
    const names = (anonymous['projects'] as { path: string; visibility: string }[]).map((p) => p.visibility);
    expect(new Set(names)).toEqual(new Set(['public']));
  });
});

describe('users', () => {
  it('returns the caller on GET /user', async () => {
    const me = record(await call(sim, '/user', { token: DEMO_TOKENS.admin }));
    expect(me).toMatchObject({ id: 1, username: 'root', is_admin: true, email: 'root@example.com' });
  });

  it('returns a public record to others and 404 "User Not Found" when missing', async () => {
    const user = record(await call(sim, '/users/2'));
    expect(user).toMatchObject({ id: 2, username: 'maintainer', name: 'Maria Maintainer', state: 'active' });
    expect(user).not.toHaveProperty('email');
    const missing = await call(sim, '/users/999');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 User Not Found' });
  });
});
