import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { FIXTURES_DIR, readFixture, startStubUpstream } from '../support/stub-upstream.js';

/**
 * Every keys fixture of the REST documentation, served by a stub upstream, maps through the schema
 * without error, with its values where the schema says they go.
 */
type RestKey = Record<string, unknown> & {
  key: string;
  user: Record<string, unknown>;
  deploy_keys_projects?: Array<Record<string, unknown>>;
};
const fixture = (name: string) => readFixture(`keys/${name}.json`) as RestKey;

/** The key fields, with the user's (PREMIUM) minutes fields for the fixtures whose user has them. */
const keyFields = (premium: boolean) =>
  KEY_FIELDS.replace('PREMIUM', premium ? 'sharedRunnersMinutesLimit extraSharedRunnersMinutesLimit' : '');
const KEY_FIELDS = `id title key fingerprint fingerprintSha256 createdAt expiresAt lastUsedAt usageType
  user { id name username state avatarUrl webUrl createdAt bio location publicEmail linkedin twitter websiteUrl organization
         lastSignInAt confirmedAt lastActivityOn email themeId colorSchemeId projectsLimit currentSignInAt identities { provider externUid }
         canCreateGroup canCreateProject twoFactorEnabled external privateProfile PREMIUM }
  deployKeysProjects { id deployKeyId canPush createdAt updatedAt project { id } }`;

/** What ssh-keygen prints for the fixture's key, computed here independently of the gateway. */
function fingerprints(line: string) {
  const blob = Buffer.from(line.split(' ')[1]!, 'base64');
  return {
    fingerprint: createHash('md5').update(blob).digest('hex').match(/../g)!.join(':'),
    fingerprintSha256: `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`,
  };
}

function asNode(key: RestKey) {
  const user = key.user;
  return {
    id: `gid://gitlab/Key/${String(key['id'])}`,
    title: key['title'],
    key: key.key,
    ...fingerprints(key.key),
    createdAt: key['created_at'],
    expiresAt: key['expires_at'],
    lastUsedAt: key['last_used_at'],
    usageType: String(key['usage_type']).toUpperCase(),
    user: {
      id: `gid://gitlab/User/${String(user['id'])}`,
      name: user['name'],
      username: user['username'],
      state: user['state'],
      avatarUrl: user['avatar_url'],
      webUrl: user['web_url'],
      createdAt: user['created_at'],
      bio: user['bio'],
      location: user['location'],
      publicEmail: user['public_email'],
      linkedin: user['linkedin'],
      twitter: user['twitter'],
      websiteUrl: user['website_url'],
      organization: user['organization'],
      lastSignInAt: user['last_sign_in_at'],
      confirmedAt: user['confirmed_at'],
      lastActivityOn: user['last_activity_on'],
      email: user['email'],
      themeId: user['theme_id'],
      colorSchemeId: user['color_scheme_id'],
      projectsLimit: user['projects_limit'],
      currentSignInAt: user['current_sign_in_at'],
      identities: [],
      canCreateGroup: user['can_create_group'],
      canCreateProject: user['can_create_project'],
      twoFactorEnabled: user['two_factor_enabled'],
      external: user['external'],
      privateProfile: user['private_profile'],
      ...('shared_runners_minutes_limit' in user
        ? {
            sharedRunnersMinutesLimit: user['shared_runners_minutes_limit'],
            extraSharedRunnersMinutesLimit: user['extra_shared_runners_minutes_limit'],
          }
        : {}),
    },
    deployKeysProjects:
      key.deploy_keys_projects?.map((link) => ({
        id: `gid://gitlab/DeployKeysProject/${String(link['id'])}`,
        deployKeyId: `gid://gitlab/Key/${String(link['deploy_key_id'])}`,
        canPush: link['can_push'],
        createdAt: link['created_at'],
        updatedAt: link['updated_at'],
        project: { id: `gid://gitlab/Project/${String(link['project_id'])}` },
      })) ?? null,
  };
}

const SHA256 = 'SHA256:nUhzNyftwADy8AH3wFY31tAKs7HufskYTte2aXo/lCg';

describe('keys fixtures from the REST documentation', () => {
  let stub: Awaited<ReturnType<typeof startStubUpstream>>;
  let gateway: TestGateway;

  const CASES: Record<string, () => Promise<{ data?: unknown; errors?: unknown; expected: unknown }>> = {
    'get-key-by-id.json': async () => ({
      ...(await gateway.query(`{ key(id: "gid://gitlab/Key/1") { ${keyFields(false)} } }`, {}, 'glpat-contract')),
      expected: { key: asNode(fixture('get-key-by-id')) },
    }),
    'get-user-by-ssh-key-fingerprint.json': async () => {
      const result = await gateway.query(
        `query($fp: String!) { keyByFingerprint(fingerprint: $fp) { ${keyFields(true)} } }`,
        { fp: SHA256 },
        'glpat-contract',
      );
      // The REST documentation's example fingerprint, encoded as it asks: SHA256%3A...%2FlCg.
      expect(stub.requests.at(-1)?.rawUrl).toBe('/api/v4/keys?fingerprint=SHA256%3AnUhzNyftwADy8AH3wFY31tAKs7HufskYTte2aXo%2FlCg');
      return { ...result, expected: { keyByFingerprint: asNode(fixture('get-user-by-ssh-key-fingerprint')) } };
    },
    'get-user-by-deploy-key-fingerprint.json': async () => ({
      ...(await gateway.query(`{ keyByFingerprint(fingerprint: "${'ba:'.repeat(15)}ba") { ${keyFields(true)} } }`, {}, 'glpat-contract')),
      expected: { keyByFingerprint: asNode(fixture('get-user-by-deploy-key-fingerprint')) },
    }),
  };

  beforeAll(async () => {
    // One path answers both look-ups: the stub tells them apart by the fingerprint it was sent.
    stub = await startStubUpstream([
      { method: 'GET', path: '/keys/1', body: fixture('get-key-by-id') },
      {
        method: 'GET',
        path: '/keys',
        query: `fingerprint=${encodeURIComponent(SHA256)}`,
        body: fixture('get-user-by-ssh-key-fingerprint'),
      },
      { method: 'GET', path: '/keys', body: fixture('get-user-by-deploy-key-fingerprint') },
      { method: 'GET', path: '/projects/1', body: { id: 1, path_with_namespace: 'group/project', name: 'project', path: 'project' } },
    ]);
    gateway = await startTestGateway(stub.url);
  });

  afterAll(async () => {
    await gateway?.close();
    await stub?.close();
  });

  it('covers every file of fixtures/gitlab-docs/keys/', () => {
    const files = readdirSync(new URL('keys/', FIXTURES_DIR)).filter((name) => name.endsWith('.json'));
    expect(Object.keys(CASES).sort()).toEqual(files.sort());
  });

  it.each(Object.keys(CASES))('%s maps through the schema', async (name) => {
    const { data, errors, expected } = await CASES[name]!();
    expect(errors).toBeUndefined();
    expect(data).toEqual(expected);
  });
});
