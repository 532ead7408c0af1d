import type { GroupResolvers, ProjectResolvers, QueryResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import type { BoardParent, BoardSchema } from '../../datasources/boards.js';
import type { DataSources } from '../../datasources/index.js';
import type { Page, PageRequest } from '../../datasources/pagination.js';
import type { ProjectSchema } from '../../datasources/projects.js';
import type { GroupSchema } from '../../datasources/groups.js';
import { restConnection } from '../../connections/connection.js';
import { oneCall, restList } from '../../cost/field-cost.js';
import { BOARD } from '../../cost/shapes.js';
import { declared } from '../../fields/declaration.js';
import { idFromGlobalId } from '../global-id.js';
import { isSet } from '../input.js';
import { listField, type ParentList } from '../lookahead.js';
import { nullWhenNotFound } from '../lookups.js';
import { boardIssueFilters } from './list-issues.js';
import { locateList, underBoardParents } from './key.js';
import { boardLists } from './lists.js';
import { isListRef } from './record.js';
import { withFields } from '../../datasources/with-fields.js';

/** A board read through its project or group names it, even if REST's record left it out. */
const ofProject = (board: BoardSchema, project: ProjectSchema): BoardSchema => (board.project ? board : withFields(board, { project: { id: project.id, web_url: project.web_url } }));
const ofGroup = (board: BoardSchema, group: GroupSchema): BoardSchema => (board.group ? board : withFields(board, { group: { id: group.id, name: group.name, web_url: group.web_url } }));

/** `boards(id:)`: that one board (`GET .../boards/:board_id`) as a page of one, or of none when it is missing. */
async function oneBoardPage(api: DataSources, parent: BoardParent, boardId: number, page: PageRequest): Promise<Page<BoardSchema>> {
  const board = page.page === 1 ? await nullWhenNotFound(api.boards.show({ ...parent, boardId })) : null;
  const items = board ? [board] : [];
  return { items, page: page.page, perPage: page.perPage, hasNextPage: false, total: items.length };
}

/** `GET /projects/:id/boards` and `GET /groups/:id/boards` take the id or the full path: a parent looked up by path sends it early. */
function boardsOf(parentOf: (idOrPath: number | string) => BoardParent): ParentList<{ id?: string | null }, { boardId: number | null }, BoardSchema> {
  return {
    filters: (args) => ({ boardId: isSet(args.id) ? idFromGlobalId(args.id, 'Board', 'id') : null }),
    page: (api, parent, { boardId }, page) => (boardId === null ? api.boards.all(parentOf(parent), page) : oneBoardPage(api, parentOf(parent), boardId, page)),
  };
}

/** A parent's boards, or with `id` that one board. */
const PROJECT_BOARDS = { ...restList(BOARD), rest: ['GET /projects/:id/boards', 'GET /projects/:id/boards/:board_id'] };
const GROUP_BOARDS = { ...restList(BOARD), rest: ['GET /groups/:id/boards', 'GET /groups/:id/boards/:board_id'] };

/** `Project.boards` and `Project.board(id:)`, spread into the Project resolvers. */
const projectBoardFields: Pick<ProjectResolvers, 'boards' | 'board'> = {
  boards: declared(
    PROJECT_BOARDS,
    listField(boardsOf((project) => ({ project })), (pages, args, _filters, project: ProjectSchema) =>
      restConnection(args, async (page) => {
        const result = await pages(page);
        return { ...result, items: result.items.map((board) => ofProject(board, project)) };
      }),
    ),
  ),
  board: declared({ ...oneCall(BOARD), rest: ['GET /projects/:id/boards/:board_id'] }, async (project, { id }, { loaders }) => {
    const board = await nullWhenNotFound(loaders.board.load({ project: project.id, boardId: idFromGlobalId(id, 'Board', 'id') }));
    return board && ofProject(board, project);
  }),
};

/** `Group.boards` and `Group.board(id:)`, spread into the Group resolvers. */
const groupBoardFields: Pick<GroupResolvers, 'boards' | 'board'> = {
  boards: declared(
    GROUP_BOARDS,
    listField(boardsOf((group) => ({ group })), (pages, args, _filters, group: GroupSchema) =>
      restConnection(args, async (page) => {
        const result = await pages(page);
        return { ...result, items: result.items.map((board) => ofGroup(board, group)) };
      }),
    ),
  ),
  board: declared({ ...oneCall(BOARD), rest: ['GET /groups/:id/boards/:board_id'] }, async (group, { id }, { loaders }) => {
    const board = await nullWhenNotFound(loaders.board.load({ group: group.id, boardId: idFromGlobalId(id, 'Board', 'id') }));
    return board && ofGroup(board, group);
  }),
};

/** `Query.boardList`: the board's record holds its lists, so one read of the board answers it. */
const boardListQuery: Pick<QueryResolvers, 'boardList'> = {
  // The board's record holds its lists (one page of .../lists when it does not).
  boardList: declared(
    { calls: 2, rest: [...underBoardParents('GET', '/boards/:board_id'), ...underBoardParents('GET', '/boards/:board_id/lists')] },
    async (_parent, args, { api, loaders }) => {
      const { key, ref } = await locateList(args, args.id, 'id', api);
      const filters = boardIssueFilters(args.issueFilters);
      const board = await nullWhenNotFound(loaders.board.load(key));
      if (!board) return null;
      return (await boardLists(board, api, filters)).find((record) => isListRef(record, ref)) ?? null;
    },
  ),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Query: boardListQuery, Group: groupBoardFields, Project: projectBoardFields };
