import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, ids, list } from './helpers.js';

let sim: Simulator;
const { admin, developer, outsider } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

async function projectIds(query: string, token?: string): Promise<number[]> {
  const result = await call(sim, `/projects?per_page=100&${query}`, token ? { token } : {});
  expect(result.status).toBe(200);
  return ids(result);
}

describe('GET /projects', () => {
  it('shows anonymous callers the public projects only, as short records, newest first', async () => {
    const result = await call(sim, '/projects?per_page=100');
    expect(ids(result)).toEqual([36, 33, 30, 27, 26, 25, 24, 23, 7, 6, 3, 2, 1]);
    const [first] = list(result);
    expect(first).toMatchObject({ id: 36, path_with_namespace: 'gitlab-org/gitlab-foss', web_url: expect.any(String) as string });
    expect(first).not.toHaveProperty('permissions');
    expect(first).not.toHaveProperty('visibility');
  });

  it('adds internal projects and the private ones of their groups for a signed-in user, with their permissions', async () => {
    const forDeveloper = list(await call(sim, '/projects?per_page=100&order_by=id&sort=asc', { token: developer }));
    expect(forDeveloper.map((project) => project['id'])).toEqual([...Array.from({ length: 33 }, (_, index) => index + 1), 35, 36].filter((id) => id !== 31 && id !== 32 && id !== 34));
    expect(forDeveloper[0]).toMatchObject({ id: 1, visibility: 'public', permissions: { group_access: { access_level: 30 } } });
    expect(await projectIds('order_by=id&sort=asc', outsider)).toEqual([1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 13, 23, 24, 25, 26, 27, 28, 29, 30, 33, 35, 36]);
    expect((await projectIds('', admin)).length).toBe(36);
  });

  it('limits to the projects of which the caller is a member with membership, at least at min_access_level', async () => {
    expect(await projectIds('membership=true&order_by=id&sort=asc', outsider)).toEqual([]);
    const member = await projectIds('membership=true', developer);
    expect(member).not.toContain(33);
    expect(member).not.toContain(35);
    // root owns gitlab-org, so its subgroups' projects too; an administrator's membership is no wider.
    expect(await projectIds('membership=true&order_by=id&sort=asc', admin)).toEqual([...Array.from({ length: 15 }, (_, index) => index + 1), 36]);
    expect(await projectIds('min_access_level=40&order_by=id&sort=asc', developer)).toEqual([6]);
  });

  it('searches names, paths and descriptions, and full paths and names with search_namespaces', async () => {
    expect(await projectIds('search=GITLAB&order_by=id&sort=asc', developer)).toEqual([1, 2, 4, 36]);
    expect(await projectIds('search=gitlab-org&order_by=id&sort=asc', developer)).toEqual([]);
    expect(await projectIds('search=gitlab-org&search_namespaces=true&order_by=id&sort=asc', developer)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 36]);
  });

  it('filters by topic (every topic named, any case), ids after and before, visibility and archived', async () => {
    expect(await projectIds('topic=go')).toEqual([3, 2]);
    expect(await projectIds('topic=go,GIT')).toEqual([3]);
    expect(await projectIds('id_after=30&id_before=34&order_by=id', admin)).toEqual([33, 32, 31]);
    expect(await projectIds('visibility=internal&order_by=id&sort=asc', outsider)).toEqual([4, 8, 9, 10, 11, 13, 28, 29, 35]);
    expect(await projectIds('archived=true')).toEqual([36]);
  });

  it('orders by id, name, path, stars and similarity', async () => {
    expect(await projectIds('order_by=id&sort=desc&visibility=public')).toEqual([36, 33, 30, 27, 26, 25, 24, 23, 7, 6, 3, 2, 1]);
    const byStars = list(await call(sim, '/projects?per_page=100&order_by=star_count&sort=desc')).map((project) => project['star_count'] as number);
    expect(byStars).toEqual([...byStars].sort((a, b) => b - a));
    const byName = list(await call(sim, '/projects?per_page=100&order_by=name&sort=asc')).map((project) => (project['name'] as string).toLowerCase());
    expect(byName).toEqual([...byName].sort((a, b) => a.localeCompare(b, 'en')));
    expect((await projectIds('search=gitaly&order_by=similarity'))[0]).toBe(3);
  });

  it('pages with the X-* headers and Link', async () => {
    const first = await call(sim, '/projects?per_page=5&order_by=id&sort=asc');
    expect(ids(first)).toEqual([1, 2, 3, 6, 7]);
    expect([first.headers.get('x-total'), first.headers.get('x-total-pages'), first.headers.get('x-next-page'), first.headers.get('x-prev-page')]).toEqual(['13', '3', '2', '']);
    expect(first.headers.get('link')).toContain('rel="next"');
    const last = await call(sim, '/projects?per_page=5&order_by=id&sort=asc&page=3');
    expect(ids(last)).toEqual([30, 33, 36]);
    expect(last.headers.get('x-next-page')).toBe('');
  });

  it('refuses unknown orders and mistyped filters with Grape errors', async () => {
    for (const [query, error] of [
      ['order_by=storage_size', 'order_by does not have a valid value'],
      ['sort=up', 'sort does not have a valid value'],
      ['id_after=x', 'id_after is invalid'],
      ['membership=perhaps', 'membership is invalid'],
    ] as const) {
      const result = await call(sim, `/projects?${query}`, { token: admin });
      expect([query, result.status, result.body]).toEqual([query, 400, { error }]);
    }
  });
});
