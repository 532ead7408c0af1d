import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS, USER_IDS } from '../../simulator/index.js';
import { buildSchemaFromFiles } from '../../src/schema/sdl.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const schema = buildSchemaFromFiles();
const { admin, developer } = DEMO_TOKENS;

/** The user picker of an issue board, as GitLab's frontend searches users. */
const USERS_SEARCH = /* GraphQL */ `
  query usersSearch($search: String!) {
    users(search: $search) {
      nodes {
        username
        name
        webUrl
        avatarUrl
        id
      }
    }
  }
`;

const USER_LIST = /* GraphQL */ `
  fragment UserRow on UserCore {
    id
    username
    name
    state
    webPath
  }
  query getUserList($search: String, $active: Boolean, $admins: Boolean, $first: Int, $after: String) {
    users(search: $search, active: $active, admins: $admins, first: $first, after: $after) {
      count
      nodes {
        ...UserRow
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

const USERS_BY_NAME = /* GraphQL */ `
  query getUsersByName($usernames: [String!], $ids: [ID!], $active: Boolean, $search: String, $first: Int) {
    users(usernames: $usernames, ids: $ids, active: $active, search: $search, first: $first) {
      nodes {
        id
        username
        state
      }
    }
  }
`;

/** One user, as GitLab's user popovers and profile pages look one up. */
const USER_LOOKUP = /* GraphQL */ `
  query getUser($id: UserID, $username: String) {
    user(id: $id, username: $username) {
      id
      username
      name
      webPath
      avatarUrl
    }
  }
`;

/** The tab counts of the "your work" projects page, as GitLab's frontend asks for them. */
const PROJECT_COUNTS = /* GraphQL */ `
  query getProjectCounts {
    currentUser {
      id
      contributed: contributedProjects {
        count
      }
      starred: starredProjects {
        count
      }
    }
    personal: projects(personal: true) {
      count
    }
    member: projects(membership: true) {
      count
    }
    inactive: projects(archived: ONLY, membership: true) {
      count
    }
  }
`;

const CONTRIBUTED_PROJECTS = /* GraphQL */ `
  query getContributedProjects($username: String!, $first: Int, $after: String) {
    user(username: $username) {
      id
      contributedProjects(first: $first, after: $after) {
        nodes {
          id
          fullPath
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`;

interface RestUser {
  id: number;
  username: string;
  name: string;
  state: string;
  avatar_url: string | null;
  web_url: string;
}

interface UserRow {
  id: string;
  username: string;
  name: string;
  state: string;
  webPath: string;
}

interface UserListPage {
  users: { count: number | null; nodes: UserRow[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
}

const userGid = (id: number) => `gid://gitlab/User/${id}`;
const rowOf = (user: RestUser): UserRow => ({
  id: userGid(user.id),
  username: user.username,
  name: user.name,
  state: user.state,
  webPath: new URL(user.web_url).pathname,
});

describe("the users query in GitLab's dialect", () => {
  it.each([
    ['users search', USERS_SEARCH],
    ['user list', USER_LIST],
    ['users by name', USERS_BY_NAME],
    ['user lookup', USER_LOOKUP],
    ['project counts', PROJECT_COUNTS],
    ['contributed projects', CONTRIBUTED_PROJECTS],
  ])('the %s document validates against the schema', (_name, document) => {
    expect(validate(schema, parse(document))).toEqual([]);
  });

  describe('over real HTTP', () => {
    const harness = gatewayOverSimulator();

    it('searches users as REST does, in one REST call', async () => {
      const result = await harness.gateway.query<{ users: { nodes: Array<{ username: string; name: string; webUrl: string; avatarUrl: string | null; id: string }> } }>(USERS_SEARCH, { search: 'a' }, developer);
      expect(result.errors).toBeUndefined();
      expect(restCalls(harness.simulator)).toEqual(['GET /users']);
      const rest = await harness.oracle.all<RestUser>('/users?search=a', developer);
      expect(rest.length).toBeGreaterThan(1);
      expect(result.data!.users.nodes).toEqual(
        rest.slice(0, 20).map((user) => ({ username: user.username, name: user.name, webUrl: user.web_url, avatarUrl: user.avatar_url, id: userGid(user.id) })),
      );
    });

    it('pages through every user newest first, one REST call a page', async () => {
      const rest = await harness.oracle.all<RestUser>('/users', developer);
      const seen: UserRow[] = [];
      let after: string | null = null;
      for (let page = 0; page < 10; page++) {
        harness.simulator.resetRequests();
        const result: { data?: UserListPage | null; errors?: unknown } = await harness.gateway.query<UserListPage>(USER_LIST, { first: 5, after }, developer);
        expect(result.errors).toBeUndefined();
        expect(result.data!.users.count).toBe(rest.length);
        expect(restCalls(harness.simulator)).toEqual(['GET /users']);
        seen.push(...result.data!.users.nodes);
        if (!result.data!.users.pageInfo.hasNextPage) break;
        after = result.data!.users.pageInfo.endCursor;
      }
      expect(seen).toEqual(rest.map(rowOf));
    });

    it.each([
      ['active users', { active: true }, '/users?active=true', developer],
      ['the administrators, to an administrator', { admins: true }, '/users?admins=true', admin],
      ['every user when someone else asks for the administrators, as REST and GitLab do', { admins: true }, '/users', developer],
    ])('lists %s as REST does', async (_name, variables, restPath, token) => {
      const result = await harness.gateway.query<UserListPage>(USER_LIST, { ...variables, first: 100 }, token);
      expect(result.errors).toBeUndefined();
      const rest = await harness.oracle.all<RestUser>(restPath, token);
      expect(result.data!.users.nodes).toEqual(rest.map(rowOf));
    });

    it('finds users by username, any case, one REST call each, leaving out names REST does not know', async () => {
      const result = await harness.gateway.query<{ users: { nodes: Array<{ id: string; username: string; state: string }> } }>(
        USERS_BY_NAME,
        { usernames: ['alice', 'DEVELOPER', 'nobody-by-that-name', 'heidi'] },
        developer,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data!.users.nodes.map((user) => user.id)).toEqual([USER_IDS.heidi, USER_IDS.alice, USER_IDS.developer].map(userGid));
      expect(restCalls(harness.simulator)).toEqual(Array(4).fill('GET /users'));
    });

    it('lets anonymous callers name users by username, as REST does', async () => {
      const result = await harness.gateway.query<{ users: { nodes: Array<{ username: string }> } }>(USERS_BY_NAME, { usernames: ['bob'] });
      expect(result.errors).toBeUndefined();
      expect(result.data!.users.nodes.map((user) => user.username)).toEqual(['bob']);
    });

    it('refuses anonymous callers the list, as REST does', async () => {
      const result = await harness.gateway.query(USERS_SEARCH, { search: 'bob' });
      expect(result.errors?.[0]?.extensions?.['code']).toBe('FORBIDDEN');
    });

    it('reads users named by id through the user loader, newest first, keeping the active ones when asked', async () => {
      const ids = [USER_IDS.bob, USER_IDS.heidi, 999, USER_IDS.root].map(userGid);
      const result = await harness.gateway.query<{ users: { nodes: Array<{ id: string; username: string; state: string }> } }>(USERS_BY_NAME, { ids, active: true }, developer);
      expect(result.errors).toBeUndefined();
      const expected = [];
      for (const id of [USER_IDS.heidi, USER_IDS.bob, USER_IDS.root]) {
        const user = await harness.oracle.get<RestUser>(`/users/${id}`, developer);
        if (user.state === 'active') expected.push({ id: userGid(user.id), username: user.username, state: user.state });
      }
      expect(result.data!.users.nodes).toEqual(expected);
      expect(expected.map((user) => user.username)).not.toContain('heidi');
      expect(restCalls(harness.simulator).sort()).toEqual([USER_IDS.bob, USER_IDS.heidi, 999, USER_IDS.root].map((id) => `GET /users/${id}`).sort());
    });

    it("counts the caller's project tabs as REST's lists total them, one REST call each", async () => {
      const result = await harness.gateway.query<{ currentUser: { id: string; contributed: { count: number }; starred: { count: number } }; personal: { count: number }; member: { count: number }; inactive: { count: number } }>(PROJECT_COUNTS, {}, DEMO_TOKENS.maintainer);
      expect(result.errors).toBeUndefined();
      const me = await harness.oracle.get<RestUser>('/user', DEMO_TOKENS.maintainer);
      const total = async (path: string) => (await harness.oracle.all(path, DEMO_TOKENS.maintainer)).length;
      expect(result.data).toEqual({
        currentUser: {
          id: userGid(me.id),
          contributed: { count: await total(`/users/${me.id}/contributed_projects`) },
          starred: { count: await total(`/users/${me.id}/starred_projects`) },
        },
        personal: { count: await total(`/users/${me.id}/projects`) },
        member: { count: await total('/projects?membership=true') },
        inactive: { count: await total('/projects?archived=true&membership=true') },
      });
      expect(result.data!.currentUser.contributed.count).toBeGreaterThan(0);
      expect(restCalls(harness.simulator).sort()).toEqual(
        ['GET /user', `GET /users/${me.id}/contributed_projects`, `GET /users/${me.id}/starred_projects`, `GET /users/${me.id}/projects`, 'GET /projects', 'GET /projects'].sort(),
      );
    });

    it("pages through a user's contributed projects, most recently active first, as REST lists them", async () => {
      const rest = await harness.oracle.all<{ id: number; path_with_namespace: string }>(`/users/${USER_IDS.developer}/contributed_projects?order_by=last_activity_at&sort=desc`, developer);
      expect(rest.length).toBeGreaterThan(1);
      const seen: Array<{ id: string; fullPath: string }> = [];
      let after: string | null = null;
      for (let page = 0; page < 20; page++) {
        const result: { data?: { user: { contributedProjects: { nodes: Array<{ id: string; fullPath: string }>; pageInfo: { hasNextPage: boolean; endCursor: string | null } } } } | null; errors?: unknown } = await harness.gateway.query(
          CONTRIBUTED_PROJECTS,
          { username: 'developer', first: 2, after },
          developer,
        );
        expect(result.errors).toBeUndefined();
        const { nodes, pageInfo } = result.data!.user.contributedProjects;
        seen.push(...nodes);
        if (!pageInfo.hasNextPage) break;
        after = pageInfo.endCursor;
      }
      expect(seen).toEqual(rest.map((project) => ({ id: `gid://gitlab/Project/${project.id}`, fullPath: project.path_with_namespace })));
    });

    it.each([
      ['by global ID', { id: userGid(USER_IDS.carol) }, `GET /users/${USER_IDS.carol}`],
      ['by username, any case', { username: 'CAROL' }, 'GET /users'],
    ])('looks one user up %s in one REST call', async (_how, variables, call) => {
      const result = await harness.gateway.query<{ user: Record<string, unknown> | null }>(USER_LOOKUP, variables);
      expect(result.errors).toBeUndefined();
      expect(restCalls(harness.simulator)).toEqual([call]);
      const rest = await harness.oracle.get<RestUser>(`/users/${USER_IDS.carol}`);
      expect(result.data!.user).toEqual({ id: userGid(rest.id), username: rest.username, name: rest.name, webPath: new URL(rest.web_url).pathname, avatarUrl: rest.avatar_url });
    });

    it.each([
      ['an unknown ID', { id: userGid(999) }],
      ['an unknown username', { username: 'nobody-by-that-name' }],
    ])('answers null for %s', async (_name, variables) => {
      const result = await harness.gateway.query<{ user: unknown }>(USER_LOOKUP, variables, developer);
      expect(result.errors).toBeUndefined();
      expect(result.data!.user).toBeNull();
    });

    it.each([
      ['both an ID and a username', { id: userGid(USER_IDS.bob), username: 'bob' }],
      ['neither an ID nor a username', {}],
      ['an empty username', { username: ' ' }],
    ])('refuses a user lookup by %s before any REST call', async (_name, variables) => {
      const result = await harness.gateway.query(USER_LOOKUP, variables, developer);
      expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
      expect(restCalls(harness.simulator)).toEqual([]);
    });

    it.each([
      ['both usernames and ids', USERS_BY_NAME, { usernames: ['bob'], ids: [userGid(USER_IDS.bob)] }],
      ['ids beside a search', USERS_BY_NAME, { ids: [userGid(USER_IDS.bob)], search: 'bob' }],
      ['an ID of another class', USERS_BY_NAME, { ids: ['gid://gitlab/Project/1'] }],
      ['users that are not active', USER_LIST, { active: false }],
      ['an empty search', USER_LIST, { search: ' ' }],
      ['more than 100 usernames', USERS_BY_NAME, { usernames: Array.from({ length: 101 }, (_, index) => `user${index}`) }],
      ['a page of more than 100', USERS_BY_NAME, { usernames: ['bob'], first: 101 }],
    ])('refuses %s before any REST call', async (_name, document, variables) => {
      const result = await harness.gateway.query(document, variables, admin);
      expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
      expect(restCalls(harness.simulator)).toEqual([]);
    });
  });
});
