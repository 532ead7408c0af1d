// Lists that hang off a user in GitLab's dialect: UserCore.starredProjects read the way GitLab's
// frontend reads a user's starred projects, validated against the schema and run over real HTTP
// against the gateway and the embedded v4 server, checked against REST's list.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const { developer } = DEMO_TOKENS;
const schema = createExecutableSchema();

const USER_STARRED_PROJECTS = `
fragment StarredProject on Project {
  id
  name
  fullPath
}

query getUserStarredProjects($search: String, $first: Int, $after: String) {
  currentUser {
    id
    starredProjects(search: $search, first: $first, after: $after) {
      nodes { ...StarredProject }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

interface RestProject {
  id: number;
  name: string;
  path_with_namespace: string;
}
type StarredResult = { currentUser: { starredProjects: { nodes: Array<{ id: string; name: string; fullPath: string }>; pageInfo: { hasNextPage: boolean; endCursor: string | null } } } };

describe('user list documents in GitLab\'s style', () => {
  it('getUserStarredProjects validates against the schema', () => {
    expect(validate(schema, parse(USER_STARRED_PROJECTS))).toEqual([]);
  });
});

describe('a user\'s starred projects over real HTTP', () => {
  const harness = gatewayOverSimulator();

  it('lists them as REST does, in one REST page per window', async () => {
    const user = harness.simulator.state.findUserByUsername('developer')!;
    const result = await harness.gateway.query<StarredResult>(USER_STARRED_PROJECTS, { first: 20 }, developer);
    expect(result.errors).toBeUndefined();
    expect(restCalls(harness.simulator).filter((call) => call.includes('/starred_projects'))).toEqual([`GET /users/${user.id}/starred_projects`]);
    const rest = await harness.oracle.all<RestProject>(`/users/${user.id}/starred_projects`, developer);
    expect(rest.length).toBeGreaterThan(0);
    expect(result.data!.currentUser.starredProjects.nodes).toEqual(rest.map((project) => ({ id: `gid://gitlab/Project/${project.id}`, name: project.name, fullPath: project.path_with_namespace })));
    expect(result.data!.currentUser.starredProjects.pageInfo.hasNextPage).toBe(false);
  });

  it('passes the search on to REST', async () => {
    const user = harness.simulator.state.findUserByUsername('developer')!;
    const star = harness.simulator.state.stars.find((candidate) => candidate.userId === user.id)!;
    const project = harness.simulator.state.projects.get(star.projectId)!;
    const result = await harness.gateway.query<StarredResult>(USER_STARRED_PROJECTS, { search: project.name }, developer);
    expect(result.data!.currentUser.starredProjects.nodes.map((node) => node.name)).toContain(project.name);
    const rest = await harness.oracle.all<RestProject>(`/users/${user.id}/starred_projects?search=${encodeURIComponent(project.name)}`, developer);
    expect(result.data!.currentUser.starredProjects.nodes.map((node) => node.id)).toEqual(rest.map((item) => `gid://gitlab/Project/${item.id}`));
  });
});
