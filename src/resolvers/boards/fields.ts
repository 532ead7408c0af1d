import type { ProjectResolvers } from '../../__generated__/resolvers-types.js';
import type { BoardSchema } from '../../datasources/boards.js';
import type { ProjectSchema } from '../../datasources/projects.js';
import { restConnection } from '../../connections/connection.js';
import { idFromGlobalId } from '../global-id.js';
import { listField, type ParentList } from '../lookahead.js';
import { nullWhenNotFound } from '../lookups.js';

/** A board read through its project names that project, even if REST's record left it out. */
const ofProject = (board: BoardSchema, project: ProjectSchema): BoardSchema => (board.project ? board : { ...board, project: { id: project.id } });

/** `GET /projects/:id/boards` takes the id or the full path: a project looked up by path sends it early. */
const boardList: ParentList<object, Record<string, never>, BoardSchema> = {
  filters: () => ({}),
  page: (api, project, _filters, page) => api.boards.all(project, page),
};

/** `Project.boards` and `Project.board(id:)`, spread into the Project resolvers. */
export const projectBoardFields: Pick<ProjectResolvers, 'boards' | 'board'> = {
  boards: listField(boardList, (pages, args, _filters, project: ProjectSchema) =>
    restConnection(args, async (page) => {
      const result = await pages(page);
      return { ...result, items: result.items.map((board) => ofProject(board, project)) };
    }),
  ),
  async board(project, { id }, { loaders }) {
    const board = await nullWhenNotFound(loaders.board.load({ project: project.id, boardId: idFromGlobalId(id, 'Board', 'id') }));
    return board && ofProject(board, project);
  },
};
