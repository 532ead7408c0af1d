import type { ProjectResolvers } from '../../__generated__/resolvers-types.js';
import type { BoardSchema } from '../../datasources/boards.js';
import type { ProjectSchema } from '../../datasources/projects.js';
import { restConnection } from '../../connections/connection.js';
import { idFromGlobalId } from '../global-id.js';
import { nullWhenNotFound } from '../lookups.js';

/** A board read through its project names that project, even if REST's record left it out. */
const ofProject = (board: BoardSchema, project: ProjectSchema): BoardSchema => (board.project ? board : { ...board, project: { id: project.id } });

/** `Project.boards` and `Project.board(id:)`, spread into the Project resolvers. */
export const projectBoardFields: Pick<ProjectResolvers, 'boards' | 'board'> = {
  boards(project, args, { api }) {
    return restConnection(args, async (page) => {
      const result = await api.boards.all(project.id, page);
      return { ...result, items: result.items.map((board) => ofProject(board, project)) };
    });
  },
  async board(project, { id }, { loaders }) {
    const board = await nullWhenNotFound(loaders.board.load({ project: project.id, boardId: idFromGlobalId(id, 'Board', 'id') }));
    return board && ofProject(board, project);
  },
};
