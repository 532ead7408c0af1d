import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, ids } from './helpers.js';

let sim: Simulator;
const { admin, developer, maintainer } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

describe("GET /users/:user_id/projects (a user's personal projects)", () => {
  it("lists the projects of the user's personal namespace, by id or username, as GET /projects presents them", async () => {
    const byUsername = await call(sim, '/users/maintainer/projects', { token: developer });
    expect(byUsername.status).toBe(200);
    expect(ids(byUsername)).toEqual([33]);
    expect(ids(await call(sim, '/users/2/projects', { token: developer }))).toEqual([33]);
    expect((byUsername.body as Array<Record<string, unknown>>)[0]).toHaveProperty('permissions');
  });

  it('keeps what the caller may not see out: a private personal project shows to its owner and administrators only', async () => {
    expect(ids(await call(sim, '/users/alice/projects', { token: developer }))).toEqual([]);
    expect(ids(await call(sim, '/users/alice/projects', { token: admin }))).toEqual([34]);
    expect(ids(await call(sim, '/users/bob/projects'))).toEqual([]);
    expect(ids(await call(sim, '/users/bob/projects', { token: developer }))).toEqual([35]);
  });

  it("takes the project list's filters", async () => {
    expect(ids(await call(sim, '/users/maintainer/projects?archived=true', { token: maintainer }))).toEqual([]);
    expect(ids(await call(sim, '/users/maintainer/projects?search=dot', { token: maintainer }))).toEqual([33]);
    expect(ids(await call(sim, '/users/maintainer/projects?min_access_level=50', { token: maintainer }))).toEqual([33]);
    expect(ids(await call(sim, '/users/maintainer/projects?min_access_level=50', { token: developer }))).toEqual([]);
  });

  it('answers 404 for a user it does not know', async () => {
    const missing = await call(sim, '/users/nobody-by-that-name/projects', { token: developer });
    expect([missing.status, missing.body]).toEqual([404, { message: '404 User Not Found' }]);
  });
});
