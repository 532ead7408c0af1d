import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, USER_IDS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, list, record } from './helpers.js';

const { admin, maintainer, developer, outsider } = DEMO_TOKENS;
const PATS = '/groups/opensource/manage/personal_access_tokens';
const RATS = '/groups/opensource/manage/resource_access_tokens';
const KEYS = '/groups/opensource/manage/ssh_keys';

/** The value of the seeded token with this name (token values are random-looking, from the seed). */
function tokenValue(sim: Simulator, name: string): string {
  const token = [...sim.state.tokens.values()].find((candidate) => candidate.name === name && !candidate.revoked);
  if (!token) throw new Error(`no active token named ${name}`);
  return token.token;
}

const names = (items: Record<string, unknown>[]) => items.map((item) => item['name']);
const ENTERPRISE_USER_IDS: number[] = [USER_IDS.carol, USER_IDS.erin, USER_IDS.frank];

describe('the credentials inventory lists', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });

  it("lists the enterprise users' personal access tokens to the group's Owner, oldest first, never their values", async () => {
    const result = await call(sim, PATS, { token: maintainer });
    expect(result.status).toBe(200);
    expect(result.headers.get('x-total')).toBe('6');
    expect(names(list(result))).toEqual([
      'Old laptop',
      'Release pipeline',
      'Docs preview',
      'Workstation',
      'Registry pull',
      'Issue triage script',
    ]);
    expect(list(result)[0]).toEqual({
      id: 3,
      name: 'Old laptop',
      revoked: false,
      created_at: '2024-03-01T08:30:00.000Z',
      description: 'Replaced in March',
      scopes: ['api'],
      user_id: USER_IDS.carol,
      last_used_at: '2024-09-01T12:00:00.000Z',
      active: false,
      expires_at: '2025-03-01',
    });
    // Dave is no enterprise user of opensource; the demo login tokens are never listed.
    expect(list(result).every((token) => ENTERPRISE_USER_IDS.includes(token['user_id'] as number))).toBe(true);
    expect(result.text).not.toMatch(/glpat-/);
  });

  it.each([
    ['revoked=true', ['Registry pull']],
    ['revoked=false&state=inactive', ['Old laptop']],
    ['state=active', ['Release pipeline', 'Docs preview', 'Workstation', 'Issue triage script']],
    ['created_after=2025-02-10T14:05:00Z&created_before=2025-04-01', ['Workstation']],
    ['last_used_after=2025-05-30T00:00:00Z', ['Release pipeline', 'Workstation']],
    ['last_used_before=2024-12-31', ['Old laptop']],
    ['expires_after=2025-11-02&expires_before=2026-02-10', ['Release pipeline', 'Workstation']],
    ['search=PIPE', ['Release pipeline']],
    ['sort=name_desc', ['Workstation', 'Release pipeline', 'Registry pull', 'Old laptop', 'Issue triage script', 'Docs preview']],
    // Never used sorts last going up, first going down (PostgreSQL's default for nulls).
    ['sort=last_used_desc&state=active', ['Docs preview', 'Workstation', 'Release pipeline', 'Issue triage script']],
    ['sort=expires_asc&state=active', ['Issue triage script', 'Docs preview', 'Release pipeline', 'Workstation']],
  ])('filters personal access tokens with %s', async (query, expected) => {
    expect(names(list(await call(sim, `${PATS}?${query}`, { token: maintainer })))).toEqual(expected);
  });

  it('refuses malformed filters as Grape does', async () => {
    expect((await call(sim, `${PATS}?created_after=yesterday`, { token: maintainer })).body).toEqual({ error: 'created_after is invalid' });
    expect((await call(sim, `${PATS}?state=expired`, { token: maintainer })).body).toEqual({ error: 'state does not have a valid value' });
  });

  it("lists the group and project access tokens of the group's whole hierarchy, with the bot's role", async () => {
    const tokens = list(await call(sim, RATS, { token: maintainer }));
    expect(tokens.map((token) => [token['name'], token['resource_type'], token['resource_id'], token['access_level']])).toEqual([
      ['Dependency scanner', 'project', 26, 20],
      ['Release automation', 'group', 9, 40],
      ['Package publishing', 'project', 23, 30],
    ]);
    // Every token's user is its bot, which is a member of what it serves.
    const bot = sim.state.users.get(tokens[1]!['user_id'] as number)!;
    expect(bot.username).toMatch(/^group_9_bot_[0-9a-f]{32}$/);
    // A subgroup's list holds only what lies below it (gitlab-org/gitlab's "Mirror sync" is never listed).
    expect(names(list(await call(sim, '/groups/opensource%2Ftools/manage/resource_access_tokens', { token: maintainer })))).toEqual([
      'Dependency scanner',
    ]);
    expect(names(list(await call(sim, `${RATS}?state=active&sort=name_asc`, { token: maintainer })))).toEqual([
      'Package publishing',
      'Release automation',
    ]);
  });

  it("lists the enterprise users' SSH keys, without the key text", async () => {
    const keys = list(await call(sim, KEYS, { token: maintainer }));
    expect(keys.map((key) => [key['title'], key['user_id'], key['usage_type']])).toEqual([
      ['carol@design-mbp', USER_IDS.carol, 'auth_and_signing'],
      ['erin@workstation', USER_IDS.erin, 'auth'],
      ['frank signing key', USER_IDS.frank, 'signing'],
    ]);
    expect(Object.keys(keys[0]!)).toEqual(['id', 'title', 'created_at', 'expires_at', 'last_used_at', 'usage_type', 'user_id']);
    // A key that never expires matches no expiry bound.
    expect(list(await call(sim, `${KEYS}?expires_before=2025-12-31T00:00:00Z`, { token: maintainer })).map((key) => key['title'])).toEqual([
      'frank signing key',
    ]);
    expect(
      list(await call(sim, `${KEYS}?created_after=2025-01-01T00:00:00Z&created_before=2025-03-01T00:00:00Z`, { token: maintainer })).map(
        (key) => key['title'],
      ),
    ).toEqual(['erin@workstation']);
    // Enterprise users belong to the top-level group: a subgroup has none.
    expect(list(await call(sim, '/groups/opensource%2Ftools/manage/ssh_keys', { token: maintainer }))).toEqual([]);
  });

  it.each([PATS, RATS, KEYS])('%s: 401 anonymous, 403 below Owner, 404 where the group is hidden, 200 for administrators', async (path) => {
    expect(await call(sim, path)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await call(sim, path, { token: developer })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    // Erin is a Maintainer of opensource, and one of its enterprise users: still not its Owner.
    expect((await call(sim, path, { token: tokenValue(sim, 'Workstation') })).status).toBe(403);
    expect((await call(sim, path, { token: outsider })).status).toBe(403);
    expect((await call(sim, path.replace('opensource', 'acme'), { token: outsider })).body).toEqual({ message: '404 Group Not Found' });
    expect((await call(sim, path, { token: admin })).status).toBe(200);
  });
});

describe('rotating a managed token', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });

  const rotate = (kind: 'personal' | 'resource', id: number, token: string = maintainer, json: Record<string, unknown> = {}) =>
    call(sim, `/groups/opensource/manage/${kind}_access_tokens/${id}/rotate`, { method: 'POST', token, json });
  const idOf = (name: string) => [...sim.state.tokens.values()].find((token) => token.name === name && !token.revoked)!.id!;

  it('revokes the token and answers its successor once, with the value; the old value stops working', async () => {
    const oldValue = tokenValue(sim, 'Workstation');
    const result = await rotate('personal', idOf('Workstation'));
    expect(result.status).toBe(200);
    const rotated = record(result);
    // Same name, description, scopes and user; created now; a week to live when no expiry is asked for.
    expect(rotated).toMatchObject({
      name: 'Workstation',
      description: 'Daily use',
      scopes: ['api'],
      user_id: USER_IDS.erin,
      revoked: false,
      active: true,
      last_used_at: null,
      created_at: '2025-06-01T12:00:00.000Z',
      expires_at: '2025-06-08',
    });
    expect(rotated['token']).toMatch(/^glpat-[A-Za-z0-9]{20}$/);
    expect((await call(sim, '/user', { token: oldValue })).body).toEqual({
      error: 'invalid_token',
      error_description: 'Token was revoked. You have to re-authorize from the user.',
    });
    expect(record(await call(sim, '/user', { token: rotated['token'] as string }))['id']).toBe(USER_IDS.erin);
    // The list shows both, the value of neither.
    const listed = list(await call(sim, `${PATS}?search=workstation`, { token: maintainer }));
    expect(listed.map((token) => [token['id'], token['revoked']])).toEqual([
      [4, true],
      [rotated['id'], false],
    ]);
    expect(JSON.stringify(listed)).not.toContain(rotated['token'] as string);
  });

  it('refuses a revoked token, and an expiry more than a year ahead, with 400', async () => {
    expect((await rotate('personal', 5)).body).toEqual({ message: '400 Bad request - Token already revoked' });
    expect((await rotate('personal', idOf('Docs preview'), maintainer, { expires_at: '2026-06-02' })).body).toEqual({
      message: '400 Bad request - Expires at must be before 2026-06-01',
    });
    expect(record(await rotate('personal', idOf('Docs preview'), maintainer, { expires_at: '2026-06-01' }))['expires_at']).toBe(
      '2026-06-01',
    );
    expect((await rotate('personal', idOf('Release pipeline'), maintainer, { expires_at: 'soon' })).body).toEqual({
      error: 'expires_at is invalid',
    });
  });

  it("answers 404 for an unknown token, 403 for another user's token or a caller below Owner", async () => {
    expect(await rotate('personal', 999)).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    // Dave's token exists, but Dave is no enterprise user of opensource.
    expect((await rotate('personal', idOf('ACME automation'))).status).toBe(403);
    expect((await rotate('personal', idOf('Release pipeline'), developer)).status).toBe(403);
    expect((await rotate('personal', idOf('Release pipeline'), '')).status).toBe(401);
    expect(sim.state.tokens.get(tokenValue(sim, 'Release pipeline'))?.revoked).toBe(false);
  });

  it("rotates a bot's token within the group's hierarchy only", async () => {
    const oldValue = tokenValue(sim, 'Package publishing');
    const result = record(await rotate('resource', idOf('Package publishing'), maintainer, { expires_at: '2025-12-31' }));
    expect(result).toMatchObject({
      name: 'Package publishing',
      resource_type: 'project',
      resource_id: 23,
      access_level: 30,
      expires_at: '2025-12-31',
    });
    expect(result['token']).toMatch(/^glpat-/);
    expect(sim.state.tokens.get(oldValue)?.revoked).toBe(true);
    expect((await rotate('resource', idOf('Mirror sync'))).body).toEqual({
      message: "403 Forbidden - Cannot access resource access token: Token belongs to a resource outside group's hierarchy",
    });
    expect((await rotate('resource', idOf('Issue triage script'))).body).toEqual({
      message: '403 Forbidden - Cannot revoke resource access token: Token does not belong to bot user',
    });
    // The check is against the top-level group itself: a subgroup's Owner path does not qualify.
    const fromSubgroup = await call(sim, `/groups/opensource%2Ftools/manage/resource_access_tokens/${idOf('Dependency scanner')}/rotate`, {
      method: 'POST',
      token: maintainer,
    });
    expect(fromSubgroup.status).toBe(403);
  });
});
