import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { estimateRestCalls } from '../../src/cost/estimate.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

// Project.deployKeys: GET /projects/:id/deploy_keys, declared by its route alone (resolvers/keys/Project.ts).
interface RestDeployKey {
  id: number;
  title: string;
  key: string;
  fingerprint?: string;
  fingerprint_sha256: string;
  created_at: string;
  expires_at: string | null;
  can_push: boolean;
}
interface DeployKeysData {
  project: { deployKeys: { count: number | null; nodes: Array<Record<string, unknown>> } | null } | null;
}

const { admin, developer } = DEMO_TOKENS;
const QUERY = `query Keys($path: ID!, $first: Int) { project(fullPath: $path) {
  deployKeys(first: $first) { count nodes { id title key fingerprint fingerprintSha256 createdAt expiresAt canPush } } } }`;

describe('Project.deployKeys over real HTTP', () => {
  const harness = gatewayOverSimulator();

  /** A project of the seed with deploy keys, by its full path, and its keys as REST lists them. */
  async function projectWithKeys() {
    const projectId = harness.simulator.state.deployKeysProjects[0]!.projectId;
    const { path_with_namespace: path } = await harness.oracle.get<{ path_with_namespace: string }>(`/projects/${projectId}`);
    return { projectId, path, keys: await harness.oracle.all<RestDeployKey>(`/projects/${projectId}/deploy_keys`, admin) };
  }

  it("lists the project's deploy keys as REST does, in GitLab's names, with the record read and the list sent together", async () => {
    const { path, keys } = await projectWithKeys();
    expect(keys.length).toBeGreaterThan(1);
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<DeployKeysData>(QUERY, { path }, admin);
    expect(result.errors).toBeUndefined();
    expect(result.data!.project!.deployKeys).toEqual({
      count: keys.length,
      nodes: keys.map((key) => ({
        id: `gid://gitlab/Key/${key.id}`,
        title: key.title,
        key: key.key,
        fingerprint: key.fingerprint ?? null,
        fingerprintSha256: key.fingerprint_sha256,
        createdAt: key.created_at,
        expiresAt: key.expires_at,
        canPush: key.can_push,
      })),
    });
    // The project by path and its list by the same path, in one wave (the lookahead), and nothing more.
    const calls = restCalls(harness.simulator);
    expect(calls).toEqual(expect.arrayContaining([`GET /projects/${encodeURIComponent(path)}/deploy_keys`]));
    expect(calls).toHaveLength(2);
    const estimate = estimateRestCalls(harness.gateway.gateway.schema, { document: parse(QUERY), variables: { path } }, { batching: true });
    expect(estimate).toBeGreaterThanOrEqual(calls.length);
  });

  it('pages with cursors', async () => {
    const { path, keys } = await projectWithKeys();
    const result = await harness.gateway.query<DeployKeysData>(QUERY, { path, first: 1 }, admin);
    expect(result.data!.project!.deployKeys!.nodes.map((node) => node['id'])).toEqual([`gid://gitlab/Key/${keys[0]!.id}`]);
  });

  it('refuses a page size out of range with BAD_USER_INPUT, before the list is asked of REST', async () => {
    const { path } = await projectWithKeys();
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<DeployKeysData>(QUERY, { path, first: 101 }, admin);
    expect(result.errors?.map((error) => error.extensions?.['code'])).toEqual(['BAD_USER_INPUT']);
    expect(restCalls(harness.simulator).filter((call) => call.includes('/deploy_keys'))).toEqual([]);
  });

  it('answers a Developer FORBIDDEN, as REST does', async () => {
    const { path } = await projectWithKeys();
    const result = await harness.gateway.query<DeployKeysData>(QUERY, { path }, developer);
    expect(result.errors?.map((error) => error.extensions?.['code'])).toEqual(['FORBIDDEN']);
    expect(result.data!.project!.deployKeys).toBeNull();
  });
});
