// The record GraphQL's BoardList resolves from (codegen.ts maps the type to it). The generated
// resolver types import this module, so it imports only data sources.
import type { BoardListSchema, BoardSchema } from '../datasources/boards.js';
import type { IssueListFilters } from '../datasources/issues.js';

/** GitLab's `List.list_type` values the gateway can show. */
export type ListType = 'backlog' | 'label' | 'closed' | 'assignee' | 'milestone';

/** What a BoardList resolves from: the board, the list's kind, REST's list (none for Open and Closed). */
export interface BoardListRecord {
  board: BoardSchema;
  listType: ListType;
  list: BoardListSchema | null;
  /** The `issueFilters` the list was read with, in REST's names, which its `issuesCount` counts with. */
  issueFilters?: IssueListFilters;
  /** REST's `limit_metric`, read as `BoardList.limitMetric` by the default resolver (an enum's value is REST's string). */
  limitMetric: string | null;
}
