import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupAccessLevel } from '../../simulator/data/access.js';
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

async function groupIds(path: string, token?: string): Promise<number[]> {
  const separator = path.includes('?') ? '&' : '?';
  const result = await call(sim, `${path}${separator}per_page=100`, token ? { token } : {});
  expect(result.status).toBe(200);
  return ids(result);
}

describe('GET /groups', () => {
  it('shows anonymous callers the public groups only, ordered by name', async () => {
    expect(await groupIds('/groups')).toEqual([2, 1, 9, 10]);
  });

  it('defaults all_available to false for signed-in users: the groups they belong to', async () => {
    expect(await groupIds('/groups', outsider)).toEqual([]);
    expect(await groupIds('/groups?all_available=true', outsider)).toEqual([3, 11, 2, 1, 9, 4, 10]);
    const guestGroups = await groupIds('/groups', guest);
    expect(guestGroups.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('defaults all_available to true for administrators', async () => {
    expect((await groupIds('/groups', admin)).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    // Asked for false, an administrator gets the groups they belong to.
    expect((await groupIds('/groups?all_available=false', admin)).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
  });

  it('lets owned and min_access_level take precedence over all_available', async () => {
    expect(await groupIds('/groups?owned=true&all_available=true', maintainer)).toEqual([9, 10]);
    expect(await groupIds('/groups?min_access_level=50&all_available=true', maintainer)).toEqual([9, 10]);
    expect(await groupIds('/groups?min_access_level=20', guest)).toEqual([]);
    expect(await groupIds('/groups?owned=true', developer)).toEqual([]);
  });

  it('filters by search, skip_groups and top_level_only, and orders by path, id and name', async () => {
    expect(await groupIds('/groups?search=TOOL')).toEqual([10]);
    expect(await groupIds('/groups?skip_groups[]=1&skip_groups[]=9')).toEqual([2, 10]);
    expect(await groupIds('/groups?skip_groups=1,9')).toEqual([2, 10]);
    expect(await groupIds('/groups?top_level_only=true')).toEqual([1, 9]);
    expect(await groupIds('/groups?order_by=id')).toEqual([1, 2, 9, 10]);
    expect(await groupIds('/groups?order_by=id&sort=desc')).toEqual([10, 9, 2, 1]);
    expect(await groupIds('/groups?order_by=path', admin)).toEqual([6, 3, 5, 11, 2, 1, 8, 9, 7, 12, 4, 10]);
  });

  it('orders by similarity to the search and ignores sort; without a search, by name', async () => {
    // "in" matches billing and infra; the path infra is the closer trigram match.
    expect(await groupIds('/groups?search=in&order_by=similarity', admin)).toEqual([8, 5]);
    expect(await groupIds('/groups?search=in&order_by=similarity&sort=asc', admin)).toEqual([8, 5]);
    expect(await groupIds('/groups?search=in&order_by=name', admin)).toEqual([5, 8]);
    expect(await groupIds('/groups?order_by=similarity')).toEqual(await groupIds('/groups?order_by=name'));
  });

  it('gives statistics and custom attributes to administrators only', async () => {
    const forAdmin = list(await call(sim, '/groups?statistics=true&with_custom_attributes=true&search=gitlab-org', { token: admin }));
    expect(forAdmin[0]).toMatchObject({ statistics: { storage_size: expect.any(Number) as number }, custom_attributes: [{ key: 'department', value: 'engineering' }, { key: 'cost_center', value: '1000' }] });
    const stats = forAdmin[0]!['statistics'] as Record<string, number>;
    expect(stats['storage_size']).toBe(
      (['repository_size', 'wiki_size', 'lfs_objects_size', 'job_artifacts_size', 'pipeline_artifacts_size', 'packages_size', 'snippets_size', 'uploads_size'] as const).reduce((sum, key) => sum + (stats[key] ?? 0), 0),
    );
    const forMaintainer = list(await call(sim, '/groups?statistics=true&with_custom_attributes=true&search=gitlab-org', { token: maintainer }));
    expect(forMaintainer[0]).not.toHaveProperty('statistics');
    expect(forMaintainer[0]).not.toHaveProperty('custom_attributes');
  });

  it('filters by custom attributes for administrators, and ignores the filter for everyone else', async () => {
    expect(await groupIds('/groups?custom_attributes[department]=engineering&order_by=id', admin)).toEqual([1, 9]);
    expect(await groupIds('/groups?custom_attributes[department]=engineering&custom_attributes[cost_center]=1000', admin)).toEqual([1]);
    expect(await groupIds('/groups?custom_attributes[department]=sales')).toEqual(await groupIds('/groups'));
  });

  it('refuses values outside the allowed sets', async () => {
    expect((await call(sim, '/groups?order_by=created_at')).body).toEqual({ error: 'order_by does not have a valid value' });
    expect((await call(sim, '/groups?min_access_level=35', { token: guest })).body).toEqual({ error: 'min_access_level does not have a valid value' });
    expect((await call(sim, '/groups?skip_groups=a')).body).toEqual({ error: 'skip_groups is invalid' });
  });
});

describe('GET /groups/:id/subgroups and /descendant_groups', () => {
  it('lists direct subgroups with the same rules as /groups', async () => {
    expect(await groupIds('/groups/1/subgroups')).toEqual([2]);
    expect(await groupIds('/groups/1/subgroups', outsider)).toEqual([]);
    expect(await groupIds('/groups/1/subgroups?all_available=true', outsider)).toEqual([3, 2]);
    expect(await groupIds('/groups/gitlab-org/subgroups', developer)).toEqual([3, 2]);
  });

  it('lists every descendant, at any depth', async () => {
    expect(await groupIds('/groups/1/descendant_groups', admin)).toEqual([3, 5, 2, 4]);
    expect(await groupIds('/groups/1/descendant_groups')).toEqual([2]);
  });

  it('answers 404 for a group the caller may not see', async () => {
    expect((await call(sim, '/groups/acme/subgroups')).status).toBe(404);
    expect((await call(sim, '/groups/acme/descendant_groups', { token: outsider })).body).toEqual({ message: '404 Group Not Found' });
  });
});

describe('GET /groups/:id', () => {
  it('shows public groups without a token and hides private ones as not found', async () => {
    expect(record(await call(sim, '/groups/gitlab-org')).full_path).toBe('gitlab-org');
    expect((await call(sim, '/groups/acme')).status).toBe(404);
    expect((await call(sim, '/groups/secret-lab', { token: maintainer })).status).toBe(404);
  });

  it('gives the runners token to owners and administrators only', async () => {
    expect(record(await call(sim, '/groups/opensource', { token: maintainer }))).toHaveProperty('runners_token');
    expect(record(await call(sim, '/groups/gitlab-org', { token: admin }))).toHaveProperty('runners_token');
    expect(record(await call(sim, '/groups/gitlab-org', { token: maintainer }))).not.toHaveProperty('runners_token');
  });

  it('embeds projects unless with_projects=false, and custom attributes for administrators who ask', async () => {
    const detail = record(await call(sim, '/groups/design', { token: maintainer }));
    expect((detail['projects'] as unknown[]).length).toBe(2);
    expect((detail['shared_projects'] as Array<{ id: number }>).map((p) => p.id)).toEqual([18]);
    expect(record(await call(sim, '/groups/design?with_projects=false', { token: maintainer }))).not.toHaveProperty('projects');
    expect(record(await call(sim, '/groups/1?with_custom_attributes=true', { token: admin }))['custom_attributes']).toHaveLength(2);
    expect(record(await call(sim, '/groups/1?with_custom_attributes=true', { token: maintainer }))).not.toHaveProperty('custom_attributes');
  });
});

describe('GET /groups/:id/projects and /projects/shared', () => {
  it('lists the projects the caller can see, newest first', async () => {
    expect(await groupIds('/groups/1/projects')).toEqual([36, 3, 2, 1]);
    expect(await groupIds('/groups/1/projects', admin)).toEqual([36, 5, 4, 3, 2, 1]);
  });

  it('includes subgroups, filters by archived and visibility, and orders as asked', async () => {
    expect(await groupIds('/groups/1/projects?include_subgroups=true', admin)).toEqual([36, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(await groupIds('/groups/1/projects?archived=true', admin)).toEqual([36]);
    expect(await groupIds('/groups/1/projects?archived=false', admin)).toEqual([5, 4, 3, 2, 1]);
    expect(await groupIds('/groups/1/projects?include_subgroups=true&visibility=internal', admin)).toEqual([13, 11, 10, 9, 8, 4]);
    expect(await groupIds('/groups/1/projects?order_by=name&sort=asc', admin)).toEqual([3, 1, 36, 2, 4, 5]);
    expect(await groupIds('/groups/1/projects?order_by=id&sort=asc', admin)).toEqual([1, 2, 3, 4, 5, 36]);
  });

  it('filters by starred, feature flags, role and ownership', async () => {
    expect(await groupIds('/groups/1/projects?include_subgroups=true&starred=true', maintainer)).toEqual([6, 1]);
    expect(await groupIds('/groups/10/projects?with_issues_enabled=true')).toEqual([27, 26]);
    expect(await groupIds('/groups/opensource%2Ftools/projects?with_merge_requests_enabled=true', developer)).toEqual([28, 27]);
    expect(await groupIds('/groups/1/projects?include_subgroups=true&min_access_level=40', developer)).toEqual([6]);
    expect(await groupIds('/groups/opensource/projects?owned=true', maintainer)).toEqual([25, 24, 23]);
    expect(await groupIds('/groups/opensource/projects?owned=true', developer)).toEqual([]);
  });

  it('includes projects shared with the group unless with_shared=false', async () => {
    expect(await groupIds('/groups/design/projects', maintainer)).toEqual([30, 29, 18]);
    expect(await groupIds('/groups/design/projects?with_shared=false', maintainer)).toEqual([30, 29]);
    expect(await groupIds('/groups/design/projects/shared', maintainer)).toEqual([18]);
    // The shared project is private: it shows only to those who can see it.
    expect(await groupIds('/groups/design/projects/shared', outsider)).toEqual([]);
  });

  it('answers the short record with simple=true and custom attributes to administrators who ask', async () => {
    const simple = list(await call(sim, '/groups/1/projects?simple=true&per_page=1', { token: admin }))[0]!;
    expect(simple).toMatchObject({ id: 36, path_with_namespace: 'gitlab-org/gitlab-foss', name: 'GitLab FOSS' });
    expect(simple).not.toHaveProperty('issues_enabled');
    const full = list(await call(sim, '/groups/1/projects?with_custom_attributes=true&order_by=id&sort=asc&per_page=1', { token: admin }))[0]!;
    expect(full).toMatchObject({ id: 1, issues_enabled: true, custom_attributes: [{ key: 'tier', value: 'critical' }] });
    expect(full).not.toHaveProperty('permissions');
  });

  it('orders by similarity to the search', async () => {
    const bySimilarity = await groupIds('/groups/1/projects?search=gitlab&order_by=similarity', admin);
    expect(bySimilarity[0]).toBe(1);
    expect(new Set(bySimilarity)).toEqual(new Set(await groupIds('/groups/1/projects?search=gitlab', admin)));
    expect(await groupIds('/groups/1/projects?order_by=similarity&sort=asc', admin)).toEqual(await groupIds('/groups/1/projects?order_by=name&sort=asc', admin));
  });
});

describe('POST /groups', () => {
  it('creates a subgroup for a role the parent allows, persists it, and makes the creator its owner', async () => {
    expect((await call(sim, '/groups', { method: 'POST', token: guest, json: { name: 'Nope', path: 'nope', parent_id: 1 } })).status).toBe(403);
    const created = await call(sim, '/groups', { method: 'POST', token: maintainer, json: { name: 'Docs', path: 'docs', parent_id: 1, visibility: 'public', default_branch_protection: 1 } });
    expect(created.status).toBe(201);
    const group = record(created);
    expect(group).toMatchObject({ full_path: 'gitlab-org/docs', visibility: 'public', default_branch_protection: 1, parent_id: 1 });
    expect(record(await call(sim, '/groups/gitlab-org%2Fdocs')).id).toBe(group['id']);
    const saved = sim.state.groups.get(group['id'] as number)!;
    const creator = sim.state.users.get(2)!;
    expect(groupAccessLevel(sim.state, creator, saved)).toBe(50);
  });

  it('refuses a taken path, a visibility above the parent\'s, and a missing name', async () => {
    const taken = await call(sim, '/groups', { method: 'POST', token: admin, json: { name: 'Frontend 2', path: 'frontend', parent_id: 1 } });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: 'Failed to save group {:path=>["has already been taken"]}' });
    const visibility = await call(sim, '/groups', { method: 'POST', token: admin, json: { name: 'Open', path: 'open', parent_id: 6, visibility: 'public' } });
    expect(visibility.body).toEqual({ message: 'Failed to save group {:visibility_level=>["public is not allowed since the parent group has a private visibility."]}' });
    expect((await call(sim, '/groups', { method: 'POST', token: admin, json: { path: 'x' } })).body).toEqual({ error: 'name is missing' });
    expect((await call(sim, '/groups', { method: 'POST', json: { name: 'x', path: 'x' } })).status).toBe(401);
  });
});

describe('PUT /groups/:id', () => {
  it('is for owners and administrators', async () => {
    expect((await call(sim, '/groups/10', { method: 'PUT', token: developer, json: { description: 'x' } })).status).toBe(403);
    expect((await call(sim, '/groups/opensource%2Ftools', { method: 'PUT', token: developer, json: { description: 'x' } })).status).toBe(403);
    expect((await call(sim, '/groups/12', { method: 'PUT', token: maintainer, json: { description: 'x' } })).status).toBe(404);
  });

  // The documentation's table says `integer`; lib/api/groups.rb takes a String and find_group!
  // finds it by id or full path, as python-gitlab's `gl.groups.update('my-group/sub', ...)` sends it.
  it('takes the group by URL-encoded full path as well as by id, and a bare name finds nothing', async () => {
    const byPath = await call(sim, '/groups/opensource%2Ftools', { method: 'PUT', token: maintainer, json: { description: 'Tooling, by path' } });
    expect(byPath.status).toBe(200);
    expect(record(byPath)).toMatchObject({ id: 10, full_path: 'opensource/tools', description: 'Tooling, by path' });
    expect(record(await call(sim, '/groups/10', { token: maintainer }))['description']).toBe('Tooling, by path');
    const upperCase = await call(sim, '/groups/OpenSource%2FTools', { method: 'PUT', token: maintainer, json: { description: 'Developer tooling' } });
    expect(record(upperCase)).toMatchObject({ id: 10, description: 'Developer tooling' });
    const bareName = await call(sim, '/groups/tools', { method: 'PUT', token: maintainer, json: { description: 'x' } });
    expect([bareName.status, bareName.body]).toEqual([404, { message: '404 Group Not Found' }]);
    // Group 12 is private, and the maintainer is no member of it: not found by path either.
    const privateOne = await call(sim, `/groups/${encodeURIComponent(sim.state.groupFullPath(sim.state.groups.get(12)!))}`, { method: 'PUT', token: maintainer, json: { description: 'x' } });
    expect([privateOne.status, privateOne.body]).toEqual([404, { message: '404 Group Not Found' }]);
  });

  it('persists a rename, which moves the full paths of everything inside', async () => {
    const updated = await call(sim, '/groups/10', { method: 'PUT', token: maintainer, json: { path: 'devtools', name: 'Dev Tools', lfs_enabled: false } });
    expect(updated.status).toBe(200);
    expect(record(updated)).toMatchObject({ full_path: 'opensource/devtools', name: 'Dev Tools', lfs_enabled: false });
    expect(record(updated)).toHaveProperty('projects');
    expect(record(await call(sim, '/projects/26')).path_with_namespace).toBe('opensource/devtools/linter');
    expect((await call(sim, '/groups/opensource%2Ftools')).status).toBe(404);
  });

  it('answers model errors as a message object', async () => {
    const result = await call(sim, '/groups/1', { method: 'PUT', token: admin, json: { visibility: 'private' } });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      message: {
        visibility_level: [
          'private is not allowed since there are sub-groups with higher visibility.',
          'private is not allowed since this group contains projects with higher visibility.',
        ],
      },
    });
  });
});

describe('POST /groups/:id/projects/:project_id', () => {
  it('is for administrators only', async () => {
    expect((await call(sim, '/groups/9/projects/33', { method: 'POST', token: maintainer })).status).toBe(403);
  });

  it('moves the project, changing its full path and lowering its visibility to the group\'s', async () => {
    const moved = await call(sim, '/groups/design/projects/maintainer%2Fdotfiles', { method: 'POST', token: admin });
    expect(moved.status).toBe(201);
    expect(record(moved)).toMatchObject({ id: 33, path_with_namespace: 'design/dotfiles', visibility: 'internal' });
    expect((await call(sim, '/projects/maintainer%2Fdotfiles', { token: admin })).status).toBe(404);
  });

  it('refuses a path already taken in the group, and the group the project is in', async () => {
    const clash = await call(sim, '/groups/9/projects/16', { method: 'POST', token: admin });
    expect(clash.status).toBe(400);
    expect(clash.body).toEqual({ message: 'Failed to transfer project {:new_namespace=>["Project with same name or path in target namespace already exists"]}' });
    expect((await call(sim, '/groups/1/projects/1', { method: 'POST', token: admin })).status).toBe(400);
    expect((await call(sim, '/groups/1/projects/9999', { method: 'POST', token: admin })).body).toEqual({ message: '404 Project Not Found' });
  });
});
