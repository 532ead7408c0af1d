import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canReadProject, projectAccessLevel } from '../../simulator/data/access.js';
import { AccessLevel } from '../../simulator/data/model.js';
import { md5Fingerprint, publicKeyBlob, sha256Fingerprint } from '../../simulator/data/ssh-keys.js';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, list } from './helpers.js';

// GET /projects/:id/deploy_keys as GitLab answers it (doc/api/deploy_keys.md "List deploy keys for
// project"; lib/api/deploy_keys.rb, Entities::DeployKeysProject).
let sim: Simulator;
const { admin, maintainer, developer, guest, outsider } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

/** The seeded links of a project, in REST's order, as the oracle for what it must list. */
function linksOf(projectId: number) {
  return sim.state.deployKeysProjects.filter((link) => link.projectId === projectId).sort((a, b) => a.id - b.id);
}

const userOf = (token: string) => sim.state.users.get(sim.state.tokens.get(token)!.userId)!;

describe('GET /projects/:id/deploy_keys', () => {
  it("lists the project's deploy keys with GitLab's fields, each with the link's can_push", async () => {
    const projectId = sim.state.deployKeysProjects[0]!.projectId;
    const expected = linksOf(projectId);
    expect(expected.length).toBeGreaterThan(1);
    const keys = list(await call(sim, `/projects/${projectId}/deploy_keys`, { token: admin }));
    expect(keys.map((key) => key['id'])).toEqual(expected.map((link) => link.deployKeyId));
    for (const [index, key] of keys.entries()) {
      const stored = sim.state.sshKeys.get(expected[index]!.deployKeyId)!;
      const blob = publicKeyBlob(stored.key)!;
      expect(Object.keys(key).sort()).toEqual(['can_push', 'created_at', 'expires_at', 'fingerprint', 'fingerprint_sha256', 'id', 'key', 'title', 'usage_type']);
      expect(key).toMatchObject({
        title: stored.title,
        key: stored.key,
        fingerprint: md5Fingerprint(blob),
        fingerprint_sha256: sha256Fingerprint(blob),
        can_push: expected[index]!.canPush,
      });
    }
  });

  it('pages as every REST list does, and takes the URL-encoded path for :id', async () => {
    const projectId = sim.state.deployKeysProjects[0]!.projectId;
    const all = linksOf(projectId);
    const first = await call(sim, `/projects/${projectId}/deploy_keys?per_page=1`, { token: admin });
    expect(list(first).map((key) => key['id'])).toEqual([all[0]!.deployKeyId]);
    expect(first.headers.get('x-total')).toBe(String(all.length));
    const byPath = encodeURIComponent(sim.state.projectFullPath(sim.state.projects.get(projectId)!));
    expect(list(await call(sim, `/projects/${byPath}/deploy_keys`, { token: admin })).length).toBe(all.length);
  });

  it('answers Maintainers and above; 403 to members below, 404 to who cannot see the project, 401 anonymously', async () => {
    const projectId = sim.state.deployKeysProjects[0]!.projectId;
    const project = sim.state.projects.get(projectId)!;
    const statuses = new Set<number>();
    for (const token of [maintainer, developer, guest, outsider]) {
      const user = userOf(token);
      const wanted = !canReadProject(sim.state, user, project) ? 404 : projectAccessLevel(sim.state, user, project) >= AccessLevel.MAINTAINER ? 200 : 403;
      statuses.add(wanted);
      expect({ token, status: (await call(sim, `/projects/${projectId}/deploy_keys`, { token })).status }).toEqual({ token, status: wanted });
    }
    // The seed gives this (public) project callers of both kinds; a project no one can see is 404.
    expect([...statuses].sort()).toEqual([200, 403]);
    expect((await call(sim, `/projects/${projectId}/deploy_keys`)).status).toBe(401);
    expect((await call(sim, '/projects/999999/deploy_keys', { token: admin })).status).toBe(404);
  });
});
