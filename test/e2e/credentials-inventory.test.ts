import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS, type Simulator } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

interface RestToken {
  id: number;
  name: string;
  scopes: string[];
  active: boolean;
  revoked: boolean;
  expires_at: string | null;
  user_id: number;
  access_level?: number;
  resource_type?: 'group' | 'project';
  resource_id?: number;
}
interface RestSshKey {
  id: number;
  title: string;
  usage_type: string;
  user_id: number;
}
interface RestUser {
  id: number;
  username: string;
}
interface Connection<T> {
  count: number | null;
  nodes: T[];
}
interface InventoryData {
  group: {
    fullPath: string;
    managedPersonalAccessTokens: Connection<{
      id: string;
      name: string;
      scopes: string[];
      active: boolean;
      expiresAt: string | null;
      user: { username: string };
    }> | null;
    managedSshKeys: Connection<{ id: string; title: string; usageType: string; user: { username: string } }> | null;
    managedResourceAccessTokens: Connection<{
      name: string;
      accessLevel: string;
      resourceType: string;
      group: { fullPath: string } | null;
      project: { fullPath: string } | null;
    }> | null;
  };
}
interface RotateData {
  managedPersonalAccessTokenRotate: {
    clientMutationId: string | null;
    errors: string[];
    token: string | null;
    personalAccessToken: { id: string; name: string; revoked: boolean; expiresAt: string } | null;
  } | null;
}

const { admin, maintainer, developer } = DEMO_TOKENS;
const GROUP = 'opensource';
const ROLE: Record<number, string> = { 10: 'GUEST', 20: 'REPORTER', 30: 'DEVELOPER', 40: 'MAINTAINER', 50: 'OWNER' };

const INVENTORY_QUERY = `query Inventory($path: ID!) { group(fullPath: $path) {
  fullPath
  managedPersonalAccessTokens { count nodes { id name scopes active expiresAt user { username } } }
  managedSshKeys { count nodes { id title usageType user { username } } }
  managedResourceAccessTokens(state: ACTIVE) { count nodes { name accessLevel resourceType group { fullPath } project { fullPath } } }
} }`;

const ROTATE = `mutation Rotate($input: ManagedPersonalAccessTokenRotateInput!) { managedPersonalAccessTokenRotate(input: $input) {
  clientMutationId errors token personalAccessToken { id name revoked expiresAt } } }`;

/** An active seeded token's value, by name: the enterprise users' tokens authenticate them. */
function tokenValue(simulator: Simulator, name: string): string {
  const token = [...simulator.state.tokens.values()].find((candidate) => candidate.name === name && !candidate.revoked);
  if (!token) throw new Error(`no active token named ${name}`);
  return token.token;
}

describe('the group credentials inventory over real HTTP', () => {
  const logged: string[] = [];
  const harness = gatewayOverSimulator({ logger: { error: (message) => logged.push(message) } });
  const query = <T>(text: string, variables: Record<string, unknown>, token?: string) => harness.gateway.query<T>(text, variables, token);

  describe('the three lists', () => {
    it("shows the group's Owner every list with users, groups and projects, each REST record fetched once", async () => {
      const group = await harness.oracle.get<{ id: number }>(`/groups/${GROUP}`);
      const tokens = await harness.oracle.all<RestToken>(`/groups/${group.id}/manage/personal_access_tokens`, maintainer);
      const keys = await harness.oracle.all<RestSshKey>(`/groups/${group.id}/manage/ssh_keys`, maintainer);
      const botTokens = await harness.oracle.all<RestToken>(`/groups/${group.id}/manage/resource_access_tokens?state=active`, maintainer);
      const userIds = [...new Set([...tokens, ...keys].map((record) => record.user_id))];
      const users = new Map<number, string>();
      for (const id of userIds) users.set(id, (await harness.oracle.get<RestUser>(`/users/${id}`)).username);
      const projectPaths = new Map<number, string>();
      for (const token of botTokens.filter((candidate) => candidate.resource_type === 'project')) {
        projectPaths.set(
          token.resource_id!,
          (await harness.oracle.get<{ path_with_namespace: string }>(`/projects/${token.resource_id}`)).path_with_namespace,
        );
      }

      const result = await query<InventoryData>(INVENTORY_QUERY, { path: GROUP }, maintainer);

      expect(result.errors).toBeUndefined();
      expect(result.data!.group.managedPersonalAccessTokens).toEqual({
        count: tokens.length,
        nodes: tokens.map((token) => ({
          id: `gid://gitlab/PersonalAccessToken/${token.id}`,
          name: token.name,
          scopes: token.scopes,
          active: token.active,
          expiresAt: token.expires_at,
          user: { username: users.get(token.user_id) },
        })),
      });
      expect(result.data!.group.managedSshKeys).toEqual({
        count: keys.length,
        nodes: keys.map((key) => ({
          id: `gid://gitlab/Key/${key.id}`,
          title: key.title,
          usageType: key.usage_type.toUpperCase(),
          user: { username: users.get(key.user_id) },
        })),
      });
      expect(result.data!.group.managedResourceAccessTokens).toEqual({
        count: botTokens.length,
        nodes: botTokens.map((token) => ({
          name: token.name,
          accessLevel: ROLE[token.access_level!],
          resourceType: token.resource_type!.toUpperCase(),
          group: token.resource_type === 'group' ? { fullPath: GROUP } : null,
          project: token.resource_type === 'project' ? { fullPath: projectPaths.get(token.resource_id!) } : null,
        })),
      });
      // One call per list (by the group's path, sent with its record), one per distinct user (tokens
      // and keys share them) and per project; the group token's group is the group already loaded by path.
      expect(restCalls(harness.simulator).sort()).toEqual(
        [
          `GET /groups/${GROUP}`,
          `GET /groups/${GROUP}/manage/personal_access_tokens`,
          `GET /groups/${GROUP}/manage/ssh_keys`,
          `GET /groups/${GROUP}/manage/resource_access_tokens`,
          ...userIds.map((id) => `GET /users/${id}`),
          ...[...projectPaths.keys()].map((id) => `GET /projects/${id}`),
        ].sort(),
      );
      // Token values are never in the lists.
      expect(JSON.stringify(result)).not.toMatch(/glpat-/);
    });

    it('passes every filter and the sort to REST, which answers as the oracle does', async () => {
      const filters =
        'created_after=2024-06-01T00%3A00%3A00Z&created_before=2025-05-01T00%3A00%3A00Z&last_used_after=2025-01-01T00%3A00%3A00Z&last_used_before=2025-06-01T00%3A00%3A00Z&expires_after=2025-06-01&expires_before=2026-12-31&revoked=false&state=active&search=e&sort=name_desc';
      const expected = await harness.oracle.all<RestToken>(`/groups/${GROUP}/manage/personal_access_tokens?${filters}`, maintainer);
      const result = await query<{ group: { managedPersonalAccessTokens: Connection<{ name: string }> } }>(
        `{ group(fullPath: "${GROUP}") { managedPersonalAccessTokens(createdAfter: "2024-06-01T00:00:00Z", createdBefore: "2025-05-01T00:00:00Z",
            lastUsedAfter: "2025-01-01T00:00:00Z", lastUsedBefore: "2025-06-01T00:00:00Z", expiresAfter: "2025-06-01", expiresBefore: "2026-12-31",
            revoked: false, state: ACTIVE, search: "e", sort: NAME_DESC) { nodes { name } } } }`,
        {},
        maintainer,
      );
      expect(result.errors).toBeUndefined();
      expect(expected.length).toBeGreaterThan(1);
      expect(result.data!.group.managedPersonalAccessTokens.nodes).toEqual(expected.map((token) => ({ name: token.name })));
      const listCall = harness.simulator.requests.find((request) => request.path.endsWith('/manage/personal_access_tokens'));
      expect(listCall?.query).toMatchObject({
        created_after: '2024-06-01T00:00:00Z',
        last_used_before: '2025-06-01T00:00:00Z',
        expires_after: '2025-06-01',
        revoked: 'false',
        state: 'active',
        search: 'e',
        sort: 'name_desc',
      });
    });

    it('pages the tokens as a connection: first/after over REST pages, with a total', async () => {
      const all = await harness.oracle.all<RestToken>(`/groups/${GROUP}/manage/personal_access_tokens`, maintainer);
      const page = `query($after: String) { group(fullPath: "${GROUP}") { managedPersonalAccessTokens(first: 4, after: $after) {
        count nodes { name } pageInfo { hasNextPage endCursor } } } }`;
      type Page = {
        group: { managedPersonalAccessTokens: Connection<{ name: string }> & { pageInfo: { hasNextPage: boolean; endCursor: string } } };
      };
      const first = await query<Page>(page, {}, maintainer);
      const second = await query<Page>(page, { after: first.data!.group.managedPersonalAccessTokens.pageInfo.endCursor }, maintainer);
      const names = [first, second].flatMap((result) => result.data!.group.managedPersonalAccessTokens.nodes.map((node) => node.name));
      expect(names).toEqual(all.map((token) => token.name));
      expect(first.data!.group.managedPersonalAccessTokens).toMatchObject({ count: all.length, pageInfo: { hasNextPage: true } });
      expect(second.data!.group.managedPersonalAccessTokens.pageInfo.hasNextPage).toBe(false);
    });

    it.each([
      ['a Maintainer (an enterprise user herself)', 'Workstation', 'FORBIDDEN', 403],
      ['a Developer', developer, 'FORBIDDEN', 403],
      ['an anonymous caller', undefined, 'UNAUTHENTICATED', 401],
    ])('costs %s the three fields, with the group still there', async (_who, credential, code, restStatus) => {
      const token = credential === 'Workstation' ? tokenValue(harness.simulator, credential) : credential;
      const result = await query<InventoryData>(INVENTORY_QUERY, { path: GROUP }, token);
      expect(result.data!.group).toEqual({
        fullPath: GROUP,
        managedPersonalAccessTokens: null,
        managedSshKeys: null,
        managedResourceAccessTokens: null,
      });
      expect(
        result.errors?.map((error) => [error.path?.join('.'), error.extensions?.['code'], error.extensions?.['restStatus']]).sort(),
      ).toEqual(
        ['managedPersonalAccessTokens', 'managedResourceAccessTokens', 'managedSshKeys'].map((field) => [
          `group.${field}`,
          code,
          restStatus,
        ]),
      );
      // The group, then one refused call per list: no user or project was looked up.
      expect(restCalls(harness.simulator)).toHaveLength(4);
    });

    it('lets administrators see it too', async () => {
      const result = await query<InventoryData>(INVENTORY_QUERY, { path: GROUP }, admin);
      expect(result.errors).toBeUndefined();
      expect(result.data!.group.managedSshKeys!.count).toBeGreaterThan(0);
    });

    it.each([
      ['a blank search', 'managedPersonalAccessTokens(search: "  ")', 'search'],
      [
        'a window that ends before it starts',
        'managedSshKeys(createdAfter: "2025-02-01T00:00:00Z", createdBefore: "2025-01-01T00:00:00Z")',
        'createdAfter',
      ],
      [
        'expiry bounds the wrong way round',
        'managedResourceAccessTokens(expiresAfter: "2026-01-01", expiresBefore: "2025-01-01")',
        'expiresAfter',
      ],
    ])('refuses %s before any call for the list', async (_case, field, argumentName) => {
      const result = await query<unknown>(`{ group(fullPath: "${GROUP}") { fullPath ${field} { count } } }`, {}, maintainer);
      expect(result.errors).toHaveLength(1);
      expect(result.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName });
      expect(restCalls(harness.simulator)).toEqual([`GET /groups/${GROUP}`]);
    });
  });

  describe('rotation', () => {
    it("rotates an enterprise user's token in one call: the new value comes back once, the old one stops working", async () => {
      const oldValue = tokenValue(harness.simulator, 'Workstation');
      const [before] = await harness.oracle.all<RestToken>(
        `/groups/${GROUP}/manage/personal_access_tokens?search=Workstation&revoked=false`,
        maintainer,
      );

      const result = await query<RotateData>(
        ROTATE,
        {
          input: {
            clientMutationId: 'rotate-1',
            groupPath: GROUP,
            id: `gid://gitlab/PersonalAccessToken/${before!.id}`,
            expiresAt: '2025-12-31',
          },
        },
        maintainer,
      );

      expect(result.errors).toBeUndefined();
      const payload = result.data!.managedPersonalAccessTokenRotate!;
      expect(restCalls(harness.simulator)).toEqual([`POST /groups/${GROUP}/manage/personal_access_tokens/${before!.id}/rotate`]);
      expect(payload).toMatchObject({
        clientMutationId: 'rotate-1',
        errors: [],
        personalAccessToken: { name: 'Workstation', revoked: false, expiresAt: '2025-12-31' },
      });
      expect(payload.token).toMatch(/^glpat-[A-Za-z0-9]{20}$/);
      expect(payload.personalAccessToken!.id).not.toBe(`gid://gitlab/PersonalAccessToken/${before!.id}`);

      // The new value is the user's credential now; the old one is refused, and no error repeats it.
      const withNew = await query<{ currentUser: { username: string } }>('{ currentUser { username } }', {}, payload.token!);
      expect(withNew.data!.currentUser.username).toBe('erin');
      const withOld = await query<unknown>('{ currentUser { username } }', {}, oldValue);
      expect(withOld.errors![0]!.extensions).toMatchObject({ code: 'UNAUTHENTICATED', restStatus: 401 });
      expect(JSON.stringify(withOld)).not.toContain(oldValue);

      // Rotating the old token again is an outcome, not an error.
      const again = await query<RotateData>(
        ROTATE,
        { input: { groupPath: GROUP, id: `gid://gitlab/PersonalAccessToken/${before!.id}` } },
        maintainer,
      );
      expect(again.errors).toBeUndefined();
      expect(again.data!.managedPersonalAccessTokenRotate).toEqual({
        clientMutationId: null,
        errors: ['Token already revoked'],
        token: null,
        personalAccessToken: null,
      });
      expect(logged.join('\n')).not.toMatch(/glpat-/);
    });

    it('rotates a project access token of the hierarchy, with its project', async () => {
      const [botToken] = await harness.oracle.all<RestToken>(
        `/groups/${GROUP}/manage/resource_access_tokens?search=Package&revoked=false`,
        maintainer,
      );
      const result = await query<{
        managedResourceAccessTokenRotate: {
          errors: string[];
          token: string;
          resourceAccessToken: { name: string; accessLevel: string; project: { id: string } };
        };
      }>(
        `mutation { managedResourceAccessTokenRotate(input: { groupPath: "${GROUP}", id: "gid://gitlab/PersonalAccessToken/${botToken!.id}" }) {
          errors token resourceAccessToken { name accessLevel project { id } } } }`,
        {},
        maintainer,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data!.managedResourceAccessTokenRotate).toMatchObject({
        errors: [],
        resourceAccessToken: {
          name: botToken!.name,
          accessLevel: ROLE[botToken!.access_level!],
          project: { id: `gid://gitlab/Project/${botToken!.resource_id}` },
        },
      });
      expect(result.data!.managedResourceAccessTokenRotate.token).toMatch(/^glpat-/);
      // The project's ID is in the token's record: asking only for it costs no call.
      expect(restCalls(harness.simulator)).toEqual([`POST /groups/${GROUP}/manage/resource_access_tokens/${botToken!.id}/rotate`]);
    });

    it('fails with FORBIDDEN below Owner, NOT_FOUND for an unknown token, and refuses a wrong ID with no call', async () => {
      const [token] = await harness.oracle.all<RestToken>(
        `/groups/${GROUP}/manage/personal_access_tokens?search=Release&revoked=false`,
        maintainer,
      );
      const input = { groupPath: GROUP, id: `gid://gitlab/PersonalAccessToken/${token!.id}` };
      // Frank is a Guest of the group, and an enterprise user of it.
      const asGuest = await query<RotateData>(ROTATE, { input }, tokenValue(harness.simulator, 'Issue triage script'));
      expect(asGuest.errors![0]!.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
      expect(asGuest.data!.managedPersonalAccessTokenRotate).toBeNull();
      const unknown = await query<RotateData>(ROTATE, { input: { ...input, id: 'gid://gitlab/PersonalAccessToken/999999' } }, maintainer);
      expect(unknown.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND', restStatus: 404 });
      expect(restCalls(harness.simulator)).toHaveLength(2);

      harness.simulator.resetRequests();
      const wrongClass = await query<RotateData>(ROTATE, { input: { ...input, id: `gid://gitlab/Key/${token!.id}` } }, maintainer);
      expect(wrongClass.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'id' });
      const badExpiry = await query<RotateData>(ROTATE, { input: { ...input, expiresAt: 'next week' } }, maintainer);
      expect(badExpiry.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
      expect(restCalls(harness.simulator)).toEqual([]);
      // None of it touched the token.
      expect(
        (await harness.oracle.all<RestToken>(`/groups/${GROUP}/manage/personal_access_tokens?search=Release`, maintainer))[0]!.revoked,
      ).toBe(false);
    });

    it("returns an expiry more than a year ahead as an outcome, with REST's reason", async () => {
      const [token] = await harness.oracle.all<RestToken>(
        `/groups/${GROUP}/manage/personal_access_tokens?search=Docs&revoked=false`,
        maintainer,
      );
      const result = await query<RotateData>(
        ROTATE,
        { input: { groupPath: GROUP, id: `gid://gitlab/PersonalAccessToken/${token!.id}`, expiresAt: '2030-01-01' } },
        maintainer,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data!.managedPersonalAccessTokenRotate!.errors).toEqual([
        expect.stringMatching(/^Expires at must be before \d{4}-\d{2}-\d{2}$/),
      ]);
      expect(result.data!.managedPersonalAccessTokenRotate!.token).toBeNull();
    });
  });
});
