import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { buildSchemaFromFiles } from '../../src/schema/sdl.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const schema = buildSchemaFromFiles();
const { admin, developer, outsider } = DEMO_TOKENS;

/** A project list page as GitLab's frontend asks for it: a fragment per row, GitLab's variables. */
const PROJECT_LIST_PAGE = /* GraphQL */ `
  fragment ProjectListRow on Project {
    id
    name
    nameWithNamespace
    fullPath
    webUrl
    topics
    starCount
    archived
  }
  query getProjectList(
    $search: String
    $membership: Boolean
    $searchNamespaces: Boolean
    $sort: String
    $topics: [String!]
    $first: Int
    $after: String
  ) {
    projects(search: $search, membership: $membership, searchNamespaces: $searchNamespaces, sort: $sort, topics: $topics, first: $first, after: $after) {
      count
      nodes {
        ...ProjectListRow
      }
      pageInfo {
        hasNextPage
        hasPreviousPage
        endCursor
        startCursor
      }
    }
  }
`;

const PROJECTS_BY_IDS = /* GraphQL */ `
  query getProjectsByIds($ids: [ID!], $search: String) {
    projects(ids: $ids, search: $search, first: 20) {
      nodes {
        id
        fullPath
        visibility
      }
    }
  }
`;

const GROUP_PROJECTS_BY_IDS = /* GraphQL */ `
  query getGroupProjectsByIds($fullPath: ID!, $ids: [ID!], $includeSubgroups: Boolean) {
    group(fullPath: $fullPath) {
      id
      projects(ids: $ids, includeSubgroups: $includeSubgroups, first: 20) {
        nodes {
          id
          fullPath
        }
      }
    }
  }
`;

interface RestProject {
  id: number;
  name: string;
  name_with_namespace: string;
  path_with_namespace: string;
  web_url: string;
  topics: string[];
  star_count: number;
  archived?: boolean;
}

interface ProjectRow {
  id: string;
  name: string;
  nameWithNamespace: string;
  fullPath: string;
  webUrl: string;
  topics: string[];
  starCount: number;
  archived: boolean;
}

interface ListPage {
  projects: {
    count: number | null;
    nodes: ProjectRow[];
    pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string | null; startCursor: string | null };
  };
}

const rowOf = (project: RestProject) => ({
  id: `gid://gitlab/Project/${project.id}`,
  name: project.name,
  nameWithNamespace: project.name_with_namespace,
  fullPath: project.path_with_namespace,
  webUrl: project.web_url,
  topics: project.topics,
  starCount: project.star_count,
  archived: project.archived ?? false,
});

const projectGid = (id: number) => `gid://gitlab/Project/${id}`;

describe("a project list page in GitLab's dialect", () => {
  it.each([
    ['project list page', PROJECT_LIST_PAGE],
    ['projects by ids', PROJECTS_BY_IDS],
    ["a group's projects by ids", GROUP_PROJECTS_BY_IDS],
  ])('the %s document validates against the schema', (_name, document) => {
    expect(validate(schema, parse(document))).toEqual([]);
  });

  describe('over real HTTP', () => {
    const harness = gatewayOverSimulator({ limits: { maxRestCalls: 250_000 } });
    const listCalls = () => restCalls(harness.simulator).filter((call) => call.startsWith('GET /projects'));

    it("pages through the caller's projects by name as REST lists them, one REST call a page and none per project", async () => {
      const rest = await harness.oracle.all<RestProject>('/projects?membership=true&order_by=name&sort=asc', developer);
      const seen: ProjectRow[] = [];
      let after: string | null = null;
      for (let page = 0; page < 10; page++) {
        harness.simulator.resetRequests();
        const result: { data?: ListPage | null; errors?: unknown } = await harness.gateway.query<ListPage>(PROJECT_LIST_PAGE, { membership: true, sort: 'name_asc', first: 12, after }, developer);
        expect(result.errors).toBeUndefined();
        const { count, nodes, pageInfo } = result.data!.projects;
        expect(count).toBe(rest.length);
        expect(pageInfo.hasPreviousPage).toBe(page > 0);
        expect(listCalls()).toEqual(['GET /projects']);
        seen.push(...nodes);
        if (!pageInfo.hasNextPage) break;
        after = pageInfo.endCursor;
      }
      expect(seen).toEqual(rest.map(rowOf));
    });

    it.each([
      ['a search, ordered by similarity when no sort is given', { search: 'git' }, '/projects?search=git&order_by=similarity&sort=desc'],
      ['a search of full paths with searchNamespaces', { search: 'opensource', searchNamespaces: true, sort: 'id_asc' }, '/projects?search=opensource&search_namespaces=true&order_by=id&sort=asc'],
      ['every topic named', { topics: ['go', 'ci'] }, '/projects?topic=go,ci&order_by=id&sort=desc'],
      ['the latest activity first', { sort: 'latest_activity_desc' }, '/projects?order_by=last_activity_at&sort=desc'],
      ['the most stars first', { sort: 'stars_desc' }, '/projects?order_by=star_count&sort=desc'],
    ])('lists %s as REST does', async (_name, variables, restPath) => {
      const result = await harness.gateway.query<ListPage>(PROJECT_LIST_PAGE, { ...variables, first: 100 }, developer);
      expect(result.errors).toBeUndefined();
      const rest = await harness.oracle.all<RestProject>(restPath, developer);
      expect(result.data!.projects.nodes).toEqual(rest.map(rowOf));
      expect(result.data!.projects.count).toBe(rest.length);
    });

    it('shows anonymous callers the public projects, newest first by id', async () => {
      const result = await harness.gateway.query<ListPage>(PROJECT_LIST_PAGE, { first: 100 });
      expect(result.errors).toBeUndefined();
      const rest = await harness.oracle.all<RestProject>('/projects?order_by=id&sort=desc');
      expect(result.data!.projects.nodes.map((node) => node.fullPath)).toEqual(rest.map((project) => project.path_with_namespace));
    });

    it('reads projects named by ids one by one, newest first, leaving out those the caller may not see', async () => {
      // 5 is private to gitlab-org's members, 999 does not exist.
      const ids = [1, 5, 33, 999, 23].map(projectGid);
      const result = await harness.gateway.query<{ projects: { nodes: Array<{ id: string; fullPath: string; visibility: string }> } }>(PROJECTS_BY_IDS, { ids }, outsider);
      expect(result.errors).toBeUndefined();
      const expected = [];
      for (const id of [33, 23, 5, 1]) {
        const read = await harness.oracle.call<RestProject & { visibility: string }>('GET', `/projects/${id}`, outsider);
        if (read.status === 200) expected.push({ id: projectGid(id), fullPath: read.body.path_with_namespace, visibility: read.body.visibility });
      }
      expect(result.data!.projects.nodes).toEqual(expected);
      expect(expected.map((project) => project.id)).not.toContain(projectGid(5));
      expect(listCalls().sort()).toEqual(['1', '23', '33', '5', '999'].map((id) => `GET /projects/${id}`).sort());
    });

    it.each([
      ['ids beside a filter', PROJECTS_BY_IDS, { ids: [projectGid(1)], search: 'git' }],
      ['an ID of another class', PROJECTS_BY_IDS, { ids: ['gid://gitlab/Group/1'] }],
      ['a sort REST has no order for', PROJECT_LIST_PAGE, { sort: 'storage_size_desc' }],
      ['an empty search', PROJECT_LIST_PAGE, { search: '  ' }],
      ['a topic holding a comma', PROJECT_LIST_PAGE, { topics: ['a,b'] }],
    ])('refuses %s before any REST call', async (_name, document, variables) => {
      const result = await harness.gateway.query(document, variables, admin);
      expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
      expect(restCalls(harness.simulator)).toEqual([]);
    });

    it.each([
      [false, ['gitlab-org/gitlab-runner', 'gitlab-org/gitlab']],
      [true, ['gitlab-org/frontend/web-ui', 'gitlab-org/gitlab-runner', 'gitlab-org/gitlab']],
    ])("keeps a group's projects named by ids (includeSubgroups: %s) and no other group's", async (includeSubgroups, fullPaths) => {
      const ids = [1, 2, 6, 23].map(projectGid);
      const result = await harness.gateway.query<{ group: { projects: { nodes: Array<{ id: string; fullPath: string }> } } }>(GROUP_PROJECTS_BY_IDS, { fullPath: 'gitlab-org', ids, includeSubgroups }, developer);
      expect(result.errors).toBeUndefined();
      expect(result.data!.group.projects.nodes.map((node) => node.fullPath)).toEqual(fullPaths);
      // No group project list was asked for, not even by the lookahead.
      expect(restCalls(harness.simulator).filter((call) => call.includes('/groups/') && call.endsWith('/projects'))).toEqual([]);
    });
  });
});
