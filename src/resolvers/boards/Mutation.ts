import type { CreateBoardInput, MutationResolvers, UpdateBoardInput, Resolvers } from '../../__generated__/resolvers-types.js';
import type { BoardChanges, BoardKey, BoardListTarget, BoardParent } from '../../datasources/boards.js';
import { declared } from '../../fields/declaration.js';
import type { BoardListRecord } from '../../records/boards.js';
import type { GatewayContext } from '../../server/context.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { idFromGlobalId } from '../global-id.js';
import { isSet } from '../input.js';
import { refusalReasons } from '../refusals.js';
import { boardParentFromInput, locateBoard, locateList, underBoardParents } from './key.js';
import { boardLists } from './lists.js';
import { isListRef, type ListRef } from './record.js';
import { BOARD } from '../../cost/shapes.js';
import { embedded } from '../../cost/field-cost.js';
import { recordField } from '../../fields/patterns.js';

/** rest-v4-api.md "Limits": a board's weight scope is 0 to 9. */
const MAX_BOARD_WEIGHT = 9;

/** GitLab's Boards::Lists::DestroyService answer for the Open and Closed lists. */
const UNDESTROYABLE_LIST = 'Open and closed lists on a board cannot be destroyed.';

function checkName(name: string): string {
  if (!name.trim()) throw badUserInput('`name` must not be empty.', 'name');
  return name.trim();
}

/** The settings and scope of `createBoard` and `updateBoard` in REST's names, checked before any REST call. */
function boardChanges(input: CreateBoardInput | UpdateBoardInput): BoardChanges {
  const changes: BoardChanges = {};
  if (isSet(input.hideBacklogList)) changes.hide_backlog_list = input.hideBacklogList;
  if (isSet(input.hideClosedList)) changes.hide_closed_list = input.hideClosedList;
  if (isSet(input.assigneeId)) changes.assignee_id = idFromGlobalId(input.assigneeId, 'User', 'assigneeId');
  if (isSet(input.milestoneId)) changes.milestone_id = idFromGlobalId(input.milestoneId, 'Milestone', 'milestoneId');
  if (isSet(input.labels)) {
    if (input.labels.some((label) => !label.trim() || label.includes(','))) {
      throw badUserInput('`labels` entries must be non-empty label names without commas.', 'labels');
    }
    changes.labels = input.labels.join(',');
  }
  if (isSet(input.weight)) {
    if (!Number.isInteger(input.weight) || input.weight < 0 || input.weight > MAX_BOARD_WEIGHT) {
      throw badUserInput(`\`weight\` must be 0 to ${MAX_BOARD_WEIGHT}; got ${input.weight}.`, 'weight');
    }
    changes.weight = input.weight;
  }
  return changes;
}

/** REST's label list page size: a board's scope labels are looked up among the first 100 (ancestor groups' included). */
const LABELS_PAGE = { page: 1, perPage: 100 };

/** GitLab's `labelIds`, checked before any REST call; at most one of `labels` and `labelIds`. */
function scopeLabelIds(input: CreateBoardInput | UpdateBoardInput): number[] | null {
  if (!isSet(input.labelIds)) return null;
  if (isSet(input.labels)) throw badUserInput('Give `labels` (names) or `labelIds`, not both.', 'labelIds');
  return input.labelIds.map((id) => idFromGlobalId(id, 'Label', 'labelIds'));
}

/**
 * REST scopes a board by label names: GitLab's `labelIds` become the names of those of the parent's
 * labels (one `GET .../labels`); an id the parent does not have is left out, as GitLab's board
 * service leaves out labels it cannot find.
 */
async function labelNames(parent: BoardParent, ids: readonly number[], api: GatewayContext['api']): Promise<string> {
  const filters = { includeAncestorGroups: true };
  const page = 'project' in parent ? await api.labels.forProject(parent.project, filters, LABELS_PAGE) : await api.labels.forGroup(parent.group, filters, LABELS_PAGE);
  return page.items.filter((label) => label.id !== undefined && ids.includes(label.id)).map((label) => label.name).join(',');
}

/** Exactly one list kind (rest-v4-api.md "Limits": board list scope; GitLab's `backlog` besides). */
function listTarget(input: { backlog?: boolean | null; labelId?: string | null; assigneeId?: string | null; milestoneId?: string | null }): BoardListTarget | 'backlog' {
  const given = [input.backlog || null, input.labelId, input.assigneeId, input.milestoneId].filter(isSet).length;
  if (given !== 1) throw badUserInput(`Give exactly one of \`backlog\`, \`labelId\`, \`assigneeId\` and \`milestoneId\`; got ${given}.`, 'input');
  if (input.backlog) return 'backlog';
  if (isSet(input.labelId)) return { label_id: idFromGlobalId(input.labelId, 'Label', 'labelId') };
  if (isSet(input.assigneeId)) return { assignee_id: idFromGlobalId(input.assigneeId, 'User', 'assigneeId') };
  return { milestone_id: idFromGlobalId(input.milestoneId!, 'Milestone', 'milestoneId') };
}

/** Runs a board write; a refusal by REST becomes `errors` (and no value) instead of an error. */
async function refusable<T>(run: () => Promise<T>): Promise<{ errors: string[]; value: T | null }> {
  try {
    return { errors: [], value: await run() };
  } catch (error) {
    const reasons = refusalReasons(error);
    if (reasons) return { errors: reasons, value: null };
    throw error;
  }
}

/** The list a write names, found among the board's lists (one `GET` of the board); null when the board has none such. */
async function findList(key: BoardKey, ref: ListRef, { api, loaders }: GatewayContext): Promise<BoardListRecord | null> {
  const board = await loaders.board.load(key);
  return (await boardLists(board, api)).find((record) => isListRef(record, ref)) ?? null;
}

/** A stored list's record, as `boardListCreate` and `updateBoardList` answer it, completed with its board. */
async function storedListRecord(key: BoardKey, listId: number, context: GatewayContext): Promise<BoardListRecord | null> {
  context.loaders.board.clear(key);
  return findList(key, { kind: 'stored', id: listId }, context);
}

/** The board's read and, when its record lacks them, its lists' (findList). */
const FIND_LIST_REST = [...underBoardParents('GET', '/boards/:board_id'), ...underBoardParents('GET', '/boards/:board_id/lists')];
/** The parent's labels, for `labelIds` (labelNames). */
const LABELS_REST = underBoardParents('GET', '/labels');

type BoardMutations = 'createBoard' | 'updateBoard' | 'destroyBoard' | 'boardListCreate' | 'updateBoardList' | 'destroyBoardList';

const boardMutations: Pick<MutationResolvers, BoardMutations> = {
  // REST's create takes the name only: settings and scope follow in a PUT. GET .../labels for
  // `labelIds`, the POST, then a PUT when the input has settings or scope.
  createBoard: declared({ calls: 3, rest: [...LABELS_REST, ...underBoardParents('POST', '/boards'), ...underBoardParents('PUT', '/boards/:board_id')] }, async (_parent, { input }, { api }) => {
    const parent = boardParentFromInput(input);
    if (!isSet(input.name)) throw badUserInput('`name` is required: REST creates a board by its name.', 'name');
    const name = checkName(input.name);
    const changes = boardChanges(input);
    const labelIds = scopeLabelIds(input);
    const { errors, value } = await refusable(async () => {
      if (labelIds) changes.labels = await labelNames(parent, labelIds, api);
      const board = await api.boards.create(parent, name);
      return Object.keys(changes).length > 0 ? api.boards.edit({ ...parent, boardId: board.id }, changes) : board;
    });
    return { clientMutationId: input.clientMutationId ?? null, errors, board: value };
  }),

  // GET .../labels for `labelIds`, then the PUT.
  updateBoard: declared({ calls: 2, rest: [...LABELS_REST, ...underBoardParents('PUT', '/boards/:board_id')] }, async (_parent, { input }, { api, loaders }) => {
    const key = await locateBoard(input, input.id, 'id', api);
    const changes = boardChanges(input);
    if (isSet(input.name)) changes.name = checkName(input.name);
    const labelIds = scopeLabelIds(input);
    if (Object.keys(changes).length === 0 && !labelIds) throw badUserInput('Give at least one field to change.', 'input');
    const { errors, value } = await refusable(async () => {
      if (labelIds) changes.labels = await labelNames(key, labelIds, api);
      return api.boards.edit(key, changes);
    });
    loaders.board.clear(key);
    return { clientMutationId: input.clientMutationId ?? null, errors, board: value };
  }),

  // GitLab answers the board only when it stays; once deleted, null. The DELETE, and a GET of the
  // board when REST refused (the payload then holds it).
  destroyBoard: declared({ calls: 2, rest: [...underBoardParents('DELETE', '/boards/:board_id'), ...underBoardParents('GET', '/boards/:board_id')] }, async (_parent, { input }, { api, loaders }) => {
    const key = await locateBoard(input, input.id, 'id', api);
    const { errors } = await refusable(() => api.boards.remove(key));
    loaders.board.clear(key);
    const board = errors.length > 0 ? await loaders.board.load(key) : null;
    return { clientMutationId: input.clientMutationId ?? null, errors, board };
  }),

  // The write, then a GET of the board whose record holds the list's.
  boardListCreate: declared({ calls: 2, rest: [...underBoardParents('PUT', '/boards/:board_id'), ...underBoardParents('POST', '/boards/:board_id/lists'), ...FIND_LIST_REST] }, async (_parent, { input }, context) => {
    const key = await locateBoard(input, input.boardId, 'boardId', context.api);
    const target = listTarget(input);
    if (target === 'backlog') {
      // The Open list exists unless hidden: showing it is what creating it means over REST.
      const { errors, value } = await refusable(() => context.api.boards.edit(key, { hide_backlog_list: false }));
      context.loaders.board.clear(key);
      const list = value && (await findList(key, { kind: 'backlog', boardId: key.boardId }, context));
      return { clientMutationId: input.clientMutationId ?? null, errors, list: list ?? null };
    }
    const { errors, value } = await refusable(() => context.api.boards.createList(key, target));
    const list = value && (await storedListRecord(key, value.id, context));
    return { clientMutationId: input.clientMutationId ?? null, errors, list: list ?? null };
  }),

  // The PUT, then a GET of the board whose record holds the list's.
  updateBoardList: declared({ calls: 2, rest: [...underBoardParents('PUT', '/boards/:board_id/lists/:list_id'), ...FIND_LIST_REST] }, async (_parent, { input }, context) => {
    // GitLab's `collapsed` is a per-user preference that REST neither stores nor shows.
    if (isSet(input.collapsed)) throw badUserInput('`collapsed` cannot be set: it is a per-user preference that REST neither stores nor shows. Move a list with `position`.', 'collapsed');
    const { key, ref } = await locateList(input, input.listId, 'listId', context.api);
    if (!isSet(input.position)) throw badUserInput('Give `position`: it is the one thing REST changes on a list (GitLab\'s `collapsed` is a per-user setting REST lacks).', 'position');
    if (input.position < 0) throw badUserInput(`\`position\` counts from 0; got ${input.position}.`, 'position');
    if (ref.kind !== 'stored') return { clientMutationId: input.clientMutationId ?? null, errors: ['The Open and Closed lists cannot be moved.'], list: await findList(key, ref, context) };
    const position = input.position;
    const { errors, value } = await refusable(() => context.api.boards.moveList(key, ref.id, position));
    const list = value && (await storedListRecord(key, value.id, context));
    return { clientMutationId: input.clientMutationId ?? null, errors, list: list ?? null };
  }),

  // GitLab answers the list only when it stays; once deleted, null. The DELETE, and a GET of the
  // board when REST refused.
  destroyBoardList: declared({ calls: 2, rest: [...underBoardParents('DELETE', '/boards/:board_id/lists/:list_id'), ...FIND_LIST_REST] }, async (_parent, { input }, context) => {
    const { key, ref } = await locateList(input, input.listId, 'listId', context.api);
    if (ref.kind !== 'stored') return { clientMutationId: input.clientMutationId ?? null, errors: [UNDESTROYABLE_LIST], list: await findList(key, ref, context) };
    const { errors } = await refusable(() => context.api.boards.removeList(key, ref.id));
    context.loaders.board.clear(key);
    const list = errors.length > 0 ? await findList(key, ref, context) : null;
    return { clientMutationId: input.clientMutationId ?? null, errors, list };
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Mutation: boardMutations, CreateBoardPayload: { board: recordField(embedded(BOARD)) }, UpdateBoardPayload: { board: recordField(embedded(BOARD)) }, DestroyBoardPayload: { board: recordField(embedded(BOARD)) } };
