// GET, POST, PUT and DELETE /projects/:id/boards (rest-v4-api.md "Issue boards (project)") and the
// same under /groups/:id/boards (GitLab's doc/api/group_boards.md): one set of handlers, since GitLab
// serves both from `API::BoardsResponses` with the board's parent as the only difference.
import type { Board } from '../../data/model.js';
import { boardEntity } from '../../entities/boards.js';
import { badRequest } from '../../http/errors.js';
import { paginate } from '../../http/pagination.js';
import { p } from '../../http/params.js';
import { created, noContent, ok } from '../../http/response.js';
import type { RequestContext, Router } from '../../http/router.js';
import { BOARD_PARENTS, boardLabelsNamed, boardOf, boardsOf, isBoardMilestone, requireBoardAdmin, type BoardParent } from './access.js';

/** rest-v4-api.md "Limits": a board's weight scope is 0 to 9. */
export const BOARD_WEIGHTS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] as const;

type UpdateParams = {
  assignee_id?: number | undefined;
  milestone_id?: number | undefined;
  labels?: string[] | undefined;
  weight?: number | undefined;
  name?: string | undefined;
  hide_backlog_list?: boolean | undefined;
  hide_closed_list?: boolean | undefined;
};

/**
 * The PREMIUM scope of a board. Unknown labels are left out and an assignee or milestone the board's
 * parent does not have clears the scope, as Boards::UpdateService filters them.
 */
function applyScope(ctx: RequestContext<UpdateParams>, board: Board): void {
  const { state } = ctx;
  const { assignee_id: assigneeId, milestone_id: milestoneId, labels, weight } = ctx.params;
  if (assigneeId !== undefined) board.assigneeId = state.users.has(assigneeId) ? assigneeId : null;
  if (milestoneId !== undefined) board.milestoneId = isBoardMilestone(ctx, board, milestoneId) ? milestoneId : null;
  if (labels !== undefined) board.labelIds = boardLabelsNamed(ctx, board, labels);
  if (weight !== undefined) board.weight = weight;
}

function newBoard(id: number, parent: BoardParent, name: string): Board {
  return {
    id,
    projectId: parent.kind === 'project' ? parent.project.id : null,
    groupId: parent.kind === 'group' ? parent.group.id : null,
    name,
    hideBacklogList: false,
    hideClosedList: false,
    milestoneId: null,
    assigneeId: null,
    labelIds: [],
    weight: null,
  };
}

export function registerBoardRoutes(router: Router): void {
  const parentParams = { id: p.string().required() };
  const boardParams = { ...parentParams, board_id: p.integer().required() };

  for (const { prefix, find } of BOARD_PARENTS) {
    router.get(`${prefix}/boards`, { auth: 'required', paginated: true, params: parentParams }, (ctx) => {
      return paginate(ctx, boardsOf(ctx, find(ctx, ctx.params.id)), (board) => boardEntity(ctx, board));
    });

    router.get(`${prefix}/boards/:board_id`, { auth: 'required', params: boardParams }, (ctx) => {
      return ok(boardEntity(ctx, boardOf(ctx, find(ctx, ctx.params.id), ctx.params.board_id)));
    });

    router.post(`${prefix}/boards`, { auth: 'required', params: { ...parentParams, name: p.string().required() } }, (ctx) => {
      const parent = find(ctx, ctx.params.id);
      requireBoardAdmin(ctx, parent);
      if (ctx.params.name.trim() === '') throw badRequest('Name can\'t be blank');
      const board = newBoard(ctx.state.nextId('boards'), parent, ctx.params.name.trim());
      ctx.state.boards.set(board.id, board);
      return created(boardEntity(ctx, board));
    });

    router.put(
      `${prefix}/boards/:board_id`,
      {
        auth: 'required',
        params: {
          ...boardParams,
          name: p.string(),
          hide_backlog_list: p.boolean(),
          hide_closed_list: p.boolean(),
          assignee_id: p.integer(),
          milestone_id: p.integer(),
          labels: p.stringArray().commaSeparated(),
          weight: p.integer().values(BOARD_WEIGHTS),
        },
      },
      (ctx) => {
        const parent = find(ctx, ctx.params.id);
        requireBoardAdmin(ctx, parent);
        const board = boardOf(ctx, parent, ctx.params.board_id);
        if (ctx.params.name !== undefined) {
          if (ctx.params.name.trim() === '') throw badRequest('Name can\'t be blank');
          board.name = ctx.params.name.trim();
        }
        if (ctx.params.hide_backlog_list !== undefined) board.hideBacklogList = ctx.params.hide_backlog_list;
        if (ctx.params.hide_closed_list !== undefined) board.hideClosedList = ctx.params.hide_closed_list;
        applyScope(ctx, board);
        return ok(boardEntity(ctx, board, { updated: true }));
      },
    );

    router.delete(`${prefix}/boards/:board_id`, { auth: 'required', params: boardParams }, (ctx) => {
      const parent = find(ctx, ctx.params.id);
      requireBoardAdmin(ctx, parent);
      const board = boardOf(ctx, parent, ctx.params.board_id);
      ctx.state.boards.delete(board.id);
      for (const list of [...ctx.state.boardLists.values()]) if (list.boardId === board.id) ctx.state.boardLists.delete(list.id);
      return noContent();
    });
  }
}
