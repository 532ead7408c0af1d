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

describe('GET /users/:user_id/contributed_projects (ContributedProjectsFinder)', () => {
  /** The projects in which the user wrote an issue, a merge request or an issue comment. */
  const contributedTo = (userId: number): Set<number> => {
    const projects = new Set<number>();
    for (const issue of sim.state.issues.values()) if (issue.authorId === userId) projects.add(issue.projectId);
    for (const mergeRequest of sim.state.mergeRequests.values()) if (mergeRequest.authorId === userId) projects.add(mergeRequest.projectId);
    for (const note of sim.state.notes.values()) {
      const issue = sim.state.issues.get(note.issueId);
      if (note.authorId === userId && issue) projects.add(issue.projectId);
    }
    return projects;
  };

  it("lists the projects of the user's contributions that the caller may see, newest first by creation", async () => {
    const expected = [...contributedTo(3)].filter((id) => sim.state.projects.get(id) !== undefined).sort((a, b) => {
      const [x, y] = [sim.state.projects.get(a)!, sim.state.projects.get(b)!];
      return y.createdAt.localeCompare(x.createdAt);
    });
    expect(expected.length).toBeGreaterThan(0);
    const listed = await call(sim, '/users/developer/contributed_projects?per_page=100', { token: admin });
    expect(listed.status).toBe(200);
    expect(ids(listed)).toEqual(expected);
  });

  it('orders by the last activity when asked, and hides what the caller may not see', async () => {
    const byActivity = ids(await call(sim, '/users/3/contributed_projects?order_by=last_activity_at&sort=desc&per_page=100', { token: admin }));
    expect(byActivity.length).toBe(contributedTo(3).size);
    const anonymous = ids(await call(sim, '/users/3/contributed_projects?per_page=100'));
    expect(anonymous.every((id) => sim.state.projects.get(id)?.visibility === 'public')).toBe(true);
  });

  it('answers 404 for a user it does not know', async () => {
    expect((await call(sim, '/users/999/contributed_projects', { token: developer })).status).toBe(404);
  });
});
