import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { matchesRefSearch } from '../../simulator/routes/commits/branches.js';
import { call, list } from './helpers.js';

let sim: Simulator;
const { maintainer, developer, outsider } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

const names = (records: Record<string, unknown>[]) => records.map((item) => item['name']);

describe('GET /projects/:id/repository/branches', () => {
  it('lists branches in name order with their tip commit, default, protection and push rights', async () => {
    const branches = list(await call(sim, '/projects/gitlab-org%2Fgitlab/repository/branches?per_page=100', { token: developer }));
    expect(names(branches)).toEqual(['feature/gitlab-2', 'feature/gitlab-3', 'fix/gitlab-1', 'fix/gitlab-4', 'fix/gitlab-5', 'main']);
    const main = branches.find((branch) => branch['name'] === 'main')!;
    expect(main).toMatchObject({ default: true, protected: true, merged: false, can_push: false, developers_can_push: false, web_url: `${new URL(sim.url).origin}/gitlab-org/gitlab/-/tree/main` });
    expect(main['commit']).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{40}$/) as string, web_url: expect.stringContaining('/gitlab-org/gitlab/-/commit/') as string });
    expect(branches.find((branch) => branch['name'] === 'fix/gitlab-1')).toMatchObject({ default: false, protected: false, can_push: true });
    // A maintainer may push to the protected default branch.
    const forMaintainer = list(await call(sim, '/projects/1/repository/branches?search=^main$', { token: maintainer }));
    expect(forMaintainer).toEqual([expect.objectContaining({ name: 'main', can_push: true })]);
  });

  it.each([
    ['gitlab-4', ['fix/gitlab-4']],
    ['FIX', ['fix/gitlab-1', 'fix/gitlab-4', 'fix/gitlab-5']],
    ['^feature', ['feature/gitlab-2', 'feature/gitlab-3']],
    ['-5$', ['fix/gitlab-5']],
    ['^main$', ['main']],
    ['^ain', []],
  ])('searches %s as GitLab\'s BranchesFinder does', async (search, expected) => {
    expect(names(list(await call(sim, `/projects/1/repository/branches?search=${encodeURIComponent(search)}`, { token: developer })))).toEqual(expected);
  });

  it('pages with the X-* headers and Link', async () => {
    const first = await call(sim, '/projects/1/repository/branches?per_page=4', { token: developer });
    expect(names(list(first))).toEqual(['feature/gitlab-2', 'feature/gitlab-3', 'fix/gitlab-1', 'fix/gitlab-4']);
    expect([first.headers.get('x-total'), first.headers.get('x-total-pages'), first.headers.get('x-next-page')]).toEqual(['6', '2', '2']);
    expect(first.headers.get('link')).toContain('rel="next"');
    const second = await call(sim, '/projects/1/repository/branches?per_page=4&page=2', { token: developer });
    expect(names(list(second))).toEqual(['fix/gitlab-5', 'main']);
    expect([second.headers.get('x-next-page'), second.headers.get('x-prev-page')]).toEqual(['', '1']);
  });

  it('answers anonymous callers for a public project, and 404 for a project the caller may not see', async () => {
    expect((await call(sim, '/projects/1/repository/branches')).status).toBe(200);
    const hidden = await call(sim, '/projects/gitlab-org%2Fsecurity-fixes/repository/branches', { token: outsider });
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Project Not Found' }]);
  });
});

describe('GET /projects/:id/repository/tags', () => {
  it('orders by the last update, newest first, by default', async () => {
    const tags = list(await call(sim, '/projects/1/repository/tags', { token: developer }));
    expect(names(tags)).toEqual(['v2.0.0-rc1', 'v1.1.0', 'v1.0.0']);
    const dates = tags.map((tag) => Date.parse((tag['commit'] as { committed_date: string }).committed_date));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect(tags[0]).toMatchObject({ message: expect.any(String) as string, target: expect.stringMatching(/^[0-9a-f]{40}$/) as string, release: null, protected: false });
  });

  it('orders by name or version either way, and searches with ^ and $', async () => {
    expect(names(list(await call(sim, '/projects/1/repository/tags?order_by=name&sort=asc')))).toEqual(['v1.0.0', 'v1.1.0', 'v2.0.0-rc1']);
    expect(names(list(await call(sim, '/projects/1/repository/tags?order_by=version&sort=desc')))).toEqual(['v2.0.0-rc1', 'v1.1.0', 'v1.0.0']);
    expect(names(list(await call(sim, '/projects/1/repository/tags?search=^v1')))).toEqual(['v1.1.0', 'v1.0.0']);
    expect(names(list(await call(sim, '/projects/1/repository/tags?search=rc1$')))).toEqual(['v2.0.0-rc1']);
  });

  it('refuses an order REST does not know with a Grape error', async () => {
    const result = await call(sim, '/projects/1/repository/tags?order_by=size');
    expect([result.status, result.body]).toEqual([400, { error: 'order_by does not have a valid value' }]);
  });

  it('pages with the X-* headers', async () => {
    const page = await call(sim, '/projects/1/repository/tags?per_page=2&page=2');
    expect(names(list(page))).toEqual(['v1.0.0']);
    expect([page.headers.get('x-total'), page.headers.get('x-page'), page.headers.get('x-next-page'), page.headers.get('x-prev-page')]).toEqual(['3', '2', '', '1']);
  });
});

describe('ref search', () => {
  it('treats a lone ^ or $ as text to find, not an anchor on nothing', () => {
    expect(matchesRefSearch('main', '')).toBe(true);
    expect(matchesRefSearch('a$b', '$')).toBe(true);
    expect(matchesRefSearch('main', '^')).toBe(true);
  });
});
