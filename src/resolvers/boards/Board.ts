import type { BoardListResolvers, BoardResolvers } from '../../__generated__/resolvers-types.js';
import { arrayConnection, restConnection } from '../../connections/connection.js';
import { idFromGlobalId, toGlobalId } from '../global-id.js';
import { nullWhenNotFound } from '../lookups.js';
import { boardKeyOf } from './key.js';

export const Board: BoardResolvers = {
  id: (board) => toGlobalId('Board', board.id),
  // REST embeds the board's lists; only a record without them costs `GET .../lists`.
  lists: (board, args, { api }) => (board.lists ? arrayConnection(args, board.lists) : restConnection(args, (page) => api.boards.lists(boardKeyOf(board), page))),
  list(board, { id }, { api }) {
    const listId = idFromGlobalId(id, 'List', 'id');
    if (board.lists) return board.lists.find((list) => list.id === listId) ?? null;
    return nullWhenNotFound(api.boards.showList(boardKeyOf(board), listId));
  },
};

export const BoardList: BoardListResolvers = {
  id: (list) => toGlobalId('List', list.id),
};
