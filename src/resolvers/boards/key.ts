import type { BoardKey, BoardSchema } from '../../datasources/boards.js';
import { GraphQLError } from 'graphql';
import { idFromGlobalId } from '../global-id.js';
import { checkFullPath } from '../projects/Query.js';

/** REST's name of a board record: its project (embedded in every board record) and its id. */
export function boardKeyOf(board: BoardSchema): BoardKey {
  const projectId = board.project?.id;
  if (projectId === undefined) throw new GraphQLError('The REST board record names no project.', { extensions: { code: 'UPSTREAM_ERROR' } });
  return { project: projectId, boardId: board.id };
}

/** The board a mutation names by `projectPath` and the board's global ID, checked before any REST call. */
export function boardKeyFromInput(projectPath: string, boardId: string, argumentName: string): BoardKey {
  return { project: checkFullPath(projectPath, 'projectPath'), boardId: idFromGlobalId(boardId, 'Board', argumentName) };
}
