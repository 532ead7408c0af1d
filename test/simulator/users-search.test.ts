import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, ids } from './helpers.js';

let sim: Simulator;
const { admin, developer } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

async function found(query: string, token: string): Promise<number[]> {
  const result = await call(sim, `/users?${query}`, { token });
  expect(result.status).toBe(200);
  return ids(result);
}

describe('GET /users?search= (User.search)', () => {
  it('matches a name or username containing the text, any case, newest first, a leading @ dropped', async () => {
    expect(await found('search=DEVEL', developer)).toEqual([3]);
    expect(await found('search=@bob', developer)).toEqual([7]);
    expect(await found('search=Anderson', developer)).toEqual([6]);
  });

  it('matches an e-mail only in full: the public one for everyone, any of them for administrators', async () => {
    expect(await found('search=developer%40example.com', developer)).toEqual([3]);
    expect(await found('search=DEVELOPER%40EXAMPLE.COM', developer)).toEqual([3]);
    expect(await found('search=developer%40example', developer)).toEqual([]);
    // bob shows no public e-mail: only an administrator finds him by address.
    expect(await found('search=bob%40example.com', developer)).toEqual([]);
    expect(await found('search=bob%40example.com', admin)).toEqual([7]);
    expect(await found('search=example.com', admin)).toEqual([]);
  });

  it('refuses anonymous callers anything but a username', async () => {
    const refused = await call(sim, '/users?search=developer');
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden - Not authorized to access /api/v4/users' }]);
    expect((await call(sim, '/users')).status).toBe(403);
    expect(ids(await call(sim, '/users?username=developer'))).toEqual([3]);
  });
});

describe('GET /users?admins=true (UsersFinder#by_admins)', () => {
  it('keeps only the administrators when an administrator asks', async () => {
    const admins = [...sim.state.users.values()].filter((user) => user.isAdmin).map((user) => user.id).sort((a, b) => b - a);
    expect(admins.length).toBeGreaterThan(0);
    expect(await found('admins=true', admin)).toEqual(admins);
  });

  it('changes nothing for anyone else', async () => {
    expect(await found('admins=true', developer)).toEqual(await found('', developer));
  });
});
