// GitLab's board and list writes with GitLab's inputs only: `updateBoard(input: { id })`,
// `destroyBoard(input: { id })`, `boardListCreate(input: { boardId, labelId })`,
// `updateBoardList(input: { listId, position, collapsed })`, `destroyBoardList(input: { listId })`
// and `boardList(id:)`, with no `projectPath`. The gateway finds the REST path from the board
// records it has read (datasources/board-locator.ts); a board it has never seen is refused before any
// REST call; and knowing where a board lives grants nothing: REST still decides with the caller's
// own credential. Over real HTTP against the embedded v4 server, checked through REST.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const { admin, developer, guest, outsider } = DEMO_TOKENS;
const schema = createExecutableSchema();

const BOARD_LIST_FRAGMENT = `
fragment BoardListFragment on BoardList {
  id
  title
  position
  listType
  label { id title }
  issuesCount
}`;

const BOARD_PAGE = `${BOARD_LIST_FRAGMENT}
query BoardPage($fullPath: ID!, $boardId: BoardID!) {
  project(fullPath: $fullPath) {
    id
    board(id: $boardId) { id name hideBacklogList hideClosedList lists { nodes { ...BoardListFragment } } }
  }
}`;

const BOARD_LIST = `${BOARD_LIST_FRAGMENT}
query BoardListDetails($id: ListID!, $filters: BoardIssueInput) {
  boardList(id: $id, issueFilters: $filters) { ...BoardListFragment }
}`;

const UPDATE_BOARD = `
mutation updateBoard($input: UpdateBoardInput!) {
  updateBoard(input: $input) { board { id name hideBacklogList hideClosedList } errors }
}`;

const DESTROY_BOARD = `
mutation destroyBoard($id: BoardID!) {
  destroyBoard(input: { id: $id }) { board { id } errors }
}`;

const CREATE_BOARD_LIST = `${BOARD_LIST_FRAGMENT}
mutation createBoardList($boardId: BoardID!, $backlog: Boolean, $labelId: LabelID) {
  boardListCreate(input: { boardId: $boardId, backlog: $backlog, labelId: $labelId }) { list { ...BoardListFragment } errors }
}`;

const UPDATE_BOARD_LIST = `
mutation UpdateBoardList($listId: ListID!, $position: Int, $collapsed: Boolean) {
  updateBoardList(input: { listId: $listId, position: $position, collapsed: $collapsed }) { list { id position listType } errors }
}`;

const DESTROY_BOARD_LIST = `
mutation DestroyBoardList($listId: ListID!) {
  destroyBoardList(input: { listId: $listId }) { list { id listType } errors }
}`;

const DOCUMENTS = { BOARD_PAGE, BOARD_LIST, UPDATE_BOARD, DESTROY_BOARD, CREATE_BOARD_LIST, UPDATE_BOARD_LIST, DESTROY_BOARD_LIST };

interface RestLabel {
  id: number;
  name: string;
}
interface RestBoard {
  id: number;
  name: string;
  hide_backlog_list: boolean;
  hide_closed_list: boolean;
  lists: Array<{ id: number; position: number; label: RestLabel | null }>;
}
interface GqlList {
  id: string;
  title: string;
  position: number | null;
  listType: string;
  label: { id: string; title: string } | null;
  issuesCount: number;
}

const PROJECT = 'gitlab-org/gitlab';
const PROJECT_ID = 1;
const boardGid = (id: number) => `gid://gitlab/Board/${id}`;
const listGid = (id: number | string) => `gid://gitlab/List/${id}`;
const numericId = (gid: string) => Number(gid.split('/').pop());

describe('board and list writes with GitLab\'s inputs only', () => {
  const harness = gatewayOverSimulator();
  const run = <T>(document: string, variables: Record<string, unknown>, token: string = developer) => harness.gateway.query<T>(document, variables, token);

  /** A board made straight through REST, so that the gateway has never seen it. */
  async function boardUnseenByTheGateway(name: string): Promise<RestBoard> {
    const { status, body } = await harness.oracle.call<RestBoard>('POST', `/projects/${PROJECT_ID}/boards?name=${encodeURIComponent(name)}`, developer);
    expect(status).toBe(201);
    return body;
  }

  /** Two labels of the project that issues carry. */
  async function twoLabels(): Promise<RestLabel[]> {
    const issues = await harness.oracle.get<Array<{ labels: RestLabel[] }>>(`/projects/${PROJECT_ID}/issues?with_labels_details=true&labels=Any&per_page=20`, developer);
    return [...new Map(issues.flatMap((issue) => issue.labels).map((label) => [label.id, label])).values()].slice(0, 2);
  }

  it.each(Object.entries(DOCUMENTS))('%s validates against the schema', (_name, document) => {
    expect(validate(schema, parse(document))).toEqual([]);
  });

  it('refuses a board or list it has not seen, saying to read it first or name its parent, before any REST call', async () => {
    const unseen = await boardUnseenByTheGateway('Unseen');
    const listOfUnseen = listGid(999_001);
    const refusals = await Promise.all([
      run(UPDATE_BOARD, { input: { id: boardGid(unseen.id), name: 'Renamed' } }),
      run(DESTROY_BOARD, { id: boardGid(unseen.id) }),
      run(CREATE_BOARD_LIST, { boardId: boardGid(unseen.id), backlog: true }),
      run(UPDATE_BOARD_LIST, { listId: listOfUnseen, position: 0 }),
      run(DESTROY_BOARD_LIST, { listId: listOfUnseen }),
      run(BOARD_LIST, { id: listOfUnseen }),
    ]);
    const argumentNames = refusals.map((result) => result.errors?.[0]?.extensions?.['argumentName']);
    expect(argumentNames).toEqual(['id', 'id', 'boardId', 'listId', 'listId', 'id']);
    for (const result of refusals) {
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
      expect(result.errors?.[0]?.message).toMatch(/has not been read through this gateway yet.*read (the|its) board first/);
    }
    // The Open list of an unseen board names its board, but not the board's project.
    const open = await run(UPDATE_BOARD_LIST, { listId: listGid(`backlog${unseen.id}`), position: 0 });
    expect(open.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'listId' });
    expect(restCalls(harness.simulator)).toEqual([]);

    // The REST-driven extension still names a board the gateway has not seen.
    const named = await run<{ updateBoard: { errors: string[]; board: { name: string } } }>(UPDATE_BOARD, { input: { id: boardGid(unseen.id), projectPath: PROJECT, name: 'Named by its project' } });
    expect(named.data!.updateBoard).toMatchObject({ errors: [], board: { name: 'Named by its project' } });
    expect(restCalls(harness.simulator)).toEqual([`PUT /projects/${encodeURIComponent(PROJECT)}/boards/${unseen.id}`]);
  });

  it('runs GitLab\'s writes once the board page was read: renames, adds, moves and removes lists, and deletes the board, checked through REST', async () => {
    const unseen = await boardUnseenByTheGateway('Triage');
    const boardId = boardGid(unseen.id);

    // The board page, as GitLab's frontend reads it before any write.
    const page = await run<{ project: { board: { id: string; lists: { nodes: GqlList[] } } } }>(BOARD_PAGE, { fullPath: PROJECT, boardId });
    expect(page.errors).toBeUndefined();
    expect(page.data!.project.board.lists.nodes.map((list) => list.listType)).toEqual(['backlog', 'closed']);

    harness.simulator.resetRequests();
    const renamed = await run<{ updateBoard: { errors: string[]; board: { name: string; hideClosedList: boolean } } }>(UPDATE_BOARD, { input: { id: boardId, name: 'Triage board', hideClosedList: true } });
    expect(renamed.data!.updateBoard).toEqual({ errors: [], board: { id: boardId, name: 'Triage board', hideBacklogList: false, hideClosedList: true } });
    // The board's project by the id its REST record named: one PUT, nothing looked up.
    expect(restCalls(harness.simulator)).toEqual([`PUT /projects/${PROJECT_ID}/boards/${unseen.id}`]);
    expect(await harness.oracle.get<RestBoard>(`/projects/${PROJECT_ID}/boards/${unseen.id}`, developer)).toMatchObject({ name: 'Triage board', hide_closed_list: true });

    const labels = await twoLabels();
    expect(labels).toHaveLength(2);
    const made: GqlList[] = [];
    for (const label of labels) {
      const created = await run<{ boardListCreate: { errors: string[]; list: GqlList } }>(CREATE_BOARD_LIST, { boardId, labelId: `gid://gitlab/Label/${label.id}` });
      expect(created.errors).toBeUndefined();
      expect(created.data!.boardListCreate).toMatchObject({ errors: [], list: { listType: 'label', title: label.name, label: { id: `gid://gitlab/Label/${label.id}` } } });
      made.push(created.data!.boardListCreate.list);
    }
    const restLists = async () => (await harness.oracle.get<RestBoard>(`/projects/${PROJECT_ID}/boards/${unseen.id}`, developer)).lists.map((list) => list.id);
    expect(await restLists()).toEqual(made.map((list) => numericId(list.id)));

    // A list made through the gateway is known by its ID alone: its move, and its read.
    harness.simulator.resetRequests();
    const moved = await run<{ updateBoardList: { errors: string[]; list: { id: string; position: number } } }>(UPDATE_BOARD_LIST, { listId: made[1]!.id, position: 0 });
    expect(moved.errors).toBeUndefined();
    expect(moved.data!.updateBoardList).toEqual({ errors: [], list: { id: made[1]!.id, position: 0, listType: 'label' } });
    expect(restCalls(harness.simulator)[0]).toBe(`PUT /projects/${PROJECT_ID}/boards/${unseen.id}/lists/${numericId(made[1]!.id)}`);
    expect(await restLists()).toEqual([made[1]!, made[0]!].map((list) => numericId(list.id)));

    const read = await run<{ boardList: GqlList }>(BOARD_LIST, { id: made[0]!.id });
    expect(read.errors).toBeUndefined();
    expect(read.data!.boardList).toMatchObject({ id: made[0]!.id, title: labels[0]!.name, position: 1, listType: 'label' });

    // GitLab's per-user `collapsed` validates, and is refused when set: REST has no such setting.
    const collapsed = await run(UPDATE_BOARD_LIST, { listId: made[0]!.id, collapsed: true });
    expect(collapsed.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'collapsed' });

    // Lists are removed by administrators and owners; the place is the same for every caller.
    const removed = await run<{ destroyBoardList: { errors: string[]; list: null } }>(DESTROY_BOARD_LIST, { listId: made[1]!.id }, admin);
    expect(removed).toEqual({ data: { destroyBoardList: { errors: [], list: null } } });
    expect(await restLists()).toEqual([numericId(made[0]!.id)]);

    harness.simulator.resetRequests();
    const destroyed = await run<{ destroyBoard: { errors: string[]; board: null } }>(DESTROY_BOARD, { id: boardId });
    expect(destroyed).toEqual({ data: { destroyBoard: { errors: [], board: null } } });
    expect(restCalls(harness.simulator)).toEqual([`DELETE /projects/${PROJECT_ID}/boards/${unseen.id}`]);
    expect((await harness.oracle.call('GET', `/projects/${PROJECT_ID}/boards/${unseen.id}`, developer)).status).toBe(404);

    // Once deleted, forgotten: the ID is refused again before any REST call.
    harness.simulator.resetRequests();
    const again = await run(UPDATE_BOARD, { input: { id: boardId, name: 'Gone' } });
    expect(again.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'id' });
    expect(restCalls(harness.simulator)).toEqual([]);
  });

  it('learns group boards from the group\'s board list and writes them by ID alone', async () => {
    const groupBoards = `query GroupBoards($fullPath: ID!) { group(fullPath: $fullPath) { id boards { nodes { id name } } } }`;
    expect(validate(schema, parse(groupBoards))).toEqual([]);
    const boards = await run<{ group: { boards: { nodes: Array<{ id: string; name: string }> } } }>(groupBoards, { fullPath: 'gitlab-org' }, admin);
    expect(boards.errors).toBeUndefined();
    const planning = boards.data!.group.boards.nodes.find((board) => board.name === 'Planning')!;
    const groupId = (await harness.oracle.get<{ id: number }>('/groups/gitlab-org', admin)).id;

    harness.simulator.resetRequests();
    const hidden = await run<{ updateBoard: { errors: string[]; board: { hideBacklogList: boolean } } }>(UPDATE_BOARD, { input: { id: planning.id, hideBacklogList: true } }, admin);
    expect(hidden.data!.updateBoard).toMatchObject({ errors: [], board: { hideBacklogList: true } });
    expect(restCalls(harness.simulator)).toEqual([`PUT /groups/${groupId}/boards/${numericId(planning.id)}`]);
    const shown = await run<{ boardListCreate: { errors: string[]; list: GqlList } }>(CREATE_BOARD_LIST, { boardId: planning.id, backlog: true }, admin);
    expect(shown.data!.boardListCreate).toMatchObject({ errors: [], list: { id: listGid(`backlog${numericId(planning.id)}`), listType: 'backlog' } });
    expect(await harness.oracle.get<RestBoard>(`/groups/${groupId}/boards/${numericId(planning.id)}`, admin)).toMatchObject({ hide_backlog_list: false });
  });

  it('grants nothing: a caller who may not see or change a known board gets REST\'s NOT_FOUND or FORBIDDEN', async () => {
    // A board of a private project, read by an administrator: the gateway now knows where it lives.
    const privateProject = 'gitlab-org/security-fixes';
    const privateProjectId = await projectIdOf(privateProject);
    const [secret] = await harness.oracle.get<RestBoard[]>(`/projects/${encodeURIComponent(privateProject)}/boards`, admin);
    expect(secret).toBeDefined();
    const page = await run(BOARD_PAGE, { fullPath: privateProject, boardId: boardGid(secret!.id) }, admin);
    expect(page.errors).toBeUndefined();

    harness.simulator.resetRequests();
    const hidden = await run(UPDATE_BOARD, { input: { id: boardGid(secret!.id), name: 'Leaked?' } }, outsider);
    expect(hidden.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
    const list = await run(DESTROY_BOARD_LIST, { listId: listGid(secret!.lists[0]!.id) }, outsider);
    expect(list.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
    // REST was asked, with the outsider's own credential, and said no.
    expect(restCalls(harness.simulator)).toEqual([`PUT /projects/${privateProjectId}/boards/${secret!.id}`, `DELETE /projects/${privateProjectId}/boards/${secret!.id}/lists/${secret!.lists[0]!.id}`]);
    expect((await harness.oracle.get<RestBoard>(`/projects/${encodeURIComponent(privateProject)}/boards/${secret!.id}`, admin)).name).toBe(secret!.name);

    // A guest of a public project sees its board but may not change it.
    const [development] = await harness.oracle.get<RestBoard[]>(`/projects/${PROJECT_ID}/boards`, developer);
    await run(BOARD_PAGE, { fullPath: PROJECT, boardId: boardGid(development!.id) });
    const refused = await run<{ destroyBoard: null }>(DESTROY_BOARD, { id: boardGid(development!.id) }, guest);
    expect(refused.data?.destroyBoard ?? null).toBeNull();
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
    expect((await harness.oracle.call('GET', `/projects/${PROJECT_ID}/boards/${development!.id}`, developer)).status).toBe(200);
  });

  async function projectIdOf(path: string): Promise<number> {
    return (await harness.oracle.get<{ id: number }>(`/projects/${encodeURIComponent(path)}`, admin)).id;
  }
});
