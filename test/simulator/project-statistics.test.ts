import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, list, record } from './helpers.js';

let sim: Simulator;
const { admin, maintainer, developer, guest, outsider } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

const SIZES = ['repository_size', 'wiki_size', 'lfs_objects_size', 'job_artifacts_size', 'pipeline_artifacts_size', 'packages_size', 'snippets_size', 'uploads_size'] as const;

describe('GET /projects/:id?statistics=true', () => {
  it.each([
    ['an administrator', admin],
    ['a maintainer', maintainer],
    ['a developer', developer],
  ])('adds the storage statistics for %s (Reporter and above)', async (_who, token) => {
    const project = record(await call(sim, '/projects/gitlab-org%2Fgitlab?statistics=true', { token }));
    const statistics = project['statistics'] as Record<string, number>;
    expect(Object.keys(statistics).sort()).toEqual(['commit_count', 'container_registry_size', 'storage_size', ...SIZES].sort());
    expect(statistics['storage_size']).toBe(SIZES.reduce((sum, key) => sum + statistics[key]!, 0));
    // The commit count is that of the default branch's history.
    let count = 0;
    for (let page = 1; ; page += 1) {
      const commits = await call(sim, `/projects/1/repository/commits?ref_name=${String(project['default_branch'])}&per_page=100&page=${page}`, { token });
      count += list(commits).length;
      if (!commits.headers.get('x-next-page')) break;
    }
    expect(statistics['commit_count']).toBe(count);
  });

  it.each([
    ['a guest', guest],
    ['a signed-in non-member', outsider],
    ['an anonymous caller', undefined],
  ])('leaves them out for %s, and without the parameter', async (_who, token) => {
    const project = record(await call(sim, '/projects/1?statistics=true', token ? { token } : {}));
    expect(project).not.toHaveProperty('statistics');
    expect(record(await call(sim, '/projects/1', { token: admin }))).not.toHaveProperty('statistics');
  });

  it('refuses a statistics value that is no boolean with a Grape error', async () => {
    const result = await call(sim, '/projects/1?statistics=maybe', { token: admin });
    expect([result.status, result.body]).toEqual([400, { error: 'statistics is invalid' }]);
  });
});
