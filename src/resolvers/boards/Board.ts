import type { BoardListResolvers, BoardResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import type { BoardSchema } from '../../datasources/boards.js';
import { arrayConnection, restConnection } from '../../connections/connection.js';
import { embedded, oneCall, restList, UNBOUNDED_ARRAY_ITEMS } from '../../cost/field-cost.js';
import { ISSUE_RECORD, LABEL_OF_BOARD, PROJECT_OF_BOARD, USER_SUMMARY } from '../../cost/shapes.js';
import { UpstreamShapeError } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import type { BoardListRecord } from '../../records/boards.js';
import { toGlobalId } from '../global-id.js';
import { isSet } from '../input.js';
import { pathOfWebUrl } from '../web-path.js';
import { boardIssueFilters, listIssueFilters, listIssuesPage } from './list-issues.js';
import { underBoardParents } from './key.js';
import { boardLists } from './lists.js';
import { isListRef, listIdTail, parseListRef } from './record.js';
import { recordField } from '../../fields/patterns.js';

/** GitLab's board page: `<project or group web_url>/-/boards/<id>`. */
function boardWebUrl(board: BoardSchema): string {
  const parentUrl = board.project?.web_url ?? board.group?.web_url;
  if (!parentUrl) throw new UpstreamShapeError(`a board (${board.id}) whose project or group has no web_url`);
  return `${parentUrl}/-/boards/${board.id}`;
}

/** A list's issues come from its board's project's or group's issue list. */
const LIST_ISSUES_REST = underBoardParents('GET', '/issues');

export const Board: BoardResolvers = {
  assignee: recordField(embedded(USER_SUMMARY)),
  project: recordField(embedded(PROJECT_OF_BOARD)),
  id: (board) => toGlobalId('Board', board.id),
  hideBacklogList: (board) => board.hide_backlog_list ?? null,
  hideClosedList: (board) => board.hide_closed_list ?? null,
  webUrl: (board) => boardWebUrl(board),
  webPath: (board) => pathOfWebUrl(boardWebUrl(board)) ?? '',
  labels: declared({ items: UNBOUNDED_ARRAY_ITEMS, returns: LABEL_OF_BOARD }, (board, args) => arrayConnection(args, board.labels ?? [])),
  // From the board record's own `lists` when it has them, else one page of REST's.
  lists: declared(
    { calls: 1, unlessParentHas: 'lists', items: 'window', rest: underBoardParents('GET', '/boards/:board_id/lists') },
    async (board, { id, issueFilters, ...args }, { api }) => {
      // Checked before any REST call.
      const ref = isSet(id) ? parseListRef(id, 'id') : null;
      const filters = boardIssueFilters(issueFilters);
      const records = await boardLists(board, api, filters);
      return arrayConnection(args, ref ? records.filter((record) => isListRef(record, ref)) : records);
    },
  ),
};

/** GitLab's `List#title`: the label's name, Open and Closed, the milestone's title, `@username`. */
function listTitle(record: BoardListRecord): string {
  const { list } = record;
  switch (record.listType) {
    case 'backlog':
      return 'Open';
    case 'closed':
      return 'Closed';
    case 'label':
      return list!.label!.name;
    case 'milestone':
      return list!.milestone!.title ?? '';
    case 'assignee':
      return `@${list!.assignee!.username ?? ''}`;
  }
}

export const BoardList: BoardListResolvers = {
  id: (record) => (record.list ? toGlobalId('List', record.list.id) : `gid://gitlab/List/${listIdTail(record)}`),
  listType: (record) => record.listType,
  title: (record) => listTitle(record),
  position: (record) => record.list?.position ?? null,
  label: declared(embedded(LABEL_OF_BOARD), (record) => record.list?.label ?? null),
  assignee: declared(embedded(USER_SUMMARY), (record) => record.list?.assignee ?? null),
  milestone: (record) => record.list?.milestone ?? null,
  maxIssueCount: (record) => record.list?.max_issue_count ?? null,
  maxIssueWeight: (record) => record.list?.max_issue_weight ?? null,
  // REST's X-Total of the list's issues, asked for one item.
  issuesCount: declared({ ...oneCall(), rest: LIST_ISSUES_REST }, async (record, _args, { api }) => {
    const filters = listIssueFilters(record, record.issueFilters ?? {});
    return (await listIssuesPage(api, record, filters, { page: 1, perPage: 1 })).total;
  }),
  issues: declared({ ...restList(ISSUE_RECORD), rest: LIST_ISSUES_REST }, (record, { filters, ...args }, { api }) => {
    const restFilters = listIssueFilters(record, boardIssueFilters(filters));
    return restConnection(args, (page) => listIssuesPage(api, record, restFilters, page));
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Board, BoardList };
