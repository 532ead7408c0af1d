import { describe, expect, it } from 'vitest';
import { md5Fingerprint, publicKeyBlob, sha256Fingerprint } from '../../simulator/data/ssh-keys.js';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

interface RestKey {
  id: number;
  title: string;
  key: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  usage_type: string;
  user: {
    id: number;
    username: string;
    email: string;
    last_sign_in_at: string;
    can_create_group: boolean;
    two_factor_enabled: boolean;
    last_activity_on: string;
  };
  deploy_keys_projects?: Array<{
    id: number;
    deploy_key_id: number;
    project_id: number;
    can_push: boolean;
    created_at: string;
    updated_at: string;
  }>;
}

const { admin, maintainer } = DEMO_TOKENS;
const KEY_FIELDS = `id title key fingerprint fingerprintSha256 createdAt expiresAt lastUsedAt usageType
  user { id username email lastSignInAt canCreateGroup twoFactorEnabled lastActivityOn }`;

function asNode(key: RestKey) {
  const blob = publicKeyBlob(key.key)!;
  return {
    id: `gid://gitlab/Key/${key.id}`,
    title: key.title,
    key: key.key,
    fingerprint: md5Fingerprint(blob),
    fingerprintSha256: sha256Fingerprint(blob),
    createdAt: key.created_at,
    expiresAt: key.expires_at,
    lastUsedAt: key.last_used_at,
    usageType: key.usage_type.toUpperCase(),
    user: {
      id: `gid://gitlab/User/${key.user.id}`,
      username: key.user.username,
      email: key.user.email,
      lastSignInAt: key.user.last_sign_in_at,
      canCreateGroup: key.user.can_create_group,
      twoFactorEnabled: key.user.two_factor_enabled,
      lastActivityOn: key.user.last_activity_on,
    },
  };
}

describe('SSH keys over real HTTP', () => {
  const harness = gatewayOverSimulator();
  const query = <T>(text: string, variables: Record<string, unknown> = {}, token: string = admin) =>
    harness.gateway.query<T>(text, variables, token);
  const fingerprints = (id: number) => {
    const blob = publicKeyBlob(harness.simulator.state.sshKeys.get(id)!.key)!;
    return { md5: md5Fingerprint(blob), sha256: sha256Fingerprint(blob) };
  };

  it('reads a key by ID with its full user, in one REST call', async () => {
    const result = await query<{ key: ReturnType<typeof asNode> }>(`{ key(id: "gid://gitlab/Key/1") { ${KEY_FIELDS} } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data!.key).toEqual(asNode(await harness.oracle.get<RestKey>('/keys/1', admin)));
    expect(restCalls(harness.simulator)).toEqual(['GET /keys/1']);
  });

  it('finds a key by its SHA256 fingerprint, URL-encoded in the query string', async () => {
    const { sha256, md5 } = fingerprints(1);
    const result = await query<{ key: { id: string; fingerprint: string } }>(
      `query($fp: String!) { key: keyByFingerprint(fingerprint: $fp) { id fingerprint } }`,
      { fp: sha256 },
    );
    expect(result.data!.key).toEqual({ id: 'gid://gitlab/Key/1', fingerprint: md5 });
    // The fingerprint holds `/` and `+`: both travel encoded, as the REST documentation asks.
    expect(harness.simulator.requests.map((request) => request.query)).toEqual([{ fingerprint: sha256 }]);
    expect(sha256).toMatch(/\//);
    expect(sha256).toMatch(/\+/);
  });

  it('finds a key by its MD5 fingerprint, as ssh-keygen prints it (MD5: label, upper case)', async () => {
    const { md5 } = fingerprints(3);
    const result = await query<{ plain: { id: string }; printed: { id: string } }>(
      `query($plain: String!, $printed: String!) { plain: keyByFingerprint(fingerprint: $plain) { id } printed: keyByFingerprint(fingerprint: $printed) { id } }`,
      { plain: md5, printed: `MD5:${md5.toUpperCase()}` },
    );
    expect(result.data).toEqual({ plain: { id: 'gid://gitlab/Key/3' }, printed: { id: 'gid://gitlab/Key/3' } });
  });

  it("lists a deploy key's projects, each with its project", async () => {
    const { sha256 } = fingerprints(7);
    const result = await query<{
      keyByFingerprint: {
        title: string;
        deployKeysProjects: Array<{
          id: string;
          deployKeyId: string;
          canPush: boolean;
          createdAt: string;
          updatedAt: string;
          project: { fullPath: string };
        }>;
      };
    }>(
      `query($fp: String!) { keyByFingerprint(fingerprint: $fp) { title deployKeysProjects { id deployKeyId canPush createdAt updatedAt project { fullPath } } } }`,
      { fp: sha256 },
    );
    expect(result.errors).toBeUndefined();
    const expected = await harness.oracle.get<RestKey>(`/keys?fingerprint=${encodeURIComponent(sha256)}`, admin);
    expect(result.data!.keyByFingerprint).toEqual({
      title: expected.title,
      deployKeysProjects: expected.deploy_keys_projects!.map((link) => ({
        id: `gid://gitlab/DeployKeysProject/${link.id}`,
        deployKeyId: `gid://gitlab/Key/${link.deploy_key_id}`,
        canPush: link.can_push,
        createdAt: link.created_at,
        updatedAt: link.updated_at,
        project: { fullPath: link.project_id === 1 ? 'gitlab-org/gitlab' : 'gitlab-org/gitlab-runner' },
      })),
    });
    expect(restCalls(harness.simulator).sort()).toEqual(['GET /keys', 'GET /projects/1', 'GET /projects/2']);
  });

  it('answers null for a fingerprint no key has, and node(id:) reads keys too', async () => {
    const result = await query<{ none: null; node: { title: string } }>(
      `{ none: keyByFingerprint(fingerprint: "${'ab:'.repeat(15)}ab") { id } node(id: "gid://gitlab/Key/2") { ... on SshKey { title } } }`,
    );
    expect(result.data).toEqual({ none: null, node: { title: 'root@build-host' } });
  });

  it.each([
    ['a path-escape attempt', '../../users/1'],
    ['a query-string injection', `SHA256:${'A'.repeat(43)}&fingerprint=x`],
    ['a short SHA256 digest', 'SHA256:abc'],
    ['an MD5 with a bad pair', `${'ab:'.repeat(15)}zz`],
    ['an empty value', ''],
  ])('refuses %s before any REST call', async (_case, fingerprint) => {
    const result = await query(`query($fp: String!) { keyByFingerprint(fingerprint: $fp) { id } }`, { fp: fingerprint });
    expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'fingerprint' });
    expect(restCalls(harness.simulator)).toEqual([]);
  });

  it('is FORBIDDEN to non-administrators and refuses IDs of other classes', async () => {
    const forbidden = await query(`{ key(id: "gid://gitlab/Key/1") { id } }`, {}, maintainer);
    expect(forbidden.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
    const wrongClass = await query(`{ key(id: "gid://gitlab/User/1") { id } }`);
    expect(wrongClass.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'id' });
    expect(restCalls(harness.simulator)).toEqual(['GET /keys/1']);
  });
});
