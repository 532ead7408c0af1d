import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { restCalls, restOracle } from '../support/rest-oracle.js';
import { startRedis, type TestRedis } from '../replicas/support/redis-server.js';
import { startReplicas, type Replica } from '../replicas/support/replica.js';

/**
 * Two replicas of the command line over one embedded v4 server and one Redis: a board page read
 * from one replica, and GitLab's board and list writes (by ID alone) sent to the other, as a load
 * balancer spreads a browser's requests. Where a board lives goes through Redis, bounded and
 * expiring, and holds no credential.
 */
const KEY_SECRET = 'boards-replica-secret-0123456789';
const PREFIX = 'gw-boards:';
const PROJECT = 'gitlab-org/gitlab';
const PROJECT_ID = 1;
const { admin, developer } = DEMO_TOKENS;

const BOARD_PAGE = `
query BoardPage($fullPath: ID!, $boardId: BoardID!) {
  project(fullPath: $fullPath) { board(id: $boardId) { id name lists { nodes { id listType } } } }
}`;
const UPDATE_BOARD = `
mutation updateBoard($input: UpdateBoardInput!) {
  updateBoard(input: $input) { board { id name } errors }
}`;
const CREATE_BOARD_LIST = `
mutation createBoardList($boardId: BoardID!, $labelId: LabelID) {
  boardListCreate(input: { boardId: $boardId, labelId: $labelId }) { list { id listType position } errors }
}`;
const UPDATE_BOARD_LIST = `
mutation UpdateBoardList($listId: ListID!, $position: Int) {
  updateBoardList(input: { listId: $listId, position: $position }) { list { id position } errors }
}`;
const DESTROY_BOARD = `
mutation destroyBoard($id: BoardID!) {
  destroyBoard(input: { id: $id }) { board { id } errors }
}`;

interface RestBoard {
  id: number;
  name: string;
  lists: Array<{ id: number; position: number }>;
}

describe('board places across two replicas sharing one Redis', () => {
  let simulator: Simulator;
  let redis: TestRedis;
  let replicas: Replica[] = [];

  beforeAll(async () => {
    [simulator, redis] = await Promise.all([startSimulator(), startRedis()]);
    replicas = await startReplicas(2, { V4_URL: simulator.url, REDIS_URL: redis.url, REDIS_KEY_SECRET: KEY_SECRET, REDIS_KEY_PREFIX: PREFIX });
  }, 60_000);

  afterAll(async () => {
    for (const replica of replicas) replica.child.kill('SIGKILL');
    await Promise.all(replicas.map((replica) => replica.exited));
    await redis?.close();
    await simulator?.close();
  });

  /** Waits until a replica has told Redis an entry (writes go out once per turn of its event loop). */
  async function sharedValue(key: string): Promise<string> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const value = await redis.client.get(`${PREFIX}${key}`);
      if (value !== null) return value;
      if (Date.now() > deadline) throw new Error(`${key} never reached Redis`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('updates on the second replica a board read on the first, by its ID alone, and moves a list the second made on the first', async () => {
    const [first, second] = replicas as [Replica, Replica];
    const oracle = restOracle(simulator);
    const created = await oracle.call<RestBoard>('POST', `/projects/${PROJECT_ID}/boards?name=Shared`, developer);
    expect(created.status).toBe(201);
    const board = created.body;
    const boardId = `gid://gitlab/Board/${board.id}`;

    // Neither replica has seen it: refused before any REST call.
    simulator.resetRequests();
    const unseen = await second.post({ query: UPDATE_BOARD, variables: { input: { id: boardId, name: 'Too soon' } } }, developer);
    expect(unseen.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'id' });
    expect(restCalls(simulator)).toEqual([]);

    const page = await first.post({ query: BOARD_PAGE, variables: { fullPath: PROJECT, boardId } }, developer);
    expect(page.body.errors).toBeUndefined();
    expect(await sharedValue(`board-place:${board.id}`)).toBe(`project:${PROJECT_ID}`);

    simulator.resetRequests();
    const renamed = await second.post({ query: UPDATE_BOARD, variables: { input: { id: boardId, name: 'Shared board' } } }, developer);
    expect(renamed.body).toEqual({ data: { updateBoard: { board: { id: boardId, name: 'Shared board' }, errors: [] } } });
    expect(restCalls(simulator)).toEqual([`PUT /projects/${PROJECT_ID}/boards/${board.id}`]);
    expect((await oracle.get<RestBoard>(`/projects/${PROJECT_ID}/boards/${board.id}`, developer)).name).toBe('Shared board');

    // Two lists made on the second replica; the first moves one by its ID alone.
    const labels = (await oracle.get<Array<{ id: number }>>(`/projects/${PROJECT_ID}/labels?per_page=2`, developer)).map((label) => `gid://gitlab/Label/${label.id}`);
    const lists: string[] = [];
    for (const labelId of labels) {
      const made = await second.post({ query: CREATE_BOARD_LIST, variables: { boardId, labelId } }, developer);
      expect(made.body.errors).toBeUndefined();
      lists.push((made.body.data as { boardListCreate: { list: { id: string } } }).boardListCreate.list.id);
    }
    const movedId = Number(lists[1]!.split('/').pop());
    expect(await sharedValue(`list-board:${movedId}`)).toBe(String(board.id));
    const moved = await first.post({ query: UPDATE_BOARD_LIST, variables: { listId: lists[1], position: 0 } }, developer);
    expect(moved.body).toEqual({ data: { updateBoardList: { list: { id: lists[1], position: 0 }, errors: [] } } });
    expect((await oracle.get<RestBoard>(`/projects/${PROJECT_ID}/boards/${board.id}`, developer)).lists.map((list) => list.id)).toEqual([movedId, Number(lists[0]!.split('/').pop())]);

    const destroyed = await first.post({ query: DESTROY_BOARD, variables: { id: boardId } }, admin);
    expect(destroyed.body).toEqual({ data: { destroyBoard: { board: null, errors: [] } } });
    expect((await oracle.call('GET', `/projects/${PROJECT_ID}/boards/${board.id}`, developer)).status).toBe(404);
  });

  it('keeps places bounded and expiring, with no credential in them', async () => {
    const entries = await redis.dump();
    const places = [...entries].filter(([key]) => /^gw-boards:(board-place|list-board)s?(:|$)/.test(key));
    expect(places.length).toBeGreaterThan(0);
    for (const [key, value] of places) {
      expect(await redis.client.pttl(key)).toBeGreaterThan(0);
      for (const token of Object.values(DEMO_TOKENS)) expect(`${key} ${value}`).not.toContain(token);
    }
    // Each entry is recorded in its index, which bounds how many there can be.
    expect(entries.has(`${PREFIX}board-places`)).toBe(true);
    expect(entries.has(`${PREFIX}list-boards`)).toBe(true);
  });
});
