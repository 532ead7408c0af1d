// The embedded server's `GET /namespaces/:id` as GitLab's REST answers it (lib/api/namespaces.rb,
// API::Entities::Namespace): a personal namespace or a group by id or URL-encoded full path, to
// signed-in callers only; the caller's own personal namespace and the groups they can see, anything
// else "404 Namespace Not Found"; members_count_with_descendants only for those who administer the group.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, USER_IDS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call } from './helpers.js';

const { admin, developer, outsider, maintainer } = DEMO_TOKENS;

describe('GET /namespaces/:id', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });

  it("answers the caller's personal namespace by id and by full path, as GET /user names them", async () => {
    const user = (await call(sim, '/user', { token: developer })).body as { id: number; username: string; name: string; avatar_url: string; web_url: string };
    const namespaceId = sim.state.users.get(user.id)!.namespaceId;
    const byId = await call(sim, `/namespaces/${namespaceId}`, { token: developer });
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual({
      id: namespaceId,
      name: user.name,
      path: user.username,
      kind: 'user',
      full_path: user.username,
      parent_id: null,
      avatar_url: user.avatar_url,
      web_url: user.web_url,
    });
    expect((await call(sim, `/namespaces/${user.username}`, { token: developer })).body).toEqual(byId.body);
  });

  it("hides another user's personal namespace from everyone but administrators", async () => {
    const developerNamespace = sim.state.users.get(USER_IDS.developer)!.namespaceId;
    const hidden = await call(sim, `/namespaces/${developerNamespace}`, { token: outsider });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Namespace Not Found' });
    expect((await call(sim, `/namespaces/${developerNamespace}`, { token: admin })).status).toBe(200);
  });

  it('answers a group the caller can see, with its parent, by id or URL-encoded full path', async () => {
    const byPath = await call(sim, '/namespaces/gitlab-org%2Ffrontend', { token: outsider });
    const group = sim.state.findGroup('gitlab-org/frontend');
    expect(byPath.status).toBe(200);
    expect(byPath.body).toMatchObject({ id: group!.id, kind: 'group', full_path: 'gitlab-org/frontend', parent_id: group!.parentId });
    expect(byPath.body).not.toHaveProperty('members_count_with_descendants');
    expect((await call(sim, `/namespaces/${group!.id}`, { token: outsider })).body).toEqual(byPath.body);
  });

  it('tells those who administer a group how many distinct members it and its subgroups have', async () => {
    const group = sim.state.findGroup('gitlab-org')!;
    const answer = await call(sim, `/namespaces/${group.id}`, { token: admin });
    const subtree = new Set(sim.state.groupSubtree(group).map((g) => g.id));
    const members = new Set(sim.state.memberships.filter((m) => m.source.kind === 'group' && subtree.has(m.source.groupId)).map((m) => m.userId));
    expect(answer.body).toMatchObject({ kind: 'group', full_path: 'gitlab-org', members_count_with_descendants: members.size });
    expect((await call(sim, `/namespaces/${group.id}`, { token: developer })).body).not.toHaveProperty('members_count_with_descendants');
  });

  it('answers 404 for a private group the caller cannot see and for no namespace at all', async () => {
    const secret = sim.state.findGroup('secret-lab')!;
    for (const id of [String(secret.id), 'secret-lab', '999999', 'no-such-namespace']) {
      const answer = await call(sim, `/namespaces/${id}`, { token: maintainer });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: '404 Namespace Not Found' });
    }
  });

  it('answers 401 without a token', async () => {
    const answer = await call(sim, '/namespaces/gitlab-org');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ message: '401 Unauthorized' });
  });
});
