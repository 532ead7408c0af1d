// Where a board lives. REST finds a board only under its project or its group, and a list only under
// its board, while GitLab's inputs name a board by `BoardID` and a list by `ListID` alone. The IDs
// stay GitLab's, and the gateway finds the REST path from what REST's own records told it
// (datasources/board-locator.ts: every board record names its project or group, every list is read
// under its board). A board this gateway has not seen yet may still be named with its parent, through
// the optional `projectPath`/`groupPath` (and a list's `boardId`): REST-driven extensions of GitLab's
// inputs. Otherwise the input is refused before any REST call, saying how to go on.
import type { BoardKey, BoardParent, BoardSchema } from '../../datasources/boards.js';
import type { DataSources } from '../../datasources/index.js';
import { UpstreamShapeError, badUserInput } from '../../errors/graphql-errors.js';
import { idFromGlobalId } from '../global-id.js';
import { isSet } from '../input.js';
import { checkFullPath } from '../projects/Query.js';
import { parseListRef, type ListRef } from './record.js';

/** The optional parent of GitLab's board and list inputs, a REST-driven extension. */
interface ParentInput {
  projectPath?: string | null;
  groupPath?: string | null;
}

/**
 * A board endpoint under either of its parents, as a field declares the routes it may call:
 * `underBoardParents('GET', '/boards/:board_id')` is the project's and the group's.
 */
export const underBoardParents = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string): string[] => [`${method} /projects/:id${path}`, `${method} /groups/:id${path}`];

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

/** The parent an input names by `projectPath` or `groupPath`, at most one; null when neither. */
function namedParent(input: ParentInput): BoardParent | null {
  const project = isSet(input.projectPath);
  const group = isSet(input.groupPath);
  if (project && group) throw badUserInput('Give `projectPath` (a project board) or `groupPath` (a group board), not both.', 'groupPath');
  if (project) return { project: checkFullPath(input.projectPath!, 'projectPath') };
  if (group) return { group: checkFullPath(input.groupPath!, 'groupPath') };
  return null;
}

/** `createBoard`'s parent: exactly one of `projectPath` and `groupPath`, as GitLab's input has it. */
export function boardParentFromInput(input: ParentInput): BoardParent {
  const parent = namedParent(input);
  if (!parent) throw badUserInput('Give `projectPath` (a project board) or `groupPath` (a group board).', 'projectPath');
  return parent;
}

/** Where the board `boardId` lives: the parent the input names, else where REST's records said. No REST call. */
async function locatedBoard(input: ParentInput, boardId: number, argumentName: string, api: DataSources): Promise<BoardKey> {
  const parent = namedParent(input) ?? (await api.boards.parentOf(boardId));
  if (!parent) {
    throw badUserInput(
      `gid://gitlab/Board/${boardId} has not been read through this gateway yet, and REST finds a board only under its project or group: read the board first (\`Project.board\`, \`Group.board\` or their \`boards\`), or give \`projectPath\` or \`groupPath\`.`,
      argumentName,
    );
  }
  return { ...parent, boardId };
}

/** The board an input names by its global ID, located before any REST call. */
export function locateBoard(input: ParentInput, boardGlobalId: string, argumentName: string, api: DataSources): Promise<BoardKey> {
  return locatedBoard(input, idFromGlobalId(boardGlobalId, 'Board', argumentName), argumentName, api);
}

/**
 * The list an input names by its global ID, and its board: the input's optional `boardId`, else the
 * board the Open and Closed lists' IDs name, else the board REST's records said; located before any
 * REST call.
 */
export async function locateList(input: ParentInput & { boardId?: string | null }, listGlobalId: string, argumentName: string, api: DataSources): Promise<{ key: BoardKey; ref: ListRef }> {
  const ref = parseListRef(listGlobalId, argumentName);
  const boardId = isSet(input.boardId) ? idFromGlobalId(input.boardId, 'Board', 'boardId') : ref.kind === 'stored' ? await api.boards.boardOfList(ref.id) : ref.boardId;
  if (boardId === undefined) {
    throw badUserInput(
      `${listGlobalId.slice(0, 100)} has not been read through this gateway yet, and REST finds a list only under its board: read its board first, or give \`boardId\` (with \`projectPath\` or \`groupPath\` when the board is not known either).`,
      argumentName,
    );
  }
  return { key: await locatedBoard(input, boardId, isSet(input.boardId) ? 'boardId' : argumentName, api), ref };
}
