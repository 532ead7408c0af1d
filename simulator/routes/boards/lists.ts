// The lists of a board (rest-v4-api.md "Issue boards (project)", GitLab's doc/api/group_boards.md;
// lib/api/boards.rb, group_boards.rb and the Boards::Lists services): exactly one of label, assignee
// (PREMIUM) or milestone (PREMIUM) per list, positions kept 0..n-1 when a list is moved, added or
// removed. Project and group boards share the handlers.
import type { Board, BoardList } from '../../data/model.js';
import { boardListEntity, listsOfBoard } from '../../entities/boards.js';
import { grapeError, messageError, nestedMessageError } from '../../http/errors.js';
import { paginate } from '../../http/pagination.js';
import { p } from '../../http/params.js';
import { created, noContent, ok } from '../../http/response.js';
import type { RequestContext, Router } from '../../http/router.js';
import {
  BOARD_PARENTS,
  boardOf,
  isBoardLabel,
  isBoardMember,
  isBoardMilestone,
  listOf,
  requireBoardAdmin,
  requireListDestroyer,
} from './access.js';

const LIST_KINDS = ['label_id', 'assignee_id', 'milestone_id'] as const;

function renumber(lists: BoardList[]): void {
  lists.forEach((list, position) => (list.position = position));
}

type CreateParams = { label_id?: number | undefined; assignee_id?: number | undefined; milestone_id?: number | undefined };

/** The one target of a new list, checked as `authorize_list_type_resource!` does (404 when unknown). */
function target(ctx: RequestContext<CreateParams>, board: Board): Pick<BoardList, 'labelId' | 'assigneeId' | 'milestoneId'> {
  const given = LIST_KINDS.filter((kind) => ctx.params[kind] !== undefined);
  // Grape's `exactly_one_of`.
  if (given.length === 0) throw grapeError(400, `${LIST_KINDS.join(', ')} are missing, exactly one parameter must be provided`);
  if (given.length > 1) throw grapeError(400, `${given.join(', ')} are mutually exclusive`);
  if (ctx.params.label_id !== undefined) {
    if (!isBoardLabel(ctx, board, ctx.params.label_id)) throw messageError(404, '404 Label Not Found');
    return { labelId: ctx.params.label_id, assigneeId: null, milestoneId: null };
  }
  if (ctx.params.milestone_id !== undefined) {
    if (!isBoardMilestone(ctx, board, ctx.params.milestone_id)) throw messageError(404, '404 Milestone Not Found');
    return { labelId: null, assigneeId: null, milestoneId: ctx.params.milestone_id };
  }
  if (!isBoardMember(ctx, board, ctx.params.assignee_id!)) throw messageError(404, '404 User Not Found');
  return { labelId: null, assigneeId: ctx.params.assignee_id!, milestoneId: null };
}

function alreadyListed(lists: BoardList[], wanted: Pick<BoardList, 'labelId' | 'assigneeId' | 'milestoneId'>): string | null {
  if (wanted.labelId !== null && lists.some((list) => list.labelId === wanted.labelId)) return 'Label has already been taken';
  if (wanted.assigneeId !== null && lists.some((list) => list.assigneeId === wanted.assigneeId)) return 'User has already been taken';
  if (wanted.milestoneId !== null && lists.some((list) => list.milestoneId === wanted.milestoneId))
    return 'Milestone has already been taken';
  return null;
}

export function registerBoardListRoutes(router: Router): void {
  const boardParams = { id: p.string().required(), board_id: p.integer().required() };
  const listParams = { ...boardParams, list_id: p.integer().required() };

  for (const { prefix, find } of BOARD_PARENTS) {
    const base = `${prefix}/boards/:board_id/lists`;

    router.get(base, { auth: 'required', paginated: true, params: boardParams }, (ctx) => {
      const board = boardOf(ctx, find(ctx, ctx.params.id), ctx.params.board_id);
      return paginate(ctx, listsOfBoard(ctx, board), (list) => boardListEntity(ctx, list));
    });

    router.get(`${base}/:list_id`, { auth: 'required', params: listParams }, (ctx) => {
      const board = boardOf(ctx, find(ctx, ctx.params.id), ctx.params.board_id);
      return ok(boardListEntity(ctx, listOf(ctx, board, ctx.params.list_id)));
    });

    router.post(
      base,
      { auth: 'required', params: { ...boardParams, label_id: p.integer(), assignee_id: p.integer(), milestone_id: p.integer() } },
      (ctx) => {
        const parent = find(ctx, ctx.params.id);
        const board = boardOf(ctx, parent, ctx.params.board_id);
        const wanted = target(ctx, board);
        requireBoardAdmin(ctx, parent);
        const lists = listsOfBoard(ctx, board);
        // Boards::Lists::CreateService errors come back as render_api_error!({ error: ... }, 400).
        const taken = alreadyListed(lists, wanted);
        if (taken) throw nestedMessageError(400, taken);
        const id = ctx.state.nextId('boardLists');
        const list: BoardList = {
          id,
          boardId: board.id,
          ...wanted,
          position: lists.length,
          maxIssueCount: 0,
          maxIssueWeight: 0,
          limitMetric: null,
        };
        ctx.state.boardLists.set(id, list);
        return created(boardListEntity(ctx, list));
      },
    );

    router.put(`${base}/:list_id`, { auth: 'required', params: { ...listParams, position: p.integer().required() } }, (ctx) => {
      const parent = find(ctx, ctx.params.id);
      const board = boardOf(ctx, parent, ctx.params.board_id);
      const list = listOf(ctx, board, ctx.params.list_id);
      requireBoardAdmin(ctx, parent);
      const others = listsOfBoard(ctx, board).filter((other) => other.id !== list.id);
      const position = ctx.params.position;
      // Boards::Lists::MoveService#valid_move?: a position among the movable lists.
      if (position < 0 || position > others.length) throw nestedMessageError(400, 'List could not be moved!');
      others.splice(position, 0, list);
      renumber(others);
      return ok(boardListEntity(ctx, list));
    });

    router.delete(`${base}/:list_id`, { auth: 'required', params: listParams }, (ctx) => {
      const parent = find(ctx, ctx.params.id);
      requireListDestroyer(ctx, parent);
      const board = boardOf(ctx, parent, ctx.params.board_id);
      const list = listOf(ctx, board, ctx.params.list_id);
      ctx.state.boardLists.delete(list.id);
      renumber(listsOfBoard(ctx, board));
      return noContent();
    });
  }
}
