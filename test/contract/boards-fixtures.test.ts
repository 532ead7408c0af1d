import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { FIXTURES_DIR, readFixture, startStubUpstream, type StubRoute } from '../support/stub-upstream.js';

/**
 * Every boards fixture of the REST documentation, served by a stub upstream, maps through the
 * schema without error, with its values where the schema says they go.
 */
const fixture = (name: string) => readFixture(`boards/${name}.json`) as Record<string, unknown>;

/** The project of the documentation's boards: `diaspora/diaspora-project-site`, id 5. */
const PROJECT = {
  id: 5,
  name: 'Diaspora Project Site',
  path: 'diaspora-project-site',
  path_with_namespace: 'diaspora/diaspora-project-site',
};
const PROJECT_ROUTE: StubRoute = { method: 'GET', path: '/projects/diaspora%2Fdiaspora-project-site', body: PROJECT };
const ON_PROJECT = (fields: string) => `{ project(fullPath: "diaspora/diaspora-project-site") { ${fields} } }`;
const INPUT = 'projectPath: "diaspora/diaspora-project-site"';
const BOARDS = '/projects/diaspora%2Fdiaspora-project-site/boards';

const LIST_FIELDS = 'id listType title label { title color description descriptionHtml } position maxIssueCount maxIssueWeight limitMetric assignee { id } milestone { id }';
const BOARD_FIELDS = `id name hideBacklogList hideClosedList webUrl project { id fullPath name nameWithNamespace path webUrl httpUrlToRepo } milestone { id title iid state dueDate startDate webUrl }
  assignee { id username } labels { nodes { id title color description } } weight lists { count nodes { ${LIST_FIELDS} } }`;
const TESTING = { title: 'Testing', color: '#F0AD4E', description: null };
/** The Open and Closed lists every board shows unless it hides them: REST's records (before GitLab 13.8) say nothing of hiding. */
const OPEN = (board: number) => ({ id: `gid://gitlab/List/backlog${board}`, listType: 'backlog', title: 'Open', label: null, position: null });
const CLOSED = (board: number) => ({ id: `gid://gitlab/List/closed${board}`, listType: 'closed', title: 'Closed', label: null, position: null });
/** A board record of the documentation's project, holding these lists. */
const boardWith = (lists: unknown[]) => ({ id: 1, name: 'project issue board', project: { ...PROJECT, web_url: 'http://example.com/diaspora/diaspora-project-site' }, lists });

interface FixtureCase {
  routes: StubRoute[];
  query: string;
  expected: unknown;
}

const CASES: Record<string, FixtureCase> = {
  'list-project-boards.json': {
    routes: [PROJECT_ROUTE, { method: 'GET', path: '/projects/diaspora%2Fdiaspora-project-site/boards', body: readFixture('boards/list-project-boards.json') }],
    query: ON_PROJECT(`boards { count nodes { ${BOARD_FIELDS} } }`),
    expected: {
      project: {
        boards: {
          count: 1,
          nodes: [
            {
              id: 'gid://gitlab/Board/1',
              name: 'board1',
              project: {
                id: 'gid://gitlab/Project/5',
                fullPath: 'diaspora/diaspora-project-site',
                httpUrlToRepo: 'http://example.com/diaspora/diaspora-project-site.git',
              },
              hideBacklogList: null,
              hideClosedList: null,
              webUrl: 'http://example.com/diaspora/diaspora-project-site/-/boards/1',
              milestone: { id: 'gid://gitlab/Milestone/12', title: '10.0', iid: null },
              assignee: null,
              labels: { nodes: [] },
              weight: null,
              lists: {
                count: 5,
                nodes: [
                  OPEN(1),
                  {
                    id: 'gid://gitlab/List/1',
                    listType: 'label',
                    title: 'Testing',
                    label: { ...TESTING, descriptionHtml: null },
                    position: 1,
                    maxIssueCount: 0,
                    limitMetric: null,
                    assignee: null,
                  },
                  { id: 'gid://gitlab/List/2', label: { title: 'Ready' }, position: 2 },
                  { id: 'gid://gitlab/List/3', label: { title: 'Production', color: '#FF5F00' }, position: 3 },
                  CLOSED(1),
                ],
              },
            },
          ],
        },
      },
    },
  },
  'list-project-boards-empty.json': {
    routes: [PROJECT_ROUTE, { method: 'GET', path: '/projects/diaspora%2Fdiaspora-project-site/boards', body: readFixture('boards/list-project-boards-empty.json') }],
    query: ON_PROJECT(`boards { count nodes { ${BOARD_FIELDS} } }`),
    expected: { project: { boards: { count: 0, nodes: [] } } },
  },
  'get-project-board.json': {
    routes: [PROJECT_ROUTE, { method: 'GET', path: '/projects/5/boards/1', body: fixture('get-project-board') }],
    query: ON_PROJECT(`board(id: "gid://gitlab/Board/1") { ${BOARD_FIELDS} one: lists(id: "gid://gitlab/List/2") { nodes { ${LIST_FIELDS} } } }`),
    expected: {
      project: {
        board: {
          name: 'project issue board',
          milestone: { title: '10.0' },
          lists: { count: 5 },
          one: { nodes: [{ id: 'gid://gitlab/List/2', title: 'Ready', label: { title: 'Ready', color: '#FF0000' }, position: 2 }] },
        },
      },
    },
  },
  'create-project-board.json': {
    routes: [{ method: 'POST', path: BOARDS, status: 201, body: fixture('create-project-board') }],
    query: `mutation { createBoard(input: { ${INPUT}, name: "newboard" }) { errors board { ${BOARD_FIELDS} } } }`,
    expected: {
      createBoard: {
        errors: [],
        board: {
          id: 'gid://gitlab/Board/1',
          name: 'newboard',
          milestone: null,
          assignee: null,
          labels: { nodes: [] },
          weight: null,
          lists: { count: 2, nodes: [OPEN(1), CLOSED(1)] },
        },
      },
    },
  },
  'update-project-board.json': {
    routes: [{ method: 'PUT', path: `${BOARDS}/1`, body: fixture('update-project-board') }],
    query: `mutation { updateBoard(input: { ${INPUT}, id: "gid://gitlab/Board/1", name: "new_name", weight: 4, labels: ["Doing"], assigneeId: "gid://gitlab/User/1",
      milestoneId: "gid://gitlab/Milestone/43" }) { errors board { ${BOARD_FIELDS} project { createdAt defaultBranch topics tagList sshUrlToRepo readmeUrl avatarUrl starCount forksCount lastActivityAt } } } }`,
    expected: {
      updateBoard: {
        errors: [],
        board: {
          name: 'new_name',
          milestone: {
            id: 'gid://gitlab/Milestone/43',
            title: 'Milestone 1',
            iid: '1',
            state: 'active',
            dueDate: null,
            webUrl: 'http://example.com/root/board1/milestones/1',
          },
          assignee: { id: 'gid://gitlab/User/1', username: 'root' },
          labels: { nodes: [{ id: 'gid://gitlab/Label/10', title: 'Doing', color: '#5CB85C', description: null }] },
          weight: 4,
          project: { defaultBranch: null, topics: [], starCount: 0, lastActivityAt: '2018-07-03T05:48:49.982Z' },
        },
      },
    },
  },
  'list-board-lists.json': {
    // A board record that names its project but leaves its lists out: they come from their own endpoint.
    routes: [
      PROJECT_ROUTE,
      { method: 'GET', path: '/projects/5/boards/1', body: { id: 1, name: 'project issue board', project: PROJECT } },
      { method: 'GET', path: '/projects/5/boards/1/lists', body: readFixture('boards/list-board-lists.json') },
    ],
    query: ON_PROJECT(`board(id: "gid://gitlab/Board/1") { lists { count nodes { ${LIST_FIELDS} } } }`),
    expected: {
      project: {
        board: {
          lists: { count: 5, nodes: [OPEN(1), { id: 'gid://gitlab/List/1', label: TESTING }, { position: 2 }, { label: { title: 'Production' } }, CLOSED(1)] },
        },
      },
    },
  },
  'get-board-list.json': {
    // `boardList` reads the board, whose record holds its lists; this one's left them out.
    routes: [
      { method: 'GET', path: `${BOARDS}/1`, body: { id: 1, name: 'project issue board', project: PROJECT } },
      { method: 'GET', path: '/projects/5/boards/1/lists', body: [fixture('get-board-list')] },
    ],
    query: `{ boardList(id: "gid://gitlab/List/1", boardId: "gid://gitlab/Board/1", ${INPUT}) { ${LIST_FIELDS} } }`,
    expected: {
      boardList: { id: 'gid://gitlab/List/1', listType: 'label', title: 'Testing', label: TESTING, position: 1, maxIssueCount: 0, maxIssueWeight: 0, limitMetric: null },
    },
  },
  'create-board-list.json': {
    // The new list, then the board whose record holds it (what the list's issues are read through).
    routes: [
      { method: 'POST', path: `${BOARDS}/1/lists`, status: 201, body: fixture('create-board-list') },
      { method: 'GET', path: `${BOARDS}/1`, body: boardWith([fixture('create-board-list')]) },
    ],
    query: `mutation { boardListCreate(input: { ${INPUT}, boardId: "gid://gitlab/Board/1", labelId: "gid://gitlab/Label/12" }) { errors list { ${LIST_FIELDS} } } }`,
    expected: { boardListCreate: { errors: [], list: { id: 'gid://gitlab/List/1', label: TESTING, position: 1 } } },
  },
  'reorder-board-list.json': {
    // The documentation's example asks for position 2 and shows 1: REST's answer is mapped as it is.
    routes: [
      { method: 'PUT', path: `${BOARDS}/1/lists/1`, body: fixture('reorder-board-list') },
      { method: 'GET', path: `${BOARDS}/1`, body: boardWith([fixture('reorder-board-list')]) },
    ],
    query: `mutation { updateBoardList(input: { ${INPUT}, boardId: "gid://gitlab/Board/1", listId: "gid://gitlab/List/1", position: 2 }) { errors list { ${LIST_FIELDS} } } }`,
    expected: { updateBoardList: { errors: [], list: { id: 'gid://gitlab/List/1', label: TESTING, position: 1 } } },
  },
};

describe('boards fixtures from the REST documentation', () => {
  // One stub upstream and one gateway for every case: the stub's routes are swapped per case.
  const routes: StubRoute[] = [];
  let stub: Awaited<ReturnType<typeof startStubUpstream>>;
  let gateway: TestGateway;

  beforeAll(async () => {
    stub = await startStubUpstream(routes);
    gateway = await startTestGateway(stub.url);
  });

  afterAll(async () => {
    await gateway?.close();
    await stub?.close();
  });

  it('maps every file of fixtures/gitlab-docs/boards/, none left aside', () => {
    const files = readdirSync(new URL('boards/', FIXTURES_DIR)).filter((name) => name.endsWith('.json'));
    expect(Object.keys(CASES).sort()).toEqual(files.sort());
  });

  it.each(Object.entries(CASES))('%s maps through the schema', async (_name, { routes: caseRoutes, query, expected }) => {
    routes.splice(0, routes.length, ...caseRoutes);
    stub.requests.length = 0;
    const result = await gateway.query(query, {}, 'glpat-contract');
    expect(result.errors).toBeUndefined();
    expect(result.data).toMatchObject(expected as Record<string, unknown>);
    const asked = new Set(stub.requests.map((request) => `${request.method} ${request.path}`));
    for (const route of caseRoutes) expect(asked, `${route.method} ${route.path}`).toContain(`${route.method} ${route.path}`);
  });
});
