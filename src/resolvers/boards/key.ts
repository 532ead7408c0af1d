// Where a board lives. REST finds a board only under its project or its group, and GitLab's inputs
// name a board by `BoardID` alone; the IDs stay GitLab's, and the one rule is (schema/boards.graphql):
// a board read through `Project.board`/`Group.board` carries its parent in its REST record, and an
// input that names a board by ID says where it lives by `projectPath` or `groupPath`, exactly one.
import type { BoardKey, BoardParent, BoardSchema } from '../../datasources/boards.js';
import { UpstreamShapeError, badUserInput } from '../../errors/graphql-errors.js';
import { idFromGlobalId } from '../global-id.js';
import { isSet } from '../input.js';
import { checkFullPath } from '../projects/Query.js';

/** The parent a REST board record names: its project (a project board) or its group. */
export function boardParentOf(board: BoardSchema): BoardParent {
  if (board.project?.id !== undefined) return { project: board.project.id };
  if (board.group?.id !== undefined) return { group: board.group.id };
  throw new UpstreamShapeError(`a board (${board.id}) that names neither its project nor its group`);
}

/** REST's name of a board record: its parent and its id. */
export function boardKeyOf(board: BoardSchema): BoardKey {
  return { ...boardParentOf(board), boardId: board.id };
}

/** The parent an input names by `projectPath` or `groupPath`, checked before any REST call. */
export function boardParentFromInput(input: { projectPath?: string | null; groupPath?: string | null }): BoardParent {
  const project = isSet(input.projectPath);
  if (project === isSet(input.groupPath)) {
    throw badUserInput('Give exactly one of `projectPath` (a project board) and `groupPath` (a group board): REST finds a board only under its project or group.', project ? 'groupPath' : 'projectPath');
  }
  return project ? { project: checkFullPath(input.projectPath!, 'projectPath') } : { group: checkFullPath(input.groupPath!, 'groupPath') };
}

/** The board an input names by its global ID and its parent's path. */
export function boardKeyFromInput(input: { projectPath?: string | null; groupPath?: string | null }, boardId: string, argumentName: string): BoardKey {
  return { ...boardParentFromInput(input), boardId: idFromGlobalId(boardId, 'Board', argumentName) };
}
