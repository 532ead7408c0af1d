// Who may see and change a project's boards (GitLab's `read_issue_board`, `admin_issue_board`,
// `admin_issue_board_list`). rest-v4-api.md: every board call must be authenticated; deleting a
// list takes an administrator or a project owner.
import { projectAccessLevel } from '../../data/access.js';
import { AccessLevel, type Board, type BoardList, type Project } from '../../data/model.js';
import { forbidden, messageError } from '../../http/errors.js';
import type { RequestContext } from '../../http/router.js';
import { visibleProject } from '../lookup.js';

/** The project of a board route: visible (404) and with issues on (403). */
export function boardsProject(ctx: RequestContext<unknown>, idOrPath: string): Project {
  const project = visibleProject(ctx, idOrPath);
  if (!project.issuesEnabled) throw forbidden();
  return project;
}

/** Creating, updating and deleting boards, and creating and moving lists: Reporter and above. */
export function requireBoardAdmin(ctx: RequestContext<unknown>, project: Project): void {
  if (!ctx.user?.isAdmin && projectAccessLevel(ctx.state, ctx.user, project) < AccessLevel.REPORTER) throw forbidden();
}

/** Deleting a list: administrators and project owners only. */
export function requireListDestroyer(ctx: RequestContext<unknown>, project: Project): void {
  if (!ctx.user?.isAdmin && projectAccessLevel(ctx.state, ctx.user, project) < AccessLevel.OWNER) throw forbidden();
}

/** `board_parent.boards.find(id)`: ActiveRecord's RecordNotFound answers `404 Not found`. */
export function boardOf(ctx: RequestContext<unknown>, project: Project, boardId: number): Board {
  const board = ctx.state.boards.get(boardId);
  if (!board || board.projectId !== project.id) throw messageError(404, '404 Not found');
  return board;
}

export function listOf(ctx: RequestContext<unknown>, board: Board, listId: number): BoardList {
  const list = ctx.state.boardLists.get(listId);
  if (!list || list.boardId !== board.id) throw messageError(404, '404 Not found');
  return list;
}
