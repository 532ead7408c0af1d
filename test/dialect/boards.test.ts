// Issue boards in GitLab's own dialect, asked the way GitLab's web frontend asks (named operations,
// fragments, variables typed with GitLab's ID scalars): every document validates against the
// schema, and runs over real HTTP against the gateway and the embedded v4 server, with the answers
// checked against REST.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const { developer, maintainer } = DEMO_TOKENS;
const schema = createExecutableSchema();

const BOARD_LIST_FRAGMENT = `
fragment BoardListFragment on BoardList {
  id
  title
  position
  listType
  label { id title color description }
  assignee { id username name }
  milestone { id title }
  maxIssueCount
  limitMetric
  issuesCount
}`;

const ISSUE_NODE_FRAGMENT = `
fragment IssueNode on Issue {
  id
  iid
  title
  state
  labels { nodes { id title color } }
}`;

const BOARD_LISTS_QUERY = `${BOARD_LIST_FRAGMENT}
query BoardLists($fullPath: ID!, $boardId: BoardID!, $filters: BoardIssueInput, $isGroup: Boolean = false, $isProject: Boolean = false) {
  group(fullPath: $fullPath) @include(if: $isGroup) {
    id
    board(id: $boardId) { id hideBacklogList lists(issueFilters: $filters) { nodes { ...BoardListFragment } } }
  }
  project(fullPath: $fullPath) @include(if: $isProject) {
    id
    board(id: $boardId) { id hideBacklogList lists(issueFilters: $filters) { nodes { ...BoardListFragment } } }
  }
}`;

const LIST_ISSUES_QUERY = `${ISSUE_NODE_FRAGMENT}
query ListIssues($fullPath: ID!, $boardId: BoardID!, $id: ListID, $filters: BoardIssueInput, $isGroup: Boolean = false, $isProject: Boolean = false, $after: String, $first: Int) {
  group(fullPath: $fullPath) @include(if: $isGroup) {
    board(id: $boardId) { lists(id: $id, issueFilters: $filters) { nodes { id listType issuesCount issues(first: $first, filters: $filters, after: $after) { edges { node { ...IssueNode } } pageInfo { endCursor hasNextPage } } } } }
  }
  project(fullPath: $fullPath) @include(if: $isProject) {
    board(id: $boardId) { lists(id: $id, issueFilters: $filters) { nodes { id listType issuesCount issues(first: $first, filters: $filters, after: $after) { edges { node { ...IssueNode } } pageInfo { endCursor hasNextPage } } } } }
  }
}`;

const BOARD_SCOPE_QUERY = `
query BoardScope($fullPath: ID!, $boardId: BoardID!) {
  project(fullPath: $fullPath) {
    board(id: $boardId) { id name hideBacklogList hideClosedList webPath webUrl labels { nodes { id title color } } assignee { id username } milestone { id title } weight }
  }
}`;

const BOARDS_QUERY = `
query GroupBoards($fullPath: ID!) {
  group(fullPath: $fullPath) { id boards { nodes { id name webPath hideBacklogList hideClosedList } } }
}`;

const BOARD_LIST_QUERY = `${BOARD_LIST_FRAGMENT}
query BoardList($id: ListID!, $boardId: BoardID!, $projectPath: ID, $filters: BoardIssueInput) {
  boardList(id: $id, boardId: $boardId, projectPath: $projectPath, issueFilters: $filters) { ...BoardListFragment }
}`;

const CREATE_BOARD = `
mutation createBoard($input: CreateBoardInput!) {
  createBoard(input: $input) { board { id name hideBacklogList hideClosedList webPath lists { nodes { id listType title } } } errors }
}`;

const UPDATE_BOARD = `
mutation updateBoard($input: UpdateBoardInput!) {
  updateBoard(input: $input) { board { id name hideBacklogList hideClosedList } errors }
}`;

const DESTROY_BOARD = `
mutation destroyBoard($id: BoardID!, $projectPath: ID) {
  destroyBoard(input: { id: $id, projectPath: $projectPath }) { board { id } errors }
}`;

const CREATE_BOARD_LIST = `${BOARD_LIST_FRAGMENT}
mutation createBoardList($boardId: BoardID!, $projectPath: ID, $backlog: Boolean, $labelId: LabelID) {
  boardListCreate(input: { boardId: $boardId, projectPath: $projectPath, backlog: $backlog, labelId: $labelId }) { list { ...BoardListFragment } errors }
}`;

const UPDATE_BOARD_LIST = `
mutation UpdateBoardList($listId: ListID!, $boardId: BoardID!, $projectPath: ID, $position: Int) {
  updateBoardList(input: { listId: $listId, boardId: $boardId, projectPath: $projectPath, position: $position }) { list { id position listType } errors }
}`;

const DESTROY_BOARD_LIST = `
mutation DestroyBoardList($listId: ListID!, $boardId: BoardID!, $projectPath: ID) {
  destroyBoardList(input: { listId: $listId, boardId: $boardId, projectPath: $projectPath }) { list { id listType } errors }
}`;

const ISSUE_MOVE_LIST = `
mutation IssueMoveList($projectPath: ID!, $iid: String!, $boardId: BoardID!, $fromListId: ID, $toListId: ID, $moveBeforeId: ID, $moveAfterId: ID, $positionInList: Int) {
  issueMoveList(input: { projectPath: $projectPath, iid: $iid, boardId: $boardId, fromListId: $fromListId, toListId: $toListId, moveBeforeId: $moveBeforeId, moveAfterId: $moveAfterId, positionInList: $positionInList }) {
    issue { id iid state labels { nodes { title } } }
    errors
  }
}`;

const DOCUMENTS = { BOARD_LISTS_QUERY, LIST_ISSUES_QUERY, BOARD_SCOPE_QUERY, BOARDS_QUERY, BOARD_LIST_QUERY, CREATE_BOARD, UPDATE_BOARD, DESTROY_BOARD, CREATE_BOARD_LIST, UPDATE_BOARD_LIST, DESTROY_BOARD_LIST, ISSUE_MOVE_LIST };

interface RestLabel {
  id: number;
  name: string;
  color: string;
  description: string | null;
}
interface RestBoard {
  id: number;
  name: string;
  hide_backlog_list: boolean;
  hide_closed_list: boolean;
  project: { id: number; web_url: string } | null;
  group: { id: number; web_url: string } | null;
  lists: Array<{ id: number; position: number; label: RestLabel | null }>;
}
interface RestIssue {
  id: number;
  iid: number;
  state: string;
  labels: string[];
}
interface GqlList {
  id: string;
  title: string;
  position: number | null;
  listType: string;
  label: { id: string; title: string; color: string; description: string | null } | null;
  issuesCount: number;
}
interface Nodes<T> {
  nodes: T[];
}

const PROJECT = 'gitlab-org/gitlab';
const PROJECT_ID = 1;
const listGid = (id: number | string) => `gid://gitlab/List/${id}`;
const boardGid = (id: number) => `gid://gitlab/Board/${id}`;
const encoded = (path: string) => encodeURIComponent(path);

describe('issue boards in GitLab\'s dialect', () => {
  const harness = gatewayOverSimulator();
  const run = <T>(document: string, variables: Record<string, unknown>, token: string = developer) => harness.gateway.query<T>(document, variables, token);

  /** REST's count of a list's issues, from `X-Total`. */
  async function restTotal(query: string): Promise<number> {
    const { headers } = await harness.oracle.call('GET', `/projects/${PROJECT_ID}/issues?${query}&per_page=1`, developer);
    return Number(headers.get('x-total'));
  }

  /** The first project board of gitlab-org/gitlab (Development, three workflow label lists). */
  const developmentBoard = async () => (await harness.oracle.get<RestBoard[]>(`/projects/${encoded(PROJECT)}/boards`, developer))[0]!;

  it.each(Object.entries(DOCUMENTS))('%s validates against the schema', (_name, document) => {
    expect(validate(schema, parse(document))).toEqual([]);
  });

  describe('a board with its lists', () => {
    it('shows Open, the label lists and Closed, titled and counted as GitLab does, from one read of the board and one count per list', async () => {
      const board = await developmentBoard();
      const result = await run<{ project: { board: { id: string; hideBacklogList: boolean; lists: Nodes<GqlList> } } }>(BOARD_LISTS_QUERY, { fullPath: PROJECT, boardId: boardGid(board.id), isProject: true });
      expect(result.errors).toBeUndefined();
      const labelNames = board.lists.map((list) => list.label!.name);
      const notLabels = `not[labels]=${labelNames.map(encodeURIComponent).join(',')}`;
      const expected = [
        { id: listGid(`backlog${board.id}`), title: 'Open', position: null, listType: 'backlog', label: null, issuesCount: await restTotal(`state=opened&${notLabels}`) },
        ...(await Promise.all(
          board.lists.map(async (list) => ({
            id: listGid(list.id),
            title: list.label!.name,
            position: list.position,
            listType: 'label',
            label: { id: `gid://gitlab/Label/${list.label!.id}`, title: list.label!.name, color: list.label!.color, description: list.label!.description },
            issuesCount: await restTotal(`state=opened&labels=${encodeURIComponent(list.label!.name)}`),
          })),
        )),
        { id: listGid(`closed${board.id}`), title: 'Closed', position: null, listType: 'closed', label: null, issuesCount: await restTotal('state=closed') },
      ];
      expect(result.data!.project.board.hideBacklogList).toBe(false);
      expect(result.data!.project.board.lists.nodes.map(({ id, title, position, listType, label, issuesCount }) => ({ id, title, position, listType, label, issuesCount }))).toEqual(expected);
      expect(expected.some((list) => list.issuesCount > 0)).toBe(true);
      // The project, the board (its record holds the lists), and one count per list.
      expect(restCalls(harness.simulator)).toHaveLength(2 + expected.length);
    });

    it('counts with the issueFilters the lists are read with', async () => {
      const board = await developmentBoard();
      const filters = { authorUsername: 'developer' };
      const result = await run<{ project: { board: { lists: Nodes<GqlList> } } }>(BOARD_LISTS_QUERY, { fullPath: PROJECT, boardId: boardGid(board.id), isProject: true, filters });
      expect(result.errors).toBeUndefined();
      const closed = result.data!.project.board.lists.nodes.find((list) => list.listType === 'closed')!;
      expect(closed.issuesCount).toBe(await restTotal('state=closed&author_username=developer'));
    });

    it('gives a list\'s issues in the board\'s order, relative position first, with GitLab\'s issue fields', async () => {
      const board = await developmentBoard();
      const list = board.lists[0]!;
      const result = await run<{ project: { board: { lists: Nodes<{ id: string; issuesCount: number; issues: { edges: Array<{ node: { iid: string; state: string; labels: Nodes<{ title: string }> } }> } }> } } }>(
        LIST_ISSUES_QUERY,
        { fullPath: PROJECT, boardId: boardGid(board.id), id: listGid(list.id), isProject: true, first: 10 },
      );
      expect(result.errors).toBeUndefined();
      const [only] = result.data!.project.board.lists.nodes;
      const rest = await harness.oracle.get<RestIssue[]>(`/projects/${PROJECT_ID}/issues?state=opened&labels=${encodeURIComponent(list.label!.name)}&order_by=relative_position&sort=asc&per_page=10`, developer);
      expect(only!.issues.edges.map(({ node }) => node.iid)).toEqual(rest.map((issue) => String(issue.iid)));
      expect(only!.issues.edges.every(({ node }) => node.state === 'opened' && node.labels.nodes.some((label) => label.title === list.label!.name))).toBe(true);
    });

    it('fills the Open list with open issues in no label list', async () => {
      const board = await developmentBoard();
      const names = board.lists.map((list) => list.label!.name);
      const result = await run<{ project: { board: { lists: Nodes<{ issues: { edges: Array<{ node: { iid: string; labels: Nodes<{ title: string }> } }> } }> } } }>(
        LIST_ISSUES_QUERY,
        { fullPath: PROJECT, boardId: boardGid(board.id), id: listGid(`backlog${board.id}`), isProject: true, first: 20 },
      );
      expect(result.errors).toBeUndefined();
      const rest = await harness.oracle.get<RestIssue[]>(
        `/projects/${PROJECT_ID}/issues?state=opened&not[labels]=${names.map(encodeURIComponent).join(',')}&order_by=relative_position&sort=asc&per_page=20`,
        developer,
      );
      const iids = result.data!.project.board.lists.nodes[0]!.issues.edges.map(({ node }) => node.iid);
      expect(iids).toEqual(rest.map((issue) => String(issue.iid)));
      expect(result.data!.project.board.lists.nodes[0]!.issues.edges.flatMap(({ node }) => node.labels.nodes.map((label) => label.title)).filter((title) => names.includes(title))).toEqual([]);
    });

    it('reads the scope and the settings of a board, and its web path from its project\'s web_url', async () => {
      // gitlab-org/gitaly has a PREMIUM-scoped "Bugs" board that hides its Open list.
      const scoped = (await harness.oracle.get<Array<RestBoard & { milestone: { id: number; title: string } | null; weight: number | null; labels: RestLabel[] }>>('/projects/gitlab-org%2Fgitaly/boards', developer)).find((board) => board.name === 'Bugs')!;
      const result = await run<{ project: { board: Record<string, unknown> } }>(BOARD_SCOPE_QUERY, { fullPath: 'gitlab-org/gitaly', boardId: boardGid(scoped.id) });
      expect(result.errors).toBeUndefined();
      const webUrl = `${scoped.project!.web_url}/-/boards/${scoped.id}`;
      expect(result.data!.project.board).toMatchObject({
        name: 'Bugs',
        hideBacklogList: true,
        hideClosedList: false,
        webUrl,
        webPath: new URL(webUrl).pathname,
        labels: { nodes: scoped.labels.map((label) => ({ id: `gid://gitlab/Label/${label.id}`, title: label.name, color: label.color })) },
        milestone: scoped.milestone && { id: `gid://gitlab/Milestone/${scoped.milestone.id}`, title: scoped.milestone.title },
        weight: scoped.weight,
      });
    });

    it('reads one list by `boardList`, with its board and project, from one read of the board', async () => {
      const board = await developmentBoard();
      const list = board.lists[1]!;
      const result = await run<{ boardList: GqlList }>(BOARD_LIST_QUERY, { id: listGid(list.id), boardId: boardGid(board.id), projectPath: PROJECT });
      expect(result.errors).toBeUndefined();
      expect(result.data!.boardList).toMatchObject({ id: listGid(list.id), title: list.label!.name, listType: 'label', position: list.position });
      expect(restCalls(harness.simulator)).toEqual([`GET /projects/${encoded(PROJECT)}/boards/${board.id}`, 'GET /projects/1/issues']);
      const missing = await run<{ boardList: null }>(BOARD_LIST_QUERY, { id: listGid(999999), boardId: boardGid(board.id), projectPath: PROJECT });
      expect(missing).toEqual({ data: { boardList: null } });
    });

    it('refuses a board named with both projectPath and groupPath, and labels by name and ID at once, before any REST call', async () => {
      // A board the gateway has not seen, named without its parent, is refused too (boards-locator.test.ts).
      const board = await developmentBoard();
      const both = await run(UPDATE_BOARD, { input: { id: boardGid(board.id), projectPath: PROJECT, groupPath: 'gitlab-org', name: 'x' } });
      expect(both.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'groupPath' });
      const namesAndIds = await run(UPDATE_BOARD, { input: { id: boardGid(board.id), projectPath: PROJECT, labels: ['bug'], labelIds: ['gid://gitlab/Label/1'] } });
      expect(namesAndIds.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'labelIds' });
      expect(restCalls(harness.simulator)).toEqual([]);
    });
  });

  describe('group boards', () => {
    it('lists a group\'s boards and reads one with its lists', async () => {
      const rest = await harness.oracle.get<RestBoard[]>('/groups/gitlab-org/boards', developer);
      const result = await run<{ group: { boards: Nodes<{ id: string; name: string; webPath: string }> } }>(BOARDS_QUERY, { fullPath: 'gitlab-org' });
      expect(result.errors).toBeUndefined();
      expect(result.data!.group.boards.nodes).toEqual(rest.map((board) => ({ id: boardGid(board.id), name: board.name, webPath: `${new URL(board.group!.web_url).pathname}/-/boards/${board.id}`, hideBacklogList: false, hideClosedList: false })));
      // The group and its boards are asked at once, by the path the caller gave.
      expect(restCalls(harness.simulator).sort()).toEqual(['GET /groups/gitlab-org', 'GET /groups/gitlab-org/boards']);
      const lists = await run<{ group: { board: { lists: Nodes<GqlList> } } }>(BOARD_LISTS_QUERY, { fullPath: 'gitlab-org', boardId: boardGid(rest[0]!.id), isGroup: true });
      expect(lists.errors).toBeUndefined();
      expect(lists.data!.group.board.lists.nodes.map((list) => list.listType)).toEqual(['backlog', ...rest[0]!.lists.map(() => 'label'), 'closed']);
      const { headers } = await harness.oracle.call('GET', '/groups/gitlab-org/issues?state=closed&per_page=1', developer);
      expect(lists.data!.group.board.lists.nodes.at(-1)!.issuesCount).toBe(Number(headers.get('x-total')));
    });
  });

  describe('board scope by label IDs', () => {
    it('reads GitLab\'s labelIds into the names REST takes, from one read of the project\'s labels', async () => {
      const labels = (await harness.oracle.get<Array<{ labels: RestLabel[] }>>(`/projects/${PROJECT_ID}/issues?with_labels_details=true&labels=Any&per_page=20`, developer)).flatMap((issue) => issue.labels);
      const chosen = [...new Map(labels.map((label) => [label.id, label])).values()].slice(0, 2);
      expect(chosen).toHaveLength(2);
      const created = await run<{ createBoard: { errors: string[]; board: { id: string } } }>(CREATE_BOARD, {
        input: { projectPath: PROJECT, name: 'Scoped', labelIds: [...chosen.map((label) => `gid://gitlab/Label/${label.id}`), 'gid://gitlab/Label/999999'] },
      });
      expect(created.data!.createBoard.errors).toEqual([]);
      const boardId = Number(created.data!.createBoard.board.id.split('/').pop());
      expect(restCalls(harness.simulator)).toEqual([`GET /projects/${encoded(PROJECT)}/labels`, `POST /projects/${encoded(PROJECT)}/boards`, `PUT /projects/${encoded(PROJECT)}/boards/${boardId}`]);
      const rest = await harness.oracle.get<{ labels: RestLabel[] }>(`/projects/${PROJECT_ID}/boards/${boardId}`, developer);
      // An ID the project has no label for is left out, as GitLab's board service leaves it.
      expect(rest.labels.map((label) => label.name).sort()).toEqual(chosen.map((label) => label.name).sort());
    });
  });

  describe('group board writes', () => {
    it('creates a group board by groupPath, adds a list, and deletes it, each named by its group', async () => {
      const { admin } = DEMO_TOKENS;
      const created = await run<{ createBoard: { errors: string[]; board: { id: string; webPath: string; hideClosedList: boolean } } }>(CREATE_BOARD, { input: { groupPath: 'gitlab-org', name: 'Roadmap', hideClosedList: true } }, admin);
      expect(created.errors).toBeUndefined();
      const board = created.data!.createBoard.board;
      const boardId = Number(board.id.split('/').pop());
      expect(board).toMatchObject({ hideClosedList: true, webPath: `/groups/gitlab-org/-/boards/${boardId}` });
      expect(restCalls(harness.simulator)).toEqual(['POST /groups/gitlab-org/boards', `PUT /groups/gitlab-org/boards/${boardId}`]);

      // A group board's lists take the group's labels.
      const label = (await harness.oracle.get<RestLabel[]>('/groups/gitlab-org/labels', admin)).find((candidate) => candidate.name === 'customer')!;
      const list = await run<{ boardListCreate: { errors: string[]; list: GqlList } }>(
        `${BOARD_LIST_FRAGMENT}
        mutation createGroupBoardList($boardId: BoardID!, $groupPath: ID, $labelId: LabelID) {
          boardListCreate(input: { boardId: $boardId, groupPath: $groupPath, labelId: $labelId }) { list { ...BoardListFragment } errors }
        }`,
        { boardId: board.id, groupPath: 'gitlab-org', labelId: `gid://gitlab/Label/${label.id}` },
        admin,
      );
      expect(list.data!.boardListCreate).toMatchObject({ errors: [], list: { listType: 'label', title: label.name, position: 0, label: { id: `gid://gitlab/Label/${label.id}` } } });
      const { headers } = await harness.oracle.call('GET', `/groups/gitlab-org/issues?state=opened&labels=${encodeURIComponent(label.name)}&per_page=1`, admin);
      expect(list.data!.boardListCreate.list.issuesCount).toBe(Number(headers.get('x-total')));

      const destroyed = await run<{ destroyBoard: { errors: string[] } }>(
        'mutation destroyGroupBoard($id: BoardID!, $groupPath: ID) { destroyBoard(input: { id: $id, groupPath: $groupPath }) { errors } }',
        { id: board.id, groupPath: 'gitlab-org' },
        admin,
      );
      expect(destroyed).toEqual({ data: { destroyBoard: { errors: [] } } });
      expect((await harness.oracle.call('GET', `/groups/gitlab-org/boards/${boardId}`, admin)).status).toBe(404);
    });
  });

  describe('moving a card', () => {
    it('moves an issue from one label list to another between two cards: relabelled and reordered in REST', async () => {
      const board = await developmentBoard();
      const listIssues = (query: string) => harness.oracle.get<RestIssue[]>(`/projects/${PROJECT_ID}/issues?state=opened&${query}&order_by=relative_position&sort=asc&per_page=100`, developer);
      // Two label lists: a target holding at least two cards, and a source card without the target's label.
      let move: { from: RestBoard['lists'][number]; to: RestBoard['lists'][number]; toOrder: number[]; card: RestIssue } | undefined;
      for (const to of board.lists) {
        const toOrder = (await listIssues(`labels=${encodeURIComponent(to.label!.name)}`)).map((issue) => issue.id);
        if (toOrder.length < 2) continue;
        for (const from of board.lists.filter((list) => list !== to)) {
          const [card] = await listIssues(`labels=${encodeURIComponent(from.label!.name)}&not[labels]=${encodeURIComponent(to.label!.name)}`);
          if (card && !move) move = { from, to, toOrder, card };
        }
      }
      expect(move).toBeDefined();
      const { from, to, toOrder, card } = move!;
      // The board page, as GitLab's frontend reads it first: the board's project is then known by its id.
      await run(BOARD_LISTS_QUERY, { fullPath: PROJECT, boardId: boardGid(board.id), isProject: true });
      harness.simulator.resetRequests();

      const result = await run<{ issueMoveList: { errors: string[]; issue: { iid: string; state: string; labels: Nodes<{ title: string }> } } }>(ISSUE_MOVE_LIST, {
        projectPath: PROJECT,
        iid: String(card.iid),
        boardId: boardGid(board.id),
        // GitLab's frontend sends the lists' numeric ids.
        fromListId: String(from.id),
        toListId: String(to.id),
        moveBeforeId: String(toOrder[0]),
        moveAfterId: String(toOrder[1]),
      });
      expect(result.errors).toBeUndefined();
      expect(result.data!.issueMoveList.errors).toEqual([]);
      const titles = result.data!.issueMoveList.issue.labels.nodes.map((label) => label.title);
      expect(titles).toContain(to.label!.name);
      expect(titles).not.toContain(from.label!.name);

      const after = await harness.oracle.get<RestIssue>(`/projects/${PROJECT_ID}/issues/${card.iid}`, developer);
      expect(after.labels).toContain(to.label!.name);
      expect(after.labels).not.toContain(from.label!.name);
      const newOrder = (await listIssues(`labels=${encodeURIComponent(to.label!.name)}`)).map((issue) => issue.id);
      expect(newOrder.slice(0, 3)).toEqual([toOrder[0], card.id, toOrder[1]]);
      // The board (for its lists, under the project its record named), the relabelling PUT, the reorder PUT.
      expect(restCalls(harness.simulator)).toEqual([
        `GET /projects/${PROJECT_ID}/boards/${board.id}`,
        `PUT /projects/${encoded(PROJECT)}/issues/${card.iid}`,
        `PUT /projects/${encoded(PROJECT)}/issues/${card.iid}/reorder`,
      ]);
    });

    it('closes a card moved to Closed, dropping the board\'s list labels, and reopens it into a label list', async () => {
      const board = await developmentBoard();
      // A label list holding an open card.
      let found: { label: RestBoard['lists'][number]; card: RestIssue } | undefined;
      for (const list of board.lists) {
        const [open] = await harness.oracle.get<RestIssue[]>(`/projects/${PROJECT_ID}/issues?state=opened&labels=${encodeURIComponent(list.label!.name)}&per_page=1`, developer);
        if (open && !found) found = { label: list, card: open };
      }
      expect(found).toBeDefined();
      const { label, card } = found!;
      const closed = await run<{ issueMoveList: { errors: string[]; issue: { state: string } } }>(ISSUE_MOVE_LIST, {
        projectPath: PROJECT,
        iid: String(card.iid),
        boardId: boardGid(board.id),
        fromListId: listGid(label.id),
        toListId: listGid(`closed${board.id}`),
      });
      expect(closed.errors).toBeUndefined();
      expect(closed.data!.issueMoveList).toMatchObject({ errors: [], issue: { state: 'closed' } });
      const restClosed = await harness.oracle.get<RestIssue>(`/projects/${PROJECT_ID}/issues/${card.iid}`, developer);
      expect(restClosed.state).toBe('closed');
      expect(restClosed.labels.filter((name) => board.lists.some((list) => list.label!.name === name))).toEqual([]);

      const reopened = await run<{ issueMoveList: { errors: string[]; issue: { state: string } } }>(ISSUE_MOVE_LIST, {
        projectPath: PROJECT,
        iid: String(card.iid),
        boardId: boardGid(board.id),
        fromListId: listGid(`closed${board.id}`),
        toListId: listGid(label.id),
        positionInList: 0,
      });
      expect(reopened.data!.issueMoveList).toMatchObject({ errors: [], issue: { state: 'opened' } });
      const restReopened = await harness.oracle.get<RestIssue>(`/projects/${PROJECT_ID}/issues/${card.iid}`, developer);
      expect(restReopened.state).toBe('opened');
      expect(restReopened.labels).toContain(label.label!.name);
      const first = (await harness.oracle.get<RestIssue[]>(`/projects/${PROJECT_ID}/issues?state=opened&labels=${encodeURIComponent(label.label!.name)}&order_by=relative_position&sort=asc&per_page=1`, developer))[0]!;
      expect(first.id).toBe(restReopened.id);
    });

    it('gives a card moved from Open into a milestone list that milestone, and into an assignee list that assignee (PREMIUM lists)', async () => {
      const created = await run<{ createBoard: { board: { id: string } } }>(CREATE_BOARD, { input: { projectPath: PROJECT, name: 'People and releases' } });
      const boardId = created.data!.createBoard.board.id;
      const numericBoardId = Number(boardId.split('/').pop());
      const milestone = (await harness.oracle.get<Array<{ id: number; title: string }>>(`/projects/${PROJECT_ID}/milestones?state=active`, developer))[0]!;
      const lists = await run<{ m: { list: { id: string; title: string } }; a: { list: { id: string; title: string } } }>(
        `mutation addPremiumLists($boardId: BoardID!, $projectPath: ID, $milestoneId: MilestoneID, $assigneeId: UserID) {
          m: boardListCreate(input: { boardId: $boardId, projectPath: $projectPath, milestoneId: $milestoneId }) { list { id title } errors }
          a: boardListCreate(input: { boardId: $boardId, projectPath: $projectPath, assigneeId: $assigneeId }) { list { id title } errors }
        }`,
        { boardId, projectPath: PROJECT, milestoneId: `gid://gitlab/Milestone/${milestone.id}`, assigneeId: 'gid://gitlab/User/3' },
      );
      expect(lists.errors).toBeUndefined();
      expect(lists.data!.m.list.title).toBe(milestone.title);
      expect(lists.data!.a.list.title).toBe('@developer');
      const card = (await harness.oracle.get<Array<RestIssue & { milestone: { id: number } | null; assignees: Array<{ id: number }> }>>(`/projects/${PROJECT_ID}/issues?state=opened&milestone=None&assignee_id=None&per_page=1`, developer))[0]!;
      const open = listGid(`backlog${numericBoardId}`);

      const toMilestone = await run<{ issueMoveList: { errors: string[] } }>(ISSUE_MOVE_LIST, { projectPath: PROJECT, iid: String(card.iid), boardId, fromListId: open, toListId: lists.data!.m.list.id });
      expect(toMilestone.data!.issueMoveList.errors).toEqual([]);
      expect((await harness.oracle.get<{ milestone: { id: number } | null }>(`/projects/${PROJECT_ID}/issues/${card.iid}`, developer)).milestone?.id).toBe(milestone.id);

      harness.simulator.resetRequests();
      const toAssignee = await run<{ issueMoveList: { errors: string[] } }>(ISSUE_MOVE_LIST, { projectPath: PROJECT, iid: String(card.iid), boardId, fromListId: lists.data!.m.list.id, toListId: lists.data!.a.list.id });
      expect(toAssignee.data!.issueMoveList.errors).toEqual([]);
      const after = await harness.oracle.get<{ milestone: { id: number } | null; assignees: Array<{ id: number }> }>(`/projects/${PROJECT_ID}/issues/${card.iid}`, developer);
      // An assignee list adds its user to the issue's assignees; the milestone stays, as GitLab's move keeps it.
      expect(after.assignees.map((user) => user.id)).toEqual([3]);
      expect(after.milestone?.id).toBe(milestone.id);
      // The board, the issue (for its assignees), and the PUT.
      expect(restCalls(harness.simulator)).toEqual([`GET /projects/${PROJECT_ID}/boards/${numericBoardId}`, `GET /projects/${encoded(PROJECT)}/issues/${card.iid}`, `PUT /projects/${encoded(PROJECT)}/issues/${card.iid}`]);
    });

    it('refuses one list without the other, and a list of another board, as BAD_USER_INPUT', async () => {
      const board = await developmentBoard();
      const half = await run(ISSUE_MOVE_LIST, { projectPath: PROJECT, iid: '1', boardId: boardGid(board.id), fromListId: listGid(board.lists[0]!.id) });
      expect(half.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'toListId' });
      expect(restCalls(harness.simulator)).toEqual([]);
      const foreign = await run(ISSUE_MOVE_LIST, { projectPath: PROJECT, iid: '1', boardId: boardGid(board.id), fromListId: listGid(board.lists[0]!.id), toListId: listGid('closed999') });
      expect(foreign.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'toListId' });
    });
  });

  describe('board and list writes', () => {
    it('creates a board with its settings, shows the Open list on request, moves and removes lists, and deletes the board', async () => {
      const created = await run<{ createBoard: { errors: string[]; board: { id: string; hideBacklogList: boolean; hideClosedList: boolean; webPath: string; lists: Nodes<{ listType: string; title: string }> } } }>(CREATE_BOARD, {
        input: { projectPath: PROJECT, name: 'Release', hideBacklogList: true },
      });
      expect(created.errors).toBeUndefined();
      const board = created.data!.createBoard.board;
      expect(board).toMatchObject({ hideBacklogList: true, hideClosedList: false, lists: { nodes: [{ listType: 'closed', title: 'Closed' }] } });
      const boardId = Number(board.id.split('/').pop());
      expect(await harness.oracle.get<RestBoard>(`/projects/${PROJECT_ID}/boards/${boardId}`, developer)).toMatchObject({ name: 'Release', hide_backlog_list: true });

      const backlog = await run<{ boardListCreate: { errors: string[]; list: GqlList } }>(CREATE_BOARD_LIST, { boardId: board.id, projectPath: PROJECT, backlog: true });
      expect(backlog.data!.boardListCreate).toMatchObject({ errors: [], list: { id: listGid(`backlog${boardId}`), listType: 'backlog', title: 'Open' } });
      expect(await harness.oracle.get<RestBoard>(`/projects/${PROJECT_ID}/boards/${boardId}`, developer)).toMatchObject({ hide_backlog_list: false });

      const labels = await harness.oracle.get<RestLabel[]>(`/projects/${PROJECT_ID}/issues?with_labels_details=true&labels=Any&per_page=20`, developer).then((issues) => [
        ...new Map((issues as unknown as Array<{ labels: RestLabel[] }>).flatMap((issue) => issue.labels).map((label) => [label.id, label])).values(),
      ]);
      const made: GqlList[] = [];
      for (const label of labels.slice(0, 2)) {
        const result = await run<{ boardListCreate: { errors: string[]; list: GqlList } }>(CREATE_BOARD_LIST, { boardId: board.id, projectPath: PROJECT, labelId: `gid://gitlab/Label/${label.id}` });
        expect(result.data!.boardListCreate).toMatchObject({ errors: [], list: { listType: 'label', title: label.name, label: { title: label.name } } });
        made.push(result.data!.boardListCreate.list);
      }
      const moved = await run<{ updateBoardList: { errors: string[]; list: { position: number } } }>(UPDATE_BOARD_LIST, { listId: made[1]!.id, boardId: board.id, projectPath: PROJECT, position: 0 });
      expect(moved.data!.updateBoardList).toEqual({ errors: [], list: { id: made[1]!.id, position: 0, listType: 'label' } });
      expect((await harness.oracle.get<RestBoard>(`/projects/${PROJECT_ID}/boards/${boardId}`, developer)).lists.map((list) => list.id)).toEqual([made[1]!, made[0]!].map((list) => Number(list.id.split('/').pop())));

      const closedList = listGid(`closed${boardId}`);
      const refused = await run<{ destroyBoardList: { errors: string[]; list: { id: string; listType: string } } }>(DESTROY_BOARD_LIST, { listId: closedList, boardId: board.id, projectPath: PROJECT }, maintainer);
      expect(refused.data!.destroyBoardList).toEqual({ errors: ['Open and closed lists on a board cannot be destroyed.'], list: { id: closedList, listType: 'closed' } });

      const hidden = await run<{ updateBoard: { errors: string[]; board: { hideClosedList: boolean } } }>(UPDATE_BOARD, { input: { id: board.id, projectPath: PROJECT, hideClosedList: true } });
      expect(hidden.data!.updateBoard).toMatchObject({ errors: [], board: { hideClosedList: true } });

      const destroyed = await run<{ destroyBoard: { errors: string[]; board: null } }>(DESTROY_BOARD, { id: board.id, projectPath: PROJECT });
      expect(destroyed).toEqual({ data: { destroyBoard: { errors: [], board: null } } });
      expect((await harness.oracle.call('GET', `/projects/${PROJECT_ID}/boards/${boardId}`, developer)).status).toBe(404);
    });
  });
});
