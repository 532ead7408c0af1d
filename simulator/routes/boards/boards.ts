// GET, POST, PUT and DELETE /projects/:id/boards (rest-v4-api.md "Issue boards (project)").
import type { Board } from '../../data/model.js';
import { boardEntity } from '../../entities/boards.js';
import { badRequest } from '../../http/errors.js';
import { paginate } from '../../http/pagination.js';
import { p } from '../../http/params.js';
import { created, noContent, ok } from '../../http/response.js';
import type { RequestContext, Router } from '../../http/router.js';
import { boardOf, boardsProject, requireBoardAdmin } from './access.js';

/** rest-v4-api.md "Limits": a board's weight scope is 0 to 9. */
export const BOARD_WEIGHTS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] as const;

type UpdateParams = { assignee_id?: number | undefined; milestone_id?: number | undefined; labels?: string[] | undefined; weight?: number | undefined; name?: string | undefined };

/**
 * The PREMIUM scope of a board. Unknown labels are left out and an assignee or milestone the project
 * does not have clears the scope, as Boards::UpdateService filters them.
 */
function applyScope(ctx: RequestContext<UpdateParams>, board: Board): void {
  const { state } = ctx;
  const { assignee_id: assigneeId, milestone_id: milestoneId, labels, weight } = ctx.params;
  if (assigneeId !== undefined) board.assigneeId = state.users.has(assigneeId) ? assigneeId : null;
  if (milestoneId !== undefined) board.milestoneId = state.milestones.get(milestoneId)?.projectId === board.projectId ? milestoneId : null;
  if (labels !== undefined) {
    board.labelIds = [...state.labels.values()].filter((label) => label.projectId === board.projectId && labels.includes(label.name)).map((label) => label.id);
  }
  if (weight !== undefined) board.weight = weight;
}

export function registerBoardRoutes(router: Router): void {
  const projectParams = { id: p.string().required() };
  const boardParams = { ...projectParams, board_id: p.integer().required() };

  router.get('/projects/:id/boards', { auth: 'required', paginated: true, params: projectParams }, (ctx) => {
    const project = boardsProject(ctx, ctx.params.id);
    const boards = [...ctx.state.boards.values()].filter((board) => board.projectId === project.id);
    return paginate(ctx, boards, (board) => boardEntity(ctx, board));
  });

  router.get('/projects/:id/boards/:board_id', { auth: 'required', params: boardParams }, (ctx) => {
    const project = boardsProject(ctx, ctx.params.id);
    return ok(boardEntity(ctx, boardOf(ctx, project, ctx.params.board_id)));
  });

  router.post('/projects/:id/boards', { auth: 'required', params: { ...projectParams, name: p.string().required() } }, (ctx) => {
    const project = boardsProject(ctx, ctx.params.id);
    requireBoardAdmin(ctx, project);
    if (ctx.params.name.trim() === '') throw badRequest('Name can\'t be blank');
    const id = ctx.state.nextId('boards');
    const board: Board = { id, projectId: project.id, name: ctx.params.name.trim(), milestoneId: null, assigneeId: null, labelIds: [], weight: null };
    ctx.state.boards.set(id, board);
    return created(boardEntity(ctx, board));
  });

  router.put(
    '/projects/:id/boards/:board_id',
    {
      auth: 'required',
      params: {
        ...boardParams,
        name: p.string(),
        assignee_id: p.integer(),
        milestone_id: p.integer(),
        labels: p.stringArray().commaSeparated(),
        weight: p.integer().values(BOARD_WEIGHTS),
      },
    },
    (ctx) => {
      const project = boardsProject(ctx, ctx.params.id);
      requireBoardAdmin(ctx, project);
      const board = boardOf(ctx, project, ctx.params.board_id);
      if (ctx.params.name !== undefined) {
        if (ctx.params.name.trim() === '') throw badRequest('Name can\'t be blank');
        board.name = ctx.params.name.trim();
      }
      applyScope(ctx, board);
      return ok(boardEntity(ctx, board, { updated: true }));
    },
  );

  router.delete('/projects/:id/boards/:board_id', { auth: 'required', params: boardParams }, (ctx) => {
    const project = boardsProject(ctx, ctx.params.id);
    requireBoardAdmin(ctx, project);
    const board = boardOf(ctx, project, ctx.params.board_id);
    ctx.state.boards.delete(board.id);
    for (const list of [...ctx.state.boardLists.values()]) if (list.boardId === board.id) ctx.state.boardLists.delete(list.id);
    return noContent();
  });
}
