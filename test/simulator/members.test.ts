import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, ids, list, record } from './helpers.js';

let sim: Simulator;
const { admin, maintainer, developer, guest, outsider } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

/** The member ids of one page of up to 100. */
async function memberIds(path: string, token: string): Promise<number[]> {
  const separator = path.includes('?') ? '&' : '?';
  const result = await call(sim, `${path}${separator}per_page=100`, { token });
  expect(result.status).toBe(200);
  return ids(result);
}

describe('GET /groups/:id/members and /projects/:id/members', () => {
  it('lists the direct members with their level, expiry and membership state, by user id', async () => {
    const members = list(await call(sim, '/groups/gitlab-org/members', { token: developer }));
    expect(members.map((member) => [member['username'], member['access_level']])).toEqual([
      ['root', 50],
      ['maintainer', 40],
      ['developer', 30],
      ['guest', 10],
      ['alice', 20],
      ['heidi', 30],
    ]);
    expect(members[0]).toMatchObject({ id: 1, name: 'Administrator', state: 'active', expires_at: null, membership_state: 'active', created_at: expect.any(String) as string });
    // A project's own members: its bot, not the members of its group.
    expect(await memberIds('/projects/gitlab-org%2Fgitlab/members', developer)).toEqual([16]);
    expect(list(await call(sim, '/projects/31/members', { token: admin }))).toEqual([expect.objectContaining({ username: 'frank', access_level: 20, expires_at: '2026-06-30' })]);
  });

  it("counts a personal project's namespace owner as its Owner", async () => {
    expect(list(await call(sim, '/projects/maintainer%2Fdotfiles/members', { token: developer }))).toEqual([expect.objectContaining({ username: 'maintainer', access_level: 50 })]);
  });

  it('adds inherited members at their highest level in /members/all, and only people with access', async () => {
    const all = list(await call(sim, '/projects/gitlab-org%2Fgitlab/members/all?per_page=100', { token: developer }));
    expect(all.map((member) => [member['id'], member['access_level']])).toEqual([
      [1, 50],
      [2, 40],
      [3, 30],
      [4, 10],
      [6, 20],
      [12, 30],
      [16, 30],
    ]);
    // bob is a member of gitlab-org/frontend only: inherited into its projects, not into gitlab-org's.
    expect(await memberIds('/groups/gitlab-org%2Ffrontend/members/all', developer)).toContain(7);
    expect(await memberIds('/groups/gitlab-org/members/all', developer)).not.toContain(7);
    // An administrator sees a private group's members, and is not one of them.
    expect(await memberIds('/groups/secret-lab/members/all', admin)).toEqual([6, 9]);
  });

  it('filters by query (name or username, any case; a public e-mail only in full) and by user_ids', async () => {
    expect(await memberIds('/groups/gitlab-org/members?query=MAINT', developer)).toEqual([2]);
    expect(await memberIds('/groups/gitlab-org/members?query=@alice', developer)).toEqual([6]);
    expect(await memberIds('/groups/gitlab-org/members?query=maintainer@example.com', developer)).toEqual([2]);
    expect(await memberIds('/groups/gitlab-org/members?query=maintainer@example', developer)).toEqual([]);
    // Private e-mails never match, not even for administrators.
    expect(await memberIds('/groups/gitlab-org/members?query=heidi@example.com', admin)).toEqual([]);
    expect(await memberIds('/projects/1/members/all?user_ids[]=3&user_ids[]=4', developer)).toEqual([3, 4]);
  });

  it('pages with the X-* headers and Link', async () => {
    const first = await call(sim, '/projects/1/members/all?per_page=3', { token: developer });
    expect(ids(first)).toEqual([1, 2, 3]);
    expect(first.headers.get('x-total')).toBe('7');
    expect(first.headers.get('x-total-pages')).toBe('3');
    expect(first.headers.get('x-next-page')).toBe('2');
    expect(first.headers.get('x-prev-page')).toBe('');
    expect(first.headers.get('link')).toContain('rel="next"');
    const last = await call(sim, '/projects/1/members/all?per_page=3&page=3', { token: developer });
    expect(ids(last)).toEqual([16]);
    expect(last.headers.get('x-next-page')).toBe('');
    expect(last.headers.get('link')).not.toContain('rel="next"');
  });

  it('reads one member of either list, and answers ActiveRecord\'s 404 for a user who is none', async () => {
    expect(record(await call(sim, '/groups/1/members/3', { token: guest }))).toMatchObject({ id: 3, username: 'developer', access_level: 30 });
    expect(record(await call(sim, '/projects/1/members/all/2', { token: guest }))).toMatchObject({ id: 2, access_level: 40 });
    // Inherited, so in /members/all but not in /members.
    const notDirect = await call(sim, '/projects/1/members/2', { token: guest });
    expect([notDirect.status, notDirect.body]).toEqual([404, { message: '404 Not found' }]);
    const nobody = await call(sim, '/groups/12/members/all/1', { token: admin });
    expect([nobody.status, nobody.body]).toEqual([404, { message: '404 Not found' }]);
    const badId = await call(sim, '/projects/1/members/abc', { token: developer });
    expect([badId.status, badId.body]).toEqual([400, { error: 'user_id is invalid' }]);
  });

  it.each([
    '/groups/gitlab-org/members',
    '/groups/gitlab-org/members/all',
    '/projects/1/members',
    '/projects/1/members/all/1',
  ])('authenticates every request to %s, public sources included', async (path) => {
    const anonymous = await call(sim, path);
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }]);
  });

  it("answers 404 for a group or project the caller may not see, as for one that doesn't exist", async () => {
    for (const [path, message] of [
      ['/groups/secret-lab/members', '404 Group Not Found'],
      ['/groups/999/members/all', '404 Group Not Found'],
      ['/projects/gitlab-org%2Fsecurity-fixes/members', '404 Project Not Found'],
      ['/projects/31/members/all/11', '404 Project Not Found'],
    ] as const) {
      const result = await call(sim, path, { token: outsider });
      expect([path, result.status, result.body]).toEqual([path, 404, { message }]);
    }
    expect((await call(sim, '/projects/gitlab-org%2Fsecurity-fixes/members', { token: maintainer })).status).toBe(200);
  });
});
