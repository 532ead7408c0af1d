import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

interface RestLabel {
  id: number;
  name: string;
  color: string;
  description: string | null;
}
interface RestList {
  id: number;
  label: RestLabel | null;
  position: number;
  max_issue_count: number;
  assignee: { username: string } | null;
  milestone: { id: number; title: string } | null;
}
interface RestBoard {
  id: number;
  name: string;
  hide_backlog_list: boolean;
  hide_closed_list: boolean;
  project: { id: number; path_with_namespace: string };
  milestone: { id: number; title: string } | null;
  assignee: { username: string } | null;
  labels: RestLabel[];
  weight: number | null;
  lists: RestList[];
}
interface Connection<T> {
  count: number | null;
  nodes: T[];
}
interface GqlList {
  id: string;
  listType?: string;
  position: number | null;
  label: { id: string; title: string; color: string } | null;
}

const { admin, maintainer, developer, guest } = DEMO_TOKENS;
const boardGid = (id: number) => `gid://gitlab/Board/${id}`;
const listGid = (id: number | string) => `gid://gitlab/List/${id}`;

/** A board's lists as the gateway shows them: Open unless hidden, REST's label lists, Closed unless hidden. */
function expectedLists(board: RestBoard) {
  const composed = (kind: string) => ({ id: listGid(`${kind}${board.id}`), position: null, label: null });
  return [
    ...(board.hide_backlog_list ? [] : [composed('backlog')]),
    ...board.lists.map((list) => ({ id: listGid(list.id), position: list.position, label: list.label && { id: `gid://gitlab/Label/${list.label.id}`, title: list.label.name, color: list.label.color } })),
    ...(board.hide_closed_list ? [] : [composed('closed')]),
  ];
}

describe('issue boards over real HTTP', () => {
  const harness = gatewayOverSimulator();
  const query = <T>(text: string, token: string, variables: Record<string, unknown> = {}) => harness.gateway.query<T>(text, variables, token);

  describe('reads', () => {
    it('lists boards with their lists and labels from one REST call', async () => {
      const result = await query<{ project: { boards: Connection<{ id: string; name: string; weight: number | null; project: { fullPath: string }; milestone: { title: string } | null; lists: Connection<GqlList> }> } }>(
        `{ project(fullPath: "gitlab-org/gitaly") { boards { count nodes { id name weight project { fullPath } milestone { title }
             lists { count nodes { id position label { id title color } } } } } } }`,
        guest,
      );
      expect(result.errors).toBeUndefined();
      const rest = await harness.oracle.get<RestBoard[]>('/projects/gitlab-org%2Fgitaly/boards', guest);
      expect(rest.length).toBeGreaterThan(1);
      expect(result.data!.project.boards).toEqual({
        count: rest.length,
        nodes: rest.map((board) => ({
          id: boardGid(board.id),
          name: board.name,
          weight: board.weight,
          project: { fullPath: board.project.path_with_namespace },
          milestone: board.milestone ? { title: board.milestone.title } : null,
          lists: { count: expectedLists(board).length, nodes: expectedLists(board) },
        })),
      });
      // The project and its boards, both by path and so at once: lists and labels are in the board records.
      expect(restCalls(harness.simulator).sort()).toEqual(['GET /projects/gitlab-org%2Fgitaly', 'GET /projects/gitlab-org%2Fgitaly/boards']);
    });

    it('answers an empty list for a project without boards', async () => {
      const result = await query<{ project: { boards: Connection<unknown> } }>(`{ project(fullPath: "gitlab-org/omnibus-gitlab") { boards { count nodes { id } } } }`, guest);
      expect(result).toEqual({ data: { project: { boards: { count: 0, nodes: [] } } } });
    });

    it('reads one board and one of its lists, and null for what does not exist', async () => {
      const [board] = await harness.oracle.get<RestBoard[]>('/projects/gitlab-org%2Fgitaly/boards', guest);
      const list = board!.lists[1]!;
      const result = await query<{ project: { board: { name: string; lists: Connection<{ id: string; label: { title: string } }>; missing: Connection<unknown> }; none: null } }>(
        `{ project(fullPath: "gitlab-org/gitaly") { board(id: "${boardGid(board!.id)}") { name lists(id: "${listGid(list.id)}") { count nodes { id label { title } } } missing: lists(id: "${listGid(999999)}") { count nodes { id } } }
             none: board(id: "${boardGid(999999)}") { id } } }`,
        guest,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data!.project).toEqual({
        board: { name: board!.name, lists: { count: 1, nodes: [{ id: listGid(list.id), label: { title: list.label!.name } }] }, missing: { count: 0, nodes: [] } },
        none: null,
      });
      expect(restCalls(harness.simulator).sort()).toEqual(['GET /projects/3/boards/999999', `GET /projects/3/boards/${board!.id}`, 'GET /projects/gitlab-org%2Fgitaly'].sort());
    });

    it('needs a credential: an anonymous caller is UNAUTHENTICATED', async () => {
      const result = await harness.gateway.query(`{ project(fullPath: "gitlab-org/gitaly") { boards { count } } }`);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
    });
  });

  describe('board mutations', () => {
    it('creates a board, scopes it (PREMIUM), and deletes it', async () => {
      const created = await query<{ createBoard: { errors: string[]; board: { id: string; name: string; lists: Connection<unknown> } } }>(
        `mutation { createBoard(input: { projectPath: "gitlab-org/gitlab", name: "Release" }) { errors board { id name lists { count } } } }`,
        developer,
      );
      expect(created.errors).toBeUndefined();
      const board = created.data!.createBoard.board;
      // A new board has its Open and Closed lists only.
      expect(board).toMatchObject({ name: 'Release', lists: { count: 2 } });

      const milestone = (await harness.oracle.get<Array<{ milestone: { id: number; title: string } | null }>>('/projects/1/issues?milestone=v1.1&per_page=1', developer))[0]!.milestone!;
      const updated = await query<{ updateBoard: { errors: string[]; board: { name: string; weight: number; milestone: { title: string; state: string }; assignee: { username: string }; labels: { nodes: Array<{ title: string }> } } } }>(
        `mutation($id: BoardID!, $milestone: MilestoneID!) { updateBoard(input: { projectPath: "gitlab-org/gitlab", id: $id, name: "Release 2", weight: 9, labels: ["bug", "security"],
             milestoneId: $milestone, assigneeId: "gid://gitlab/User/3" }) { errors board { name weight milestone { title state } assignee { username } labels { nodes { title } } } } }`,
        developer,
        { id: board.id, milestone: `gid://gitlab/Milestone/${milestone.id}` },
      );
      expect(updated.errors).toBeUndefined();
      expect(updated.data!.updateBoard).toMatchObject({ errors: [], board: { name: 'Release 2', weight: 9, milestone: { title: 'v1.1', state: 'active' }, assignee: { username: 'developer' } } });
      expect(updated.data!.updateBoard.board.labels.nodes.map((label) => label.title).sort()).toEqual(['bug', 'security']);
      const put = harness.simulator.requests.find((request) => request.method === 'PUT')!;
      expect(put.path).toBe(`/projects/gitlab-org%2Fgitlab/boards/${board.id.split('/').pop()!}`);

      const destroyed = await query(`mutation($id: BoardID!) { destroyBoard(input: { projectPath: "gitlab-org/gitlab", id: $id }) { errors } }`, developer, { id: board.id });
      expect(destroyed).toEqual({ data: { destroyBoard: { errors: [] } } });
      const gone = await query<{ project: { board: null } }>(`query($id: BoardID!) { project(fullPath: "gitlab-org/gitlab") { board(id: $id) { id } } }`, developer, { id: board.id });
      expect(gone).toEqual({ data: { project: { board: null } } });
    });

    it.each([
      ['weight: 10', 'weight'],
      ['weight: -1', 'weight'],
      ['name: " "', 'name'],
      ['labels: ["a,b"]', 'labels'],
      ['', 'input'],
    ])('updateBoard refuses %s before any REST call', async (fields, argumentName) => {
      const result = await query(`mutation { updateBoard(input: { projectPath: "gitlab-org/gitlab", id: "gid://gitlab/Board/1" ${fields} }) { errors } }`, developer);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName });
      expect(restCalls(harness.simulator)).toEqual([]);
    });

    it('is FORBIDDEN to guests', async () => {
      const result = await query(`mutation { createBoard(input: { projectPath: "gitlab-org/gitlab", name: "Mine" }) { errors } }`, guest);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
    });
  });

  describe('list mutations', () => {
    /** A fresh board of gitlab-org/gitlab with lists for the first `count` labels its issues use, through the gateway. */
    async function boardWithLists(count: number): Promise<{ id: string; labels: string[]; labelIds: Map<string, string> }> {
      const created = await query<{ createBoard: { board: { id: string } } }>(`mutation { createBoard(input: { projectPath: "gitlab-org/gitlab", name: "Lists" }) { board { id } } }`, developer);
      const id = created.data!.createBoard.board.id;
      const issues = await harness.oracle.get<Array<{ labels: RestLabel[] }>>('/projects/1/issues?with_labels_details=true&labels=Any&per_page=100', developer);
      const labelIds = new Map<string, string>();
      for (const issue of issues) for (const label of issue.labels) labelIds.set(label.name, `gid://gitlab/Label/${label.id}`);
      const labels = [...labelIds.keys()].slice(0, count);
      expect(labels).toHaveLength(count);
      for (const name of labels) {
        const result = await query<{ boardListCreate: { errors: string[]; list: GqlList } }>(
          `mutation($board: BoardID!, $label: LabelID!) { boardListCreate(input: { projectPath: "gitlab-org/gitlab", boardId: $board, labelId: $label }) { errors list { id position label { title } } } }`,
          developer,
          { board: id, label: labelIds.get(name) },
        );
        expect(result.data!.boardListCreate).toMatchObject({ errors: [], list: { label: { title: name } } });
      }
      return { id, labels, labelIds };
    }

    const listsOf = async (boardId: string) =>
      (
        await query<{ project: { board: { lists: Connection<GqlList> } } }>(
          `query($id: BoardID!) { project(fullPath: "gitlab-org/gitlab") { board(id: $id) { lists { nodes { id listType position label { title } } } } } }`,
          developer,
          { id: boardId },
        )
      ).data!.project.board.lists.nodes.filter((list) => list.listType === 'label');

    it('adds label lists, refuses a label listed already in the payload, and moves lists', async () => {
      const board = await boardWithLists(3);
      const [first, second, third] = board.labels as [string, string, string];
      const duplicate = await query<{ boardListCreate: { errors: string[]; list: null } }>(
        `mutation($board: BoardID!, $label: LabelID!) { boardListCreate(input: { projectPath: "gitlab-org/gitlab", boardId: $board, labelId: $label }) { errors list { id } } }`,
        developer,
        { board: board.id, label: board.labelIds.get(first) },
      );
      expect(duplicate).toEqual({ data: { boardListCreate: { errors: ['Label has already been taken'], list: null } } });

      const before = await listsOf(board.id);
      expect(before.map((list) => [list.label!.title, list.position])).toEqual([[first, 0], [second, 1], [third, 2]]);
      const moved = await query<{ updateBoardList: { errors: string[]; list: { position: number } } }>(
        `mutation($board: BoardID!, $list: ListID!) { updateBoardList(input: { projectPath: "gitlab-org/gitlab", boardId: $board, listId: $list, position: 0 }) { errors list { position } } }`,
        developer,
        { board: board.id, list: before[2]!.id },
      );
      expect(moved).toEqual({ data: { updateBoardList: { errors: [], list: { position: 0 } } } });
      expect((await listsOf(board.id)).map((list) => [list.label!.title, list.position])).toEqual([[third, 0], [first, 1], [second, 2]]);

      const tooFar = await query(
        `mutation($board: BoardID!, $list: ListID!) { updateBoardList(input: { projectPath: "gitlab-org/gitlab", boardId: $board, listId: $list, position: 3 }) { errors list { position } } }`,
        developer,
        { board: board.id, list: before[0]!.id },
      );
      expect(tooFar).toEqual({ data: { updateBoardList: { errors: ['List could not be moved!'], list: null } } });
    });

    it('adds assignee and milestone lists (PREMIUM)', async () => {
      const board = await boardWithLists(0);
      const byAssignee = await query<{ boardListCreate: { list: { label: null; assignee: { username: string } } } }>(
        `mutation($board: BoardID!) { boardListCreate(input: { projectPath: "gitlab-org/gitlab", boardId: $board, assigneeId: "gid://gitlab/User/3" }) { errors list { label { title } assignee { username } } } }`,
        developer,
        { board: board.id },
      );
      expect(byAssignee.data!.boardListCreate.list).toEqual({ label: null, assignee: { username: 'developer' } });
      const milestone = (await harness.oracle.get<Array<{ milestone: { id: number; title: string } }>>('/projects/1/issues?milestone=Any&per_page=1', developer))[0]!.milestone;
      const byMilestone = await query<{ boardListCreate: { list: { milestone: { title: string } } } }>(
        `mutation($board: BoardID!, $milestone: MilestoneID!) { boardListCreate(input: { projectPath: "gitlab-org/gitlab", boardId: $board, milestoneId: $milestone }) { list { milestone { title } } } }`,
        developer,
        { board: board.id, milestone: `gid://gitlab/Milestone/${milestone.id}` },
      );
      expect(byMilestone.data!.boardListCreate.list.milestone.title).toBe(milestone.title);
    });

    it.each([
      ['', 0],
      ['labelId: "gid://gitlab/Label/1", milestoneId: "gid://gitlab/Milestone/1"', 2],
      ['labelId: "gid://gitlab/Label/1", assigneeId: "gid://gitlab/User/1", milestoneId: "gid://gitlab/Milestone/1"', 3],
    ])('boardListCreate refuses %s (not exactly one target) before any REST call', async (targets, count) => {
      const result = await query(`mutation { boardListCreate(input: { projectPath: "gitlab-org/gitlab", boardId: "gid://gitlab/Board/1" ${targets} }) { errors } }`, developer);
      expect(result.errors?.[0]).toMatchObject({ message: expect.stringContaining(`got ${count}`) as string, extensions: { code: 'BAD_USER_INPUT', argumentName: 'input' } });
      expect(restCalls(harness.simulator)).toEqual([]);
    });

    it('lets administrators and project owners delete a list, and nobody else', async () => {
      const board = await boardWithLists(1);
      const [list] = await listsOf(board.id);
      const text = `mutation($board: BoardID!, $list: ListID!) { destroyBoardList(input: { projectPath: "gitlab-org/gitlab", boardId: $board, listId: $list }) { errors } }`;
      const byMaintainer = await query(text, maintainer, { board: board.id, list: list!.id });
      expect(byMaintainer.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
      const byAdmin = await query(text, admin, { board: board.id, list: list!.id });
      expect(byAdmin).toEqual({ data: { destroyBoardList: { errors: [] } } });
      expect(await listsOf(board.id)).toEqual([]);
    });
  });
});
