// A board's lists as GitLab shows them. REST returns only the lists it stores (label, and PREMIUM
// assignee and milestone lists); a GitLab board also has its Open list (`backlog`) and its Closed
// list, which REST hides ("destroyable" lists only). The gateway composes those two from the board
// record's `hide_backlog_list`/`hide_closed_list`, and names them by kind and board, having no REST
// id for them: `gid://gitlab/List/backlog<boardId>`, `gid://gitlab/List/closed<boardId>`.
import type { BoardListSchema, BoardSchema } from '../../datasources/boards.js';
import type { IssueListFilters } from '../../datasources/issues.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import type { BoardListRecord, ListType } from '../../records/boards.js';

/** GitLab's order of list kinds (the `list_type` enum: backlog 0, label 1, closed 2, assignee 3, milestone 4). */
const KIND_ORDER: Readonly<Record<ListType, number>> = { backlog: 0, label: 1, closed: 2, assignee: 3, milestone: 4 };

/** The kind of a list REST stores; one with none of label, assignee and milestone is an iteration list the gateway does not model. */
export function storedListType(list: BoardListSchema): ListType | null {
  if (list.label) return 'label';
  if (list.assignee) return 'assignee';
  if (list.milestone) return 'milestone';
  return null;
}

/** Every list of the board in GitLab's order (`List.ordered`: by kind, then position). */
export function boardListRecords(board: BoardSchema, stored: readonly BoardListSchema[], issueFilters?: IssueListFilters): BoardListRecord[] {
  const records: BoardListRecord[] = [];
  if (!board.hide_backlog_list) records.push({ board, listType: 'backlog', list: null, issueFilters, limitMetric: null });
  for (const list of stored) {
    const listType = storedListType(list);
    if (listType) records.push({ board, listType, list, issueFilters, limitMetric: list.limit_metric ?? null });
  }
  if (!board.hide_closed_list) records.push({ board, listType: 'closed', list: null, issueFilters, limitMetric: null });
  return records.sort((a, b) => KIND_ORDER[a.listType] - KIND_ORDER[b.listType] || (a.list?.position ?? 0) - (b.list?.position ?? 0));
}

/** A list named by ID: a stored list by its REST id, or the board's Open or Closed list. */
export type ListRef = { kind: 'stored'; id: number } | { kind: 'backlog' | 'closed'; boardId: number };

const LIST_TAIL = /^(?:(\d{1,15})|(backlog|closed)(\d{1,15}))$/;

/** The tail of a list's global ID: its REST id, or `backlog<boardId>`/`closed<boardId>`. */
export function listIdTail(record: BoardListRecord): string {
  return record.list ? String(record.list.id) : `${record.listType}${record.board.id}`;
}

/**
 * Reads a list's ID: a `gid://gitlab/List/...` global ID, or (as GitLab's `issueMoveList` takes it)
 * the bare tail, a numeric id say. Anything else is BAD_USER_INPUT before any REST call.
 */
export function parseListRef(value: string, argumentName: string): ListRef {
  const tail = value.startsWith('gid://gitlab/List/') ? value.slice('gid://gitlab/List/'.length) : value;
  const match = LIST_TAIL.exec(tail);
  if (!match) throw badUserInput(`\`${argumentName}\` must be a list's ID such as gid://gitlab/List/1; got "${value.slice(0, 100)}".`, argumentName);
  if (match[1] !== undefined) return { kind: 'stored', id: Number(match[1]) };
  return { kind: match[2] as 'backlog' | 'closed', boardId: Number(match[3]) };
}

/** Whether the record is the list a reference names. */
export function isListRef(record: BoardListRecord, ref: ListRef): boolean {
  return ref.kind === 'stored' ? record.list?.id === ref.id : record.listType === ref.kind && record.board.id === ref.boardId;
}
