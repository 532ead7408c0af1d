// GET /users/:user_id/starred_projects as GitLab answers it: the user's starred projects the caller
// may see, by id or username, and 404 for a user who does not exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, ids } from './helpers.js';

let sim: Simulator;
const { admin } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

describe('projects starred by a user', () => {
  it('lists the projects a user starred, newest first, by id or username', async () => {
    const star = sim.state.stars[0]!;
    const user = sim.state.users.get(star.userId)!;
    const expected = sim.state.stars.filter((candidate) => candidate.userId === user.id).map((candidate) => candidate.projectId).sort((a, b) => b - a);
    const byId = await call(sim, `/users/${user.id}/starred_projects`, { token: admin });
    expect(byId.status).toBe(200);
    expect(ids(byId).sort((a, b) => b - a)).toEqual(expected);
    expect(ids(await call(sim, `/users/${user.username}/starred_projects`, { token: admin }))).toEqual(ids(byId));
  });

  it('shows anonymous callers only the public ones, and 404s for an unknown user', async () => {
    const star = sim.state.stars[0]!;
    const anonymous = ids(await call(sim, `/users/${star.userId}/starred_projects`));
    expect(anonymous.every((id) => sim.state.projects.get(id)!.visibility === 'public')).toBe(true);
    const missing = await call(sim, '/users/999999/starred_projects', { token: admin });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 User Not Found' });
  });
});
