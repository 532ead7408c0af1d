import type { MutationResolvers, UpdateBoardInput } from '../../__generated__/resolvers-types.js';
import type { BoardChanges, BoardListTarget } from '../../datasources/boards.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { idFromGlobalId } from '../global-id.js';
import { refusalReasons } from '../refusals.js';
import { checkFullPath } from '../projects/Query.js';
import { boardKeyFromInput } from './key.js';
import { isSet } from '../input.js';


/** rest-v4-api.md "Limits": a board's weight scope is 0 to 9. */
const MAX_BOARD_WEIGHT = 9;

function checkName(name: string): string {
  if (!name.trim()) throw badUserInput('`name` must not be empty.', 'name');
  return name.trim();
}

/** The changes of `updateBoard` in REST's names, checked before any REST call. */
function boardChanges(input: UpdateBoardInput): BoardChanges {
  const changes: BoardChanges = {};
  if (isSet(input.name)) changes.name = checkName(input.name);
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
  if (Object.keys(changes).length === 0) throw badUserInput('Give at least one field to change.', 'input');
  return changes;
}

/** Exactly one of label, assignee and milestone (rest-v4-api.md "Limits": board list scope). */
function listTarget(input: { labelId?: string | null; assigneeId?: string | null; milestoneId?: string | null }): BoardListTarget {
  const given = [input.labelId, input.assigneeId, input.milestoneId].filter(isSet).length;
  if (given !== 1) throw badUserInput(`Give exactly one of \`labelId\`, \`assigneeId\` and \`milestoneId\`; got ${given}.`, 'input');
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

export const boardMutations: Pick<MutationResolvers, 'createBoard' | 'updateBoard' | 'destroyBoard' | 'boardListCreate' | 'updateBoardList' | 'destroyBoardList'> = {
  async createBoard(_parent, { input }, { api }) {
    const project = checkFullPath(input.projectPath, 'projectPath');
    const name = checkName(input.name);
    const { errors, value } = await refusable(() => api.boards.create(project, name));
    return { clientMutationId: input.clientMutationId ?? null, errors, board: value };
  },

  async updateBoard(_parent, { input }, { api, loaders }) {
    const key = boardKeyFromInput(input.projectPath, input.id, 'id');
    const changes = boardChanges(input);
    const { errors, value } = await refusable(() => api.boards.edit(key, changes));
    loaders.board.clear(key);
    return { clientMutationId: input.clientMutationId ?? null, errors, board: value };
  },

  async destroyBoard(_parent, { input }, { api, loaders }) {
    const key = boardKeyFromInput(input.projectPath, input.id, 'id');
    const { errors } = await refusable(() => api.boards.remove(key));
    loaders.board.clear(key);
    return { clientMutationId: input.clientMutationId ?? null, errors };
  },

  async boardListCreate(_parent, { input }, { api, loaders }) {
    const key = boardKeyFromInput(input.projectPath, input.boardId, 'boardId');
    const target = listTarget(input);
    const { errors, value } = await refusable(() => api.boards.createList(key, target));
    loaders.board.clear(key);
    return { clientMutationId: input.clientMutationId ?? null, errors, list: value };
  },

  async updateBoardList(_parent, { input }, { api, loaders }) {
    const key = boardKeyFromInput(input.projectPath, input.boardId, 'boardId');
    const listId = idFromGlobalId(input.listId, 'List', 'listId');
    if (input.position < 0) throw badUserInput(`\`position\` counts from 0; got ${input.position}.`, 'position');
    const { errors, value } = await refusable(() => api.boards.moveList(key, listId, input.position));
    loaders.board.clear(key);
    return { clientMutationId: input.clientMutationId ?? null, errors, list: value };
  },

  async destroyBoardList(_parent, { input }, { api, loaders }) {
    const key = boardKeyFromInput(input.projectPath, input.boardId, 'boardId');
    const listId = idFromGlobalId(input.listId, 'List', 'listId');
    const { errors } = await refusable(() => api.boards.removeList(key, listId));
    loaders.board.clear(key);
    return { clientMutationId: input.clientMutationId ?? null, errors };
  },
};
