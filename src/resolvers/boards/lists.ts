import type { BoardListSchema, BoardSchema } from '../../datasources/boards.js';
import type { DataSources } from '../../datasources/index.js';
import type { IssueListFilters } from '../../datasources/issues.js';
import type { BoardListRecord } from '../../records/boards.js';
import { boardKeyOf } from './key.js';
import { boardListRecords } from './record.js';

/** REST's page size limit: a board's stored lists are read in one page (GitLab boards hold far fewer). */
const LISTS_PAGE = { page: 1, perPage: 100 };

/** The board's stored lists: from its record, where REST embeds them, or else one `GET .../lists`. */
export async function storedLists(board: BoardSchema, api: DataSources): Promise<BoardListSchema[]> {
  if (board.lists) return board.lists;
  return (await api.boards.lists(boardKeyOf(board), LISTS_PAGE)).items;
}

/** Every list of the board as GitLab shows them, the Open and Closed lists included. */
export async function boardLists(board: BoardSchema, api: DataSources, issueFilters?: IssueListFilters): Promise<BoardListRecord[]> {
  const stored = await storedLists(board, api);
  return boardListRecords(board.lists ? board : { ...board, lists: stored }, stored, issueFilters);
}
