import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DASHBOARD_QUERY, DASHBOARD_VARIABLES, type DashboardData } from '../../bench/scenarios/dashboard.js';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';
import { restTimeline } from '../support/rest-timeline.js';

// `group(fullPath:)` and `project(fullPath:)` send the lists their selection asks for alongside their
// own record, addressed by the same path (src/resolvers/lookahead.ts). What must hold: the same REST
// calls as before, one for one (only the list's path changes, from the parent's id to its full
// path), the same data and the same errors; and the list starts in the parent's REST wave. Waves are
// read from the order in which the gateway sent calls and received answers, never from timings.
const { admin } = DEMO_TOKENS;
const GROUP = 'gitlab-org';
const PROJECT = 'gitlab-org/gitlab';
const PROJECT_PATH = encodeURIComponent(PROJECT);

interface Connection<T> {
  count: number | null;
  nodes: T[];
}

describe.each([
  ['batching on', true],
  ['batching off', false],
])('lookahead of path-addressed lists, %s', (_label, batching) => {
  const timeline = restTimeline();
  const harness = gatewayOverSimulator({ batching, dispatcher: timeline.dispatcher, limits: { maxRestCalls: 1_000 } });
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(() => {
    process.on('unhandledRejection', onUnhandled);
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await timeline.close();
  });
  beforeEach(() => {
    timeline.reset();
    unhandled.length = 0;
  });

  const query = <T>(text: string, variables: Record<string, unknown> = {}) => harness.gateway.query<T>(text, variables, admin);
  /** The REST query (paging included) of each call to `path`, in arrival order. */
  const restQueryOf = (path: string) => harness.simulator.requests.filter((request) => request.path === path).map((request) => request.query);

  it('sends the dashboard\'s group record and subgroup list in one wave, and makes the same 14 REST calls', async () => {
    const result = await query<DashboardData>(DASHBOARD_QUERY, DASHBOARD_VARIABLES);
    expect(result.errors).toBeUndefined();
    const calls = restCalls(harness.simulator);
    // 2 + one project page per subgroup + two lists per project, on the demo data.
    expect(calls).toHaveLength(14);
    expect(new Set(calls).size).toBe(14);
    expect(calls).toContain(`GET /groups/${GROUP}`);
    expect(calls).toContain(`GET /groups/${GROUP}/subgroups`);
    expect(calls.filter((call) => /^GET \/groups\/\d+\/subgroups$/.test(call))).toEqual([]);
    expect(timeline.sentBeforeAnswered(`GET /groups/${GROUP}/subgroups`, `GET /groups/${GROUP}`)).toBe(1);
    expect(restQueryOf(`/groups/${GROUP}/subgroups`)).toEqual([{ per_page: '20', page: '1' }]);

    const subgroups = await harness.oracle.all<{ full_path: string }>(`/groups/${GROUP}/subgroups`, admin);
    expect(result.data!.group.subgroups.nodes.map((node) => node.fullPath)).toEqual(subgroups.map((group) => group.full_path));
  });

  it('sends project(fullPath:) { issues } in one wave, with the REST query the field always had', async () => {
    const result = await query<{ project: { name: string; issues: Connection<{ iid: string }> } }>(
      `{ project(fullPath: "${PROJECT}") { name issues(first: 5, state: opened) { count nodes { iid } } } }`,
    );
    expect(result.errors).toBeUndefined();
    expect(restCalls(harness.simulator).sort()).toEqual([`GET /projects/${PROJECT_PATH}`, `GET /projects/${PROJECT_PATH}/issues`]);
    expect(restQueryOf(`/projects/${PROJECT_PATH}/issues`)).toEqual([{ state: 'opened', per_page: '5', page: '1' }]);
    expect(timeline.sentBeforeAnswered(`GET /projects/${PROJECT_PATH}/issues`, `GET /projects/${PROJECT_PATH}`)).toBe(1);

    const expected = await harness.oracle.call<Array<{ iid: number }>>('GET', `/projects/${PROJECT_PATH}/issues?state=opened&per_page=5&page=1`, admin);
    expect(result.data!.project.issues.nodes.map((node) => Number(node.iid))).toEqual(expected.body.map((issue) => issue.iid));
    expect(result.data!.project.issues.count).toBe(Number(expected.headers.get('x-total')));
  });

  it('sends each alias with its own arguments, and each takes its own page', async () => {
    const result = await query<{ group: Record<'a' | 'b' | 'c' | 'd', Connection<{ fullPath: string }>> }>(
      `{ group(fullPath: "${GROUP}") {
          a: subgroups(first: 1) { nodes { fullPath } }
          b: subgroups(first: 2, orderBy: PATH, sort: DESC) { nodes { fullPath } }
          c: subgroups(last: 1) { nodes { fullPath } }
          d: subgroups(first: 1) { count nodes { fullPath } }
        } }`,
    );
    expect(result.errors).toBeUndefined();
    const lists = `/groups/${GROUP}/subgroups`;
    // One call per alias, as before: the two identical ones each have their own.
    expect(restCalls(harness.simulator).sort()).toEqual([`GET /groups/${GROUP}`, ...Array<string>(4).fill(`GET ${lists}`)]);
    const queries = restQueryOf(lists);
    expect(queries).toHaveLength(4);
    expect(queries).toEqual(
      expect.arrayContaining([
        { per_page: '1', page: '1' },
        { order_by: 'path', sort: 'desc', per_page: '2', page: '1' },
        { per_page: '100', page: '1' },
      ]),
    );
    expect(timeline.sentBeforeAnswered(`GET ${lists}`, `GET /groups/${GROUP}`)).toBe(4);

    const all = (await harness.oracle.all<{ full_path: string }>(lists, admin)).map((group) => group.full_path);
    const byPathDesc = (await harness.oracle.all<{ full_path: string }>(`${lists}?order_by=path&sort=desc`, admin)).map((group) => group.full_path);
    const { a, b, c, d } = result.data!.group;
    expect(a.nodes.map((node) => node.fullPath)).toEqual(all.slice(0, 1));
    expect(b.nodes.map((node) => node.fullPath)).toEqual(byPathDesc.slice(0, 2));
    expect(c.nodes.map((node) => node.fullPath)).toEqual(all.slice(-1));
    expect(d).toEqual({ count: all.length, nodes: a.nodes });
  });

  it.each([
    [{ skipIssues: true, withRunners: false }, []],
    [{ skipIssues: false, withRunners: false }, ['issues']],
    [{ skipIssues: true, withRunners: true }, ['runners']],
    [{ skipIssues: false, withRunners: true }, ['issues', 'runners']],
  ])('sends no list that @skip or @include leaves out (%o)', async (variables, lists) => {
    const result = await query<{ project: { name: string } }>(
      `query($skipIssues: Boolean!, $withRunners: Boolean!) { project(fullPath: "${PROJECT}") {
          name
          issues(first: 2) @skip(if: $skipIssues) { count }
          runners(first: 2) @include(if: $withRunners) { count }
        } }`,
      variables,
    );
    expect(result.errors).toBeUndefined();
    expect(restCalls(harness.simulator).sort()).toEqual([`GET /projects/${PROJECT_PATH}`, ...lists.map((list) => `GET /projects/${PROJECT_PATH}/${list}`)]);
    for (const list of lists) expect(timeline.sentBeforeAnswered(`GET /projects/${PROJECT_PATH}/${list}`, `GET /projects/${PROJECT_PATH}`)).toBe(1);
  });

  it('reads the lists of named and inline fragments, and merges a field they repeat into one call', async () => {
    const result = await query<{ group: { subgroups: Connection<{ fullPath: string }>; descendantGroups: { count: number } } }>(
      `query($n: Int!) { group(fullPath: "${GROUP}") {
          subgroups(first: $n) { count }
          ...Lists
          ... on Group { descendantGroups(first: $n) { count } }
        } }
        fragment Lists on Group { subgroups(first: $n) { nodes { fullPath } } }`,
      { n: 2 },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data!.group.subgroups.nodes).toHaveLength(2);
    expect(restCalls(harness.simulator).sort()).toEqual([`GET /groups/${GROUP}`, `GET /groups/${GROUP}/descendant_groups`, `GET /groups/${GROUP}/subgroups`]);
    expect(timeline.sentBeforeAnswered(`GET /groups/${GROUP}/subgroups`, `GET /groups/${GROUP}`)).toBe(1);
    expect(timeline.sentBeforeAnswered(`GET /groups/${GROUP}/descendant_groups`, `GET /groups/${GROUP}`)).toBe(1);
  });

  it('sends nothing early for arguments the field refuses, which it still refuses after its parent', async () => {
    const result = await query<{ group: { name: string } | null }>(`{ group(fullPath: "${GROUP}") { name subgroups(first: 101) { count } } }`);
    expect(result.errors?.[0]).toMatchObject({ path: ['group', 'subgroups'], extensions: { code: 'BAD_USER_INPUT', argumentName: 'first' } });
    expect(restCalls(harness.simulator)).toEqual([`GET /groups/${GROUP}`]);
  });

  it.each([
    ['group', `group(fullPath: "no-such-group") { name subgroups { nodes { id } } projects { count } }`, ['/groups/no-such-group', '/groups/no-such-group/projects', '/groups/no-such-group/subgroups']],
    ['project', `project(fullPath: "gitlab-org/no-such-project") { name issues { count } }`, ['/projects/gitlab-org%2Fno-such-project', '/projects/gitlab-org%2Fno-such-project/issues']],
  ])('answers a missing %s with null, as before, and leaves no rejection unhandled', async (field, selection, paths) => {
    const result = await query<Record<string, unknown>>(`{ ${selection} }`);
    expect(result).toEqual({ data: { [field]: null } });
    // The lists went out with the record, before REST said it was missing: they cost their calls.
    expect(restCalls(harness.simulator).sort()).toEqual(paths.map((path) => `GET ${path}`));
    await timeline.settled();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(unhandled).toEqual([]);
  });

  it('reports a list that REST refuses as the field always did', async () => {
    const fault = (path: string) => harness.simulator.faults.add({ method: 'GET', path, kind: 'status', status: 403, body: { message: '403 Forbidden' }, times: 1 });
    fault(`/groups/${GROUP}/subgroups`);
    const byPath = await query<{ group: { name: string } | null }>(`{ group(fullPath: "${GROUP}") { name subgroups { count } } }`);
    // The same group reached by id has no lookahead: its list goes by id, as before.
    const group = await harness.oracle.get<{ id: number }>(`/groups/${GROUP}`, admin);
    fault(`/groups/${group.id}/subgroups`);
    const byId = await query<{ node: { name: string } | null }>(`{ node(id: "gid://gitlab/Group/${group.id}") { ... on Group { name subgroups { count } } } }`);

    expect(byPath.errors).toHaveLength(1);
    expect(byPath.errors![0]!.path).toEqual(['group', 'subgroups']);
    expect(byId.errors![0]!.path).toEqual(['node', 'subgroups']);
    const { requestId: _a, ...extensionsByPath } = byPath.errors![0]!.extensions!;
    const { requestId: _b, ...extensionsById } = byId.errors![0]!.extensions!;
    expect(extensionsByPath).toEqual(extensionsById);
    expect(extensionsByPath).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
    expect(byPath.errors![0]!.message).toBe(byId.errors![0]!.message);
    expect(byPath.data).toEqual(byId.data === null ? null : { group: byId.data!.node });
    expect(unhandled).toEqual([]);
  });
});

describe('lookahead under an embedder\'s own resolver', () => {
  // An embedder may replace a gateway field's resolver (createGateway `extend`). Its resolver would
  // never take a page sent early, which would then be one REST call more: such a field gets none.
  const harness = gatewayOverSimulator({
    extend: {
      typeDefs: 'extend type Query { lookaheadProbe: Int }',
      resolvers: {
        Query: { lookaheadProbe: () => 1 },
        Group: { subgroups: () => ({ count: 0, nodes: [], edges: [], pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null } }) },
      },
    },
  });

  it('sends no list early for a field whose resolver is not the gateway\'s, and still does for the others', async () => {
    const result = await harness.gateway.query<{ group: { subgroups: { count: number }; descendantGroups: { count: number } } }>(
      `{ group(fullPath: "${GROUP}") { subgroups { count } descendantGroups { count } } }`,
      {},
      admin,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data!.group.subgroups.count).toBe(0);
    expect(restCalls(harness.simulator).sort()).toEqual([`GET /groups/${GROUP}`, `GET /groups/${GROUP}/descendant_groups`]);
  });
});
