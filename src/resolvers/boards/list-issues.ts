// The issues of a board list, as GitLab's Boards::Issues::ListService picks them, in the REST issue
// list's filters: the board's scope (PREMIUM milestone, assignee, labels, weight) over the caller's
// `BoardIssueInput`, then the list's own condition (its label, milestone or assignee; no label of
// any label list for Open; closed issues for Closed, open ones elsewhere).
import type { BoardIssueInput, NegatedBoardIssueInput } from '../../__generated__/resolvers-types.js';
import type { DataSources } from '../../datasources/index.js';
import type { IssueListFilters, IssueSchema, NegatedIssueFilters } from '../../datasources/issues.js';
import type { Page, PageRequest } from '../../datasources/pagination.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import type { BoardListRecord } from '../../records/boards.js';
import { isSet } from '../input.js';
import { boardParentOf } from './key.js';

/** rest-v4-api.md "Limits": weights are 0 to 9. */
const MAX_WEIGHT = 9;

/** Names REST takes comma-separated: none may be empty or hold a comma; GitLab's `[String]` may hold nulls, which say nothing. */
function names(values: ReadonlyArray<string | null> | null | undefined, argumentName: string): string[] | undefined {
  if (!isSet(values)) return undefined;
  const given = values.filter(isSet);
  if (given.some((name) => !name.trim() || name.includes(','))) throw badUserInput(`\`${argumentName}\` entries must be non-empty names without commas.`, argumentName);
  return given.length > 0 ? given : undefined;
}

function iids(values: ReadonlyArray<string> | null | undefined, argumentName: string): number[] | undefined {
  if (!isSet(values)) return undefined;
  return values.map((value) => {
    if (!/^\d{1,15}$/.test(value)) throw badUserInput(`\`${argumentName}\` holds internal IDs such as "12"; got "${value.slice(0, 100)}".`, argumentName);
    return Number(value);
  });
}

/** GitLab's `weight: String`, REST's integer. */
function weight(value: string | null | undefined, argumentName: string): number | undefined {
  if (!isSet(value)) return undefined;
  if (!/^\d$/.test(value) || Number(value) > MAX_WEIGHT) throw badUserInput(`\`${argumentName}\` must be a weight from 0 to ${MAX_WEIGHT}; got "${value.slice(0, 20)}".`, argumentName);
  return Number(value);
}

function exclusive(prefix: string, pairs: ReadonlyArray<[string, unknown]>): void {
  const present = pairs.filter(([, value]) => isSet(value)).map(([name]) => `\`${prefix}${name}\``);
  if (present.length > 1) throw badUserInput(`${present.join(' and ')} are mutually exclusive; give one.`, present[1]);
}

function negated(not: NegatedBoardIssueInput | null | undefined): NegatedIssueFilters | undefined {
  if (!isSet(not)) return undefined;
  return {
    assigneeUsernames: names(not.assigneeUsername, 'not.assigneeUsername'),
    authorUsername: isSet(not.authorUsername) ? not.authorUsername : undefined,
    iids: iids(not.iids, 'not.iids'),
    iterationTitle: isSet(not.iterationTitle) ? not.iterationTitle : undefined,
    labels: names(not.labelName, 'not.labelName'),
    milestone: isSet(not.milestoneTitle) ? not.milestoneTitle : undefined,
    myReactionEmoji: isSet(not.myReactionEmoji) ? not.myReactionEmoji : undefined,
    weight: weight(not.weight, 'not.weight'),
  };
}

/** The caller's `BoardIssueInput` in REST's names, checked before any REST call. */
export function boardIssueFilters(input: BoardIssueInput | null | undefined): IssueListFilters {
  if (!isSet(input)) return {};
  exclusive('', [['assigneeUsername', input.assigneeUsername], ['assigneeWildcardId', input.assigneeWildcardId]]);
  exclusive('', [['milestoneTitle', input.milestoneTitle], ['milestoneWildcardId', input.milestoneWildcardId]]);
  exclusive('', [['iterationTitle', input.iterationTitle], ['iterationWildcardId', input.iterationWildcardId]]);
  exclusive('', [['weight', input.weight], ['weightWildcardId', input.weightWildcardId]]);
  if (input.iterationWildcardId === 'Current') throw badUserInput('`iterationWildcardId` CURRENT has no REST filter; use NONE or ANY.', 'iterationWildcardId');
  if (isSet(input.types) && input.types.length !== 1) throw badUserInput('`types` takes one type: REST filters by one `issue_type`.', 'types');
  return {
    assigneeUsernames: names(input.assigneeUsername, 'assigneeUsername'),
    assigneeId: isSet(input.assigneeWildcardId) ? input.assigneeWildcardId : undefined,
    authorUsername: isSet(input.authorUsername) ? input.authorUsername : undefined,
    confidential: isSet(input.confidential) ? input.confidential : undefined,
    iids: iids(input.iids, 'iids'),
    iterationTitle: isSet(input.iterationTitle) ? input.iterationTitle : undefined,
    iterationId: isSet(input.iterationWildcardId) ? input.iterationWildcardId : undefined,
    labels: names(input.labelName, 'labelName'),
    milestone: isSet(input.milestoneTitle) ? input.milestoneTitle : isSet(input.milestoneWildcardId) ? input.milestoneWildcardId : undefined,
    myReactionEmoji: isSet(input.myReactionEmoji) ? input.myReactionEmoji : undefined,
    not: negated(input.not),
    search: isSet(input.search) ? input.search : undefined,
    issueType: input.types?.[0] ? String(input.types[0]) : undefined,
    weight: weight(input.weight, 'weight') ?? (isSet(input.weightWildcardId) ? input.weightWildcardId : undefined),
  };
}

/** The names of the board's label lists: what the Open list leaves out, and what a move to Open or Closed removes. */
export function labelListNames(record: Pick<BoardListRecord, 'board'>): string[] {
  return (record.board.lists ?? []).flatMap((list) => (list.label?.name ? [list.label.name] : []));
}

/** The REST filters of one list's issues: the caller's, the board's scope, then the list's own. */
export function listIssueFilters(record: BoardListRecord, callerFilters: IssueListFilters): IssueListFilters {
  const { board, list } = record;
  const filters: IssueListFilters = { ...callerFilters, withLabelsDetails: true };
  // The board's scope wins over the caller's filter of the same kind, as the board's list service sets it last.
  if (board.milestone?.title) filters.milestone = board.milestone.title;
  if (board.assignee?.id !== undefined) {
    filters.assigneeId = board.assignee.id;
    filters.assigneeUsernames = undefined;
  }
  if (isSet(board.weight)) filters.weight = board.weight;
  const labels = [...(Array.isArray(filters.labels) ? filters.labels : []), ...(board.labels ?? []).map((label) => label.name)];
  if (labels.length > 0) filters.labels = [...new Set(labels)];
  switch (record.listType) {
    case 'closed':
      // REST cannot order by closing time; the last update is the closing unless the issue changed since.
      return { ...filters, state: 'closed', orderBy: 'updated_at', sort: 'desc' };
    case 'backlog': {
      const left = [...(filters.not?.labels ?? []), ...labelListNames(record)];
      return { ...filters, state: 'opened', orderBy: 'relative_position', sort: 'asc', not: { ...filters.not, labels: left.length > 0 ? [...new Set(left)] : undefined } };
    }
    case 'label':
      return { ...filters, state: 'opened', orderBy: 'relative_position', sort: 'asc', labels: [...new Set([...(Array.isArray(filters.labels) ? filters.labels : []), list!.label!.name])] };
    case 'milestone':
      return { ...filters, state: 'opened', orderBy: 'relative_position', sort: 'asc', milestone: list!.milestone!.title };
    case 'assignee':
      return { ...filters, state: 'opened', orderBy: 'relative_position', sort: 'asc', assigneeId: list!.assignee!.id, assigneeUsernames: undefined };
  }
}

/** One REST page of a list's issues, from its project's or its group's issue list. */
export function listIssuesPage(api: DataSources, record: BoardListRecord, filters: IssueListFilters, page: PageRequest): Promise<Page<IssueSchema>> {
  const parent = boardParentOf(record.board);
  return 'project' in parent ? api.issues.forProject(parent.project, filters, page) : api.issues.forGroup(parent.group, filters, page);
}
