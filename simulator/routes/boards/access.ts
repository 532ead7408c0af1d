// Who may see and change a project's or a group's boards (GitLab's `read_issue_board`,
// `admin_issue_board`, `admin_issue_board_list`). rest-v4-api.md: every board call must be
// authenticated; deleting a list takes an administrator or an owner of the board's project or group.
import { groupAccessLevel, projectAccessLevel } from '../../data/access.js';
import { labelsOfGroups, labelsOfProject, milestoneById } from '../../data/labels.js';
import { AccessLevel, type Board, type BoardList, type Group, type GroupLabel, type Label, type Project } from '../../data/model.js';
import { forbidden, messageError } from '../../http/errors.js';
import type { RequestContext } from '../../http/router.js';
import { visibleGroup, visibleProject } from '../lookup.js';

/** Where a board lives: `/projects/:id/boards` or `/groups/:id/boards` (GitLab's `board_parent`). */
export type BoardParent = { kind: 'project'; project: Project } | { kind: 'group'; group: Group };

/** The two route prefixes, each with how it finds its parent. */
export const BOARD_PARENTS = [
  { prefix: '/projects/:id', find: boardsProject },
  { prefix: '/groups/:id', find: boardsGroup },
] as const;

/** The project of a board route: visible (404) and with issues on (403). */
export function boardsProject(ctx: RequestContext<unknown>, idOrPath: string): BoardParent {
  const project = visibleProject(ctx, idOrPath);
  if (!project.issuesEnabled) throw forbidden();
  return { kind: 'project', project };
}

/** The group of a group board route: visible (404). */
export function boardsGroup(ctx: RequestContext<unknown>, idOrPath: string): BoardParent {
  return { kind: 'group', group: visibleGroup(ctx, idOrPath) };
}

function accessLevel(ctx: RequestContext<unknown>, parent: BoardParent): number {
  return parent.kind === 'project' ? projectAccessLevel(ctx.state, ctx.user, parent.project) : groupAccessLevel(ctx.state, ctx.user, parent.group);
}

/** Creating, updating and deleting boards, and creating and moving lists: Reporter and above. */
export function requireBoardAdmin(ctx: RequestContext<unknown>, parent: BoardParent): void {
  if (!ctx.user?.isAdmin && accessLevel(ctx, parent) < AccessLevel.REPORTER) throw forbidden();
}

/** Deleting a list: administrators and owners of the project or group only. */
export function requireListDestroyer(ctx: RequestContext<unknown>, parent: BoardParent): void {
  if (!ctx.user?.isAdmin && accessLevel(ctx, parent) < AccessLevel.OWNER) throw forbidden();
}

/** Whether the board belongs to this parent. */
export function isBoardOf(board: Board, parent: BoardParent): boolean {
  return parent.kind === 'project' ? board.projectId === parent.project.id : board.groupId === parent.group.id;
}

/** The parent's boards, in id order. */
export function boardsOf(ctx: RequestContext<unknown>, parent: BoardParent): Board[] {
  return [...ctx.state.boards.values()].filter((board) => isBoardOf(board, parent));
}

/** `board_parent.boards.find(id)`: ActiveRecord's RecordNotFound answers `404 Not found`. */
export function boardOf(ctx: RequestContext<unknown>, parent: BoardParent, boardId: number): Board {
  const board = ctx.state.boards.get(boardId);
  if (!board || !isBoardOf(board, parent)) throw messageError(404, '404 Not found');
  return board;
}

export function listOf(ctx: RequestContext<unknown>, board: Board, listId: number): BoardList {
  const list = ctx.state.boardLists.get(listId);
  if (!list || list.boardId !== board.id) throw messageError(404, '404 Not found');
  return list;
}

/** The groups whose labels and milestones a board may use: its project's group or its own group, and every group above. */
function groupsOfBoard(ctx: RequestContext<unknown>, board: Board): Group[] {
  const project = board.projectId === null ? undefined : ctx.state.projects.get(board.projectId);
  const group = project ? ctx.state.projectGroup(project) : ctx.state.groups.get(board.groupId!);
  return group ? [group, ...ctx.state.groupAncestors(group)] : [];
}

/**
 * A label a board may use (GitLab's `board_parent` available labels): a project board's project
 * labels and its groups' labels; a group board's group labels, of its group and the groups above.
 */
export function isBoardLabel(ctx: RequestContext<unknown>, board: Board, labelId: number): boolean {
  const label: Label | GroupLabel | undefined = ctx.state.labels.get(labelId) ?? ctx.state.groupLabels.get(labelId);
  if (!label) return false;
  if ('projectId' in label) return label.projectId === board.projectId;
  return groupsOfBoard(ctx, board).some((group) => group.id === label.groupId);
}

/** The labels a board may use that bear one of these names (Boards::UpdateService's `labels`). */
export function boardLabelsNamed(ctx: RequestContext<unknown>, board: Board, names: readonly string[]): number[] {
  const project = board.projectId === null ? undefined : ctx.state.projects.get(board.projectId);
  const available = project ? labelsOfProject(ctx.state, project, true) : labelsOfGroups(ctx.state, groupsOfBoard(ctx, board));
  return available.filter((label) => names.includes(label.name)).map((label) => label.id);
}

/** A milestone a board may use, by the same rule as its labels. */
export function isBoardMilestone(ctx: RequestContext<unknown>, board: Board, milestoneId: number): boolean {
  const milestone = milestoneById(ctx.state, milestoneId);
  if (!milestone) return false;
  if ('projectId' in milestone) return milestone.projectId === board.projectId;
  return groupsOfBoard(ctx, board).some((group) => group.id === milestone.groupId);
}

/** A user a board's assignee list may name: a member (Guest and above) of the board's project or group. */
export function isBoardMember(ctx: RequestContext<unknown>, board: Board, userId: number): boolean {
  const user = ctx.state.users.get(userId);
  if (!user) return false;
  if (board.projectId !== null) {
    const project = ctx.state.projects.get(board.projectId);
    return project !== undefined && projectAccessLevel(ctx.state, user, project) >= AccessLevel.GUEST;
  }
  const group = ctx.state.groups.get(board.groupId!);
  return group !== undefined && groupAccessLevel(ctx.state, user, group) >= AccessLevel.GUEST;
}
