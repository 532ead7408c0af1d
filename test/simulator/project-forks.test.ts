// The embedded server's `GET /projects/:id/forks` as GitLab's REST answers it (lib/api/projects.rb,
// ForkProjectsFinder): the forks of a project the caller may see, `owned` keeping those the caller
// owns, 404 for a project the caller cannot see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { seedPersonalFork } from '../support/forks.js';
import { call, ids, list } from './helpers.js';

const { developer, outsider } = DEMO_TOKENS;
const P = '/projects/gitlab-org%2Fgitlab';

describe('GET /projects/:id/forks', () => {
  let sim: Simulator;
  let forkId: number;
  beforeAll(async () => {
    sim = await startSimulator();
    forkId = seedPersonalFork(sim.state, 'gitlab-org/gitlab', 'outsider').id;
  });
  afterAll(async () => {
    await sim.close();
  });

  it('lists the forks anyone may see, paginated', async () => {
    const answer = await call(sim, `${P}/forks`);
    expect(answer.status).toBe(200);
    expect(ids(answer)).toEqual([forkId]);
    expect(answer.headers.get('x-total')).toBe('1');
    expect(list(answer)[0]).toMatchObject({ path_with_namespace: 'outsider/gitlab' });
  });

  it('keeps only the forks the caller owns with owned=true', async () => {
    expect(ids(await call(sim, `${P}/forks?owned=true`, { token: outsider }))).toEqual([forkId]);
    expect(ids(await call(sim, `${P}/forks?owned=true`, { token: developer }))).toEqual([]);
  });

  it('answers an empty list for a project without forks, and 404 for one the caller cannot see', async () => {
    expect(ids(await call(sim, '/projects/gitlab-org%2Fgitlab-runner/forks', { token: developer }))).toEqual([]);
    const hidden = await call(sim, '/projects/gitlab-org%2Fsecurity-fixes/forks', { token: outsider });
    expect(hidden.status).toBe(404);
  });
});
