// `issueMoveList`: a card dragged on a board. Between two lists it is what GitLab's
// Boards::Issues::MoveService does, in one REST `PUT /projects/:id/issues/:issue_iid`: the target
// label list's label added; the source list's label removed, or every label list's label on the way
// to Open or Closed; closed into the Closed list, reopened out of it; a milestone list's milestone
// set (and cleared on the way from one to Open); an assignee list's user added, and the source
// assignee list's user removed. Within its list, `PUT .../reorder` between its new neighbours.
import type { IssueMoveListInput, MutationResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import type { BoardKey, IssueNeighbours } from '../../datasources/boards.js';
import type { IssueKey, IssueSchema, IssueWriteBody } from '../../datasources/issues.js';
import type { GatewayContext } from '../../server/context.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import type { BoardListRecord } from '../../records/boards.js';
import { idFromGlobalId } from '../global-id.js';
import { isSet } from '../input.js';
import { issueKeyFromInput } from '../issues/key.js';
import { checkFullPath } from '../projects/Query.js';
import { refusalReasons } from '../refusals.js';
import { labelListNames, listIssueFilters, listIssuesPage } from './list-issues.js';
import { boardLists } from './lists.js';
import { underBoardParents } from './key.js';
import { isListRef, parseListRef, type ListRef } from './record.js';
import { ISSUE_RECORD } from '../../cost/shapes.js';
import { embedded } from '../../cost/field-cost.js';
import { recordField } from '../../fields/patterns.js';

/** An issue named by GitLab's `moveBeforeId`/`moveAfterId`: a numeric id or `gid://gitlab/Issue/<id>`. */
function issueIdOf(value: string | null | undefined, argumentName: string): number | undefined {
  if (!isSet(value)) return undefined;
  if (/^\d{1,15}$/.test(value)) return Number(value);
  return idFromGlobalId(value, 'Issue', argumentName);
}

/** What the move asks, checked before any REST call. */
interface MovePlan {
  issue: IssueKey;
  board: BoardKey;
  lists: { from: ListRef; to: ListRef } | null;
  neighbours: IssueNeighbours;
  positionInList: number | null;
}

/**
 * The board of the move: the group `groupPath` names, else where REST's records said the board
 * lives (a group board GitLab's frontend names by `boardId` alone), else the issue's project.
 */
async function boardOfMove(input: IssueMoveListInput, issue: IssueKey, api: GatewayContext['api']): Promise<BoardKey> {
  const boardId = idFromGlobalId(input.boardId, 'Board', 'boardId');
  if (isSet(input.groupPath)) return { group: checkFullPath(input.groupPath, 'groupPath'), boardId };
  return { ...((await api.boards.parentOf(boardId)) ?? { project: issue.project }), boardId };
}

async function planOf(input: IssueMoveListInput, api: GatewayContext['api']): Promise<MovePlan> {
  const issue = issueKeyFromInput(input);
  const board = await boardOfMove(input, issue, api);
  if (isSet(input.fromListId) !== isSet(input.toListId)) throw badUserInput('Both `fromListId` and `toListId` must be present, or neither.', isSet(input.fromListId) ? 'toListId' : 'fromListId');
  const lists = isSet(input.fromListId) ? { from: parseListRef(input.fromListId, 'fromListId'), to: parseListRef(input.toListId!, 'toListId') } : null;
  const neighbours: IssueNeighbours = {};
  const before = issueIdOf(input.moveBeforeId, 'moveBeforeId');
  const after = issueIdOf(input.moveAfterId, 'moveAfterId');
  if (before !== undefined) neighbours.move_before_id = before;
  if (after !== undefined) neighbours.move_after_id = after;
  const positionInList = input.positionInList ?? null;
  if (positionInList !== null) {
    if (before !== undefined || after !== undefined) throw badUserInput('`positionInList` is mutually exclusive with `moveBeforeId` and `moveAfterId`.', 'positionInList');
    if (!lists) throw badUserInput('`positionInList` needs `fromListId` and `toListId`: it is a position in the target list.', 'positionInList');
    if (!Number.isInteger(positionInList) || positionInList < -1) throw badUserInput(`\`positionInList\` counts from 0, or is -1 for the end; got ${positionInList}.`, 'positionInList');
  }
  if (!lists && before === undefined && after === undefined) {
    throw badUserInput('Give `fromListId` and `toListId` to move between lists, or `moveBeforeId`/`moveAfterId` to order within one.', 'input');
  }
  return { issue, board, lists, neighbours, positionInList };
}

const isSameList = (from: ListRef, to: ListRef): boolean =>
  from.kind === 'stored' ? to.kind === 'stored' && to.id === from.id : to.kind === from.kind && to.boardId === from.boardId;

/** GitLab's `List#movable?` (EE): the lists whose condition a card takes on. */
const isMovable = (record: BoardListRecord): boolean => record.listType === 'label' || record.listType === 'milestone' || record.listType === 'assignee';

/** The REST changes of a move between two lists; the issue's current assignees are needed for an assignee list only. */
async function moveBody(from: BoardListRecord, to: BoardListRecord, currentIssue: () => Promise<IssueSchema>): Promise<IssueWriteBody> {
  const body: IssueWriteBody = {};
  const add = to.listType === 'label' ? [to.list!.label!.name] : [];
  const remove = (isMovable(to) ? (from.listType === 'label' ? [from.list!.label!.name] : []) : labelListNames(from)).filter((name) => !add.includes(name));
  if (add.length > 0) body.add_labels = add.join(',');
  if (remove.length > 0) body.remove_labels = remove.join(',');
  if (from.listType === 'closed') body.state_event = 'reopen';
  if (to.listType === 'closed') body.state_event = 'close';
  if (to.listType === 'milestone') body.milestone_id = to.list!.milestone!.id;
  // REST's `milestone_id=0` removes the milestone.
  else if (to.listType === 'backlog' && from.listType === 'milestone') body.milestone_id = 0;
  if (to.listType === 'assignee' || (from.listType === 'assignee' && to.listType === 'backlog')) {
    const current = (await currentIssue()).assignees?.map((user) => user.id) ?? [];
    const leaving = from.listType === 'assignee' ? from.list!.assignee!.id : undefined;
    const joining = to.listType === 'assignee' ? [to.list!.assignee!.id] : [];
    body.assignee_ids = [...new Set([...current.filter((id) => id !== leaving), ...joining])];
  }
  return body;
}

/** The neighbours at `positionInList` of the target list, read from it with the moved issue left out (one REST call). */
async function neighboursAt(to: BoardListRecord, movedId: number, position: number, api: GatewayContext['api']): Promise<IssueNeighbours> {
  const page = await listIssuesPage(api, to, listIssueFilters(to, {}), { page: 1, perPage: 100 });
  const others = page.items.filter((issue) => issue.id !== movedId);
  const index = position === -1 ? others.length : Math.min(position, others.length);
  const neighbours: IssueNeighbours = {};
  if (others[index - 1]) neighbours.move_before_id = others[index - 1]!.id;
  if (others[index]) neighbours.move_after_id = others[index].id;
  return neighbours;
}

async function findLists(plan: MovePlan, lists: { from: ListRef; to: ListRef }, { api, loaders }: GatewayContext): Promise<{ from: BoardListRecord; to: BoardListRecord }> {
  const records = await boardLists(await loaders.board.load(plan.board), api);
  const from = records.find((record) => isListRef(record, lists.from));
  const to = records.find((record) => isListRef(record, lists.to));
  if (!from) throw badUserInput('`fromListId` is not a list of this board.', 'fromListId');
  if (!to) throw badUserInput('`toListId` is not a list of this board.', 'toListId');
  return { from, to };
}

/** The board (and its lists when its record lacks them), the issue, its PUT, the target list's issues, the reorder. */
const ISSUE_MOVE_LIST_REST = [
  ...underBoardParents('GET', '/boards/:board_id'),
  ...underBoardParents('GET', '/boards/:board_id/lists'),
  'GET /projects/:id/issues/:issue_iid',
  'PUT /projects/:id/issues/:issue_iid',
  ...underBoardParents('GET', '/issues'),
  'PUT /projects/:id/issues/:issue_iid/reorder',
];

const issueMoveListMutation: Pick<MutationResolvers, 'issueMoveList'> = {
  // GET board, GET issue (assignee lists), PUT issue, GET the target list's issues (positionInList), PUT reorder.
  issueMoveList: declared({ calls: 5, rest: ISSUE_MOVE_LIST_REST }, async (_parent, { input }, context) => {
    const plan = await planOf(input, context.api);
    const { api, loaders } = context;
    const answer = (errors: string[], issue: IssueSchema | null) => ({ clientMutationId: input.clientMutationId ?? null, errors, issue });
    let issue: IssueSchema | null = null;
    let neighbours = plan.neighbours;
    try {
      if (plan.lists) {
        const { from, to } = await findLists(plan, plan.lists, context);
        if (!isSameList(plan.lists.from, plan.lists.to)) {
          const body = await moveBody(from, to, () => loaders.issue.load(plan.issue));
          if (Object.keys(body).length > 0) issue = await api.issues.edit(plan.issue, body);
        }
        if (plan.positionInList !== null && to.listType !== 'closed') {
          const movedId = issue?.id ?? (await loaders.issue.load(plan.issue)).id;
          neighbours = await neighboursAt(to, movedId, plan.positionInList, api);
        }
      }
      if (neighbours.move_before_id !== undefined || neighbours.move_after_id !== undefined) issue = await api.boards.reorderIssue(plan.issue, neighbours);
    } catch (error) {
      const reasons = refusalReasons(error);
      if (reasons) return answer(reasons, null);
      throw error;
    } finally {
      loaders.issue.clear(plan.issue);
    }
    return answer([], issue ?? (await loaders.issue.load(plan.issue)));
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Mutation: issueMoveListMutation, IssueMoveListPayload: { issue: recordField(embedded(ISSUE_RECORD)) } };
