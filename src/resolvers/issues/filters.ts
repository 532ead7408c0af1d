import type {
  AssigneeWildcardId,
  IssuableSearchableField,
  IssuableState,
  IssueDueDateFilter,
  IssueFilterWildcard,
  IssueScope,
  IssueSort,
  IssueType,
  IterationWildcardId,
  MilestoneWildcardId,
  WeightWildcardId,
} from '../../__generated__/resolvers-types.js';
import type { IssueListFilters, IssueWildcard, NegatedIssueFilters } from '../../datasources/issues.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { idFromGlobalId } from '../global-id.js';

/** Where a list is read from: `GET /issues`, `/groups/:id/issues` or `/projects/:id/issues`. */
export type IssueListLevel = 'instance' | 'group' | 'project';

/** GitLab's NegatedIssueFilterInput, as far as REST's `not[...]` can follow it. */
interface NegatedArgs {
  labelName?: ReadonlyArray<string> | null;
  milestoneTitle?: ReadonlyArray<string> | null;
  authorId?: string | null;
  authorUsername?: string | null;
  assigneeId?: string | null;
  assigneeUsernames?: ReadonlyArray<string> | null;
  myReactionEmoji?: string | null;
  search?: string | null;
  in?: ReadonlyArray<IssuableSearchableField> | null;
  iids?: ReadonlyArray<string> | null;
  iterationId?: ReadonlyArray<string> | null;
  iterationTitle?: string | null;
  weight?: string | null;
}

/** The filter arguments of `issues`, `Group.issues` and `Project.issues`, in GitLab's names. */
export interface IssueListArgs {
  state?: IssuableState | null;
  scope?: IssueScope | null;
  assigneeId?: string | null;
  assigneeUsername?: string | null;
  assigneeUsernames?: ReadonlyArray<string> | null;
  assigneeWildcardId?: AssigneeWildcardId | null;
  authorId?: string | null;
  authorUsername?: string | null;
  confidential?: boolean | null;
  createdAfter?: string | null;
  createdBefore?: string | null;
  updatedAfter?: string | null;
  updatedBefore?: string | null;
  dueDate?: IssueDueDateFilter | null;
  iid?: string | null;
  iids?: ReadonlyArray<string> | null;
  types?: ReadonlyArray<IssueType> | null;
  iterationId?: ReadonlyArray<string | null> | null;
  iterationTitle?: string | null;
  iterationWildcardId?: IterationWildcardId | null;
  labelName?: ReadonlyArray<string | null> | null;
  labelWildcardId?: IssueFilterWildcard | null;
  milestoneTitle?: ReadonlyArray<string | null> | null;
  milestoneWildcardId?: MilestoneWildcardId | null;
  myReactionEmoji?: string | null;
  myReactionEmojiWildcardId?: IssueFilterWildcard | null;
  search?: string | null;
  in?: ReadonlyArray<IssuableSearchableField> | null;
  weight?: string | null;
  weightWildcardId?: WeightWildcardId | null;
  sort?: IssueSort | null;
  withLabelsDetails?: boolean | null;
  not?: NegatedArgs | null;
  includeArchived?: boolean | null;
  includeSubgroups?: boolean | null;
}

const given = <T>(value: T | null | undefined): value is T => value !== null && value !== undefined;
const optional = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);

/** REST's scope when none is given: `created_by_me` on `GET /issues`, `all` elsewhere (rest-v4-api.md). */
const DEFAULT_SCOPE: Record<IssueListLevel, IssueScope> = { instance: 'created_by_me', group: 'all', project: 'all' };
/** The types the issue lists filter by (rest-v4-api.md `issue_type`). */
const FILTERABLE_TYPES: ReadonlySet<string> = new Set(['issue', 'incident', 'test_case']);
/** The `not[...]` keys each level accepts (rest-v4-api.md "Issues"), by argument name. */
const NEGATED_KEYS: Record<IssueListLevel, ReadonlySet<keyof NegatedArgs>> = {
  instance: new Set(['assigneeId', 'assigneeUsernames', 'authorId', 'authorUsername', 'iids', 'iterationId', 'iterationTitle', 'labelName', 'milestoneTitle', 'weight']),
  group: new Set(['labelName', 'milestoneTitle', 'authorId', 'authorUsername', 'assigneeId', 'assigneeUsernames', 'myReactionEmoji', 'search', 'in']),
  project: new Set(['labelName', 'milestoneTitle', 'authorId', 'authorUsername', 'assigneeId', 'assigneeUsernames', 'myReactionEmoji', 'search', 'in']),
};

/**
 * GitLab's IssueSort as REST's `order_by` and `sort`; null for the orders REST does not have
 * (rest-v4-api.md `order_by`: created_at, updated_at, priority, due_date, relative_position,
 * label_priority, milestone_due, popularity, title, weight).
 */
const ORDER_BY: Readonly<Record<string, string>> = {
  created: 'created_at',
  updated: 'updated_at',
  priority: 'priority',
  due_date: 'due_date',
  relative_position: 'relative_position',
  label_priority: 'label_priority',
  milestone_due: 'milestone_due',
  popularity: 'popularity',
  title: 'title',
  weight: 'weight',
};

export function restOrder(sort: string): { orderBy: string; sort: 'asc' | 'desc' } | null {
  const match = /^(.*)_(asc|desc)$/.exec(sort.toLowerCase());
  const orderBy = match ? ORDER_BY[match[1]!] : undefined;
  return match && orderBy ? { orderBy, sort: match[2] as 'asc' | 'desc' } : null;
}

/** At most one of a filter's forms: its value, its other value, its wildcard. */
function exclusive(args: object, names: readonly string[]): void {
  const present = names.filter((name) => given((args as Record<string, unknown>)[name]));
  if (present.length > 1) {
    const list = names.map((name) => `\`${name}\``).join(names.length > 2 ? ', ' : ' and ');
    throw badUserInput(`${list} are mutually exclusive; give one.`, present[present.length - 1]);
  }
}

function text(value: string | null | undefined, argumentName: string): string | undefined {
  if (!given(value)) return undefined;
  if (!value.trim()) throw badUserInput(`\`${argumentName}\` must not be empty; leave it out instead.`, argumentName);
  return value;
}

/** Names REST takes comma-separated, so a name may hold no comma. */
function names(values: ReadonlyArray<string | null> | null | undefined, argumentName: string): string[] | undefined {
  if (!given(values)) return undefined;
  const present = values.filter(given);
  if (present.length === 0) throw badUserInput(`\`${argumentName}\` must not be an empty list; leave it out instead.`, argumentName);
  return present.map((value) => {
    const checked = text(value, argumentName)!;
    if (checked.includes(',')) throw badUserInput(`\`${argumentName}\` entries must not contain commas; got "${value.slice(0, 100)}".`, argumentName);
    return checked;
  });
}

/** A list GitLab allows several of, where REST filters by one. */
function single(values: ReadonlyArray<string | null> | null | undefined, argumentName: string): string | undefined {
  const checked = names(values, argumentName);
  if (checked && checked.length > 1) throw badUserInput(`\`${argumentName}\` takes one value here: REST filters by one.`, argumentName);
  return checked?.[0];
}

function iids(values: ReadonlyArray<string> | null | undefined, argumentName: string): number[] | undefined {
  if (!given(values)) return undefined;
  return values.map((value) => {
    if (!/^\d{1,15}$/.test(value)) throw badUserInput(`\`${argumentName}\` holds internal IDs such as "12"; got "${value.slice(0, 100)}".`, argumentName);
    return Number(value);
  });
}

function weight(value: string | null | undefined, argumentName: string): number | undefined {
  if (!given(value)) return undefined;
  if (!/^\d{1,3}$/.test(value.trim())) throw badUserInput(`\`${argumentName}\` must be a weight such as "3"; got "${value.slice(0, 100)}".`, argumentName);
  return Number(value.trim());
}

/** A user named by a numeric ID or a `gid://gitlab/User/<id>` (GitLab's `assigneeId: String`). */
function userId(value: string, argumentName: string): number {
  if (/^\d{1,15}$/.test(value.trim())) return Number(value.trim());
  return idFromGlobalId(value, 'User', argumentName);
}

/** `assigneeId` also takes GitLab's deprecated wildcards `NONE` and `ANY`, in any case. */
function assigneeId(value: string | null | undefined): number | IssueWildcard | undefined {
  if (!given(value)) return undefined;
  const lower = value.trim().toLowerCase();
  if (lower === 'none') return 'None';
  if (lower === 'any') return 'Any';
  return userId(value, 'assigneeId');
}

function searchFields(fields: ReadonlyArray<IssuableSearchableField> | null | undefined, argumentName: string): string | undefined {
  if (!given(fields)) return undefined;
  if (fields.length === 0) throw badUserInput(`\`${argumentName}\` must name TITLE, DESCRIPTION or both.`, argumentName);
  return [...new Set(fields)].join(',');
}

function valueOrWildcard<T>(value: T | undefined, wildcard: string | null | undefined): T | IssueWildcard | undefined {
  return given(wildcard) ? (wildcard as IssueWildcard) : value;
}

function iteration(values: ReadonlyArray<string | null> | null | undefined, argumentName: string): number | undefined {
  const id = single(values, argumentName);
  return id === undefined ? undefined : idFromGlobalId(id, 'Iteration', argumentName);
}

function negatedFilters(not: NegatedArgs | null | undefined, level: IssueListLevel): NegatedIssueFilters | undefined {
  if (!given(not)) return undefined;
  for (const [key, value] of Object.entries(not)) {
    if (given(value) && !NEGATED_KEYS[level].has(key as keyof NegatedArgs)) {
      throw badUserInput(`\`not.${key}\` is not a negated filter REST accepts on this list; it takes ${[...NEGATED_KEYS[level]].join(', ')}.`, `not.${key}`);
    }
  }
  exclusive(not, ['authorId', 'authorUsername']);
  return {
    labels: names(not.labelName, 'not.labelName'),
    milestone: single(not.milestoneTitle, 'not.milestoneTitle'),
    authorId: given(not.authorId) ? idFromGlobalId(not.authorId, 'User', 'not.authorId') : undefined,
    authorUsername: text(not.authorUsername, 'not.authorUsername'),
    assigneeId: given(not.assigneeId) ? userId(not.assigneeId, 'not.assigneeId') : undefined,
    assigneeUsernames: names(not.assigneeUsernames, 'not.assigneeUsernames'),
    myReactionEmoji: text(not.myReactionEmoji, 'not.myReactionEmoji'),
    search: text(not.search, 'not.search'),
    in: searchFields(not.in, 'not.in'),
    iids: iids(not.iids, 'not.iids'),
    iterationId: iteration(not.iterationId, 'not.iterationId'),
    iterationTitle: text(not.iterationTitle, 'not.iterationTitle'),
    weight: weight(not.weight, 'not.weight'),
  };
}

/** The arguments REST has no counterpart for at some level, refused before any call. */
function refuseWhatRestCannot(args: IssueListArgs, level: IssueListLevel): void {
  if (args.state === 'locked') throw badUserInput('`state: locked` is not a list state REST has (it lists locked issues as opened).', 'state');
  if (args.iterationWildcardId === 'Current') throw badUserInput('`iterationWildcardId: CURRENT` is not a filter REST has; use NONE, ANY or an `iterationId`.', 'iterationWildcardId');
  // GitLab's GraphQL and its REST API give these two wildcards different meanings (its own
  // MilestoneWildcardId documentation says so), and REST filters by one milestone title at a time.
  if (args.milestoneWildcardId === 'Upcoming' || args.milestoneWildcardId === 'Started') {
    throw badUserInput(
      `\`milestoneWildcardId: ${args.milestoneWildcardId.toUpperCase()}\` means, in GitLab's GraphQL, ${args.milestoneWildcardId === 'Upcoming' ? 'any open milestone due in the future' : 'an open milestone whose dates span today'}; REST's \`${args.milestoneWildcardId}\` means ${args.milestoneWildcardId === 'Upcoming' ? 'only the milestone due soonest' : 'any open milestone that has started, overdue or not'}, and REST filters by one milestone title at a time. Use \`milestoneTitle\`.`,
      'milestoneWildcardId',
    );
  }
  if (args.includeSubgroups === false) throw badUserInput('`includeSubgroups: false` is not possible: REST\'s group issue list always includes subgroups.', 'includeSubgroups');
  if (level !== 'instance' && given(args.in) && new Set(args.in).size < 2) {
    throw badUserInput('`in` narrows a search on `issues` only: the group and project lists search titles and descriptions both.', 'in');
  }
  if (given(args.sort) && !restOrder(args.sort)) throw badUserInput(`\`sort\` ${args.sort.toUpperCase()} is not an order REST has.`, 'sort');
}

/**
 * The REST filters of an issue list, checked before any REST call: each filter's forms (value,
 * other value, wildcard) are mutually exclusive, IDs must be of the right class, what REST cannot
 * filter by is refused, and an author filter needs a scope other than CREATED_BY_ME (rest-v4-api.md:
 * "combine with scope=all or scope=assigned_to_me"), which is the default at instance level.
 */
export function issueListFilters(args: IssueListArgs, level: IssueListLevel): IssueListFilters {
  exclusive(args, ['assigneeId', 'assigneeUsername', 'assigneeUsernames', 'assigneeWildcardId']);
  exclusive(args, ['authorId', 'authorUsername']);
  exclusive(args, ['iterationId', 'iterationTitle', 'iterationWildcardId']);
  exclusive(args, ['labelName', 'labelWildcardId']);
  exclusive(args, ['milestoneTitle', 'milestoneWildcardId']);
  exclusive(args, ['myReactionEmoji', 'myReactionEmojiWildcardId']);
  exclusive(args, ['weight', 'weightWildcardId']);
  exclusive(args, ['iid', 'iids']);
  refuseWhatRestCannot(args, level);
  const scope = args.scope ?? DEFAULT_SCOPE[level];
  if ((given(args.authorId) || given(args.authorUsername)) && scope === 'created_by_me') {
    throw badUserInput(
      `An author filter needs \`scope\` ALL or ASSIGNED_TO_ME${args.scope ? '' : " (the default here is CREATED_BY_ME, the caller's own issues)"}.`,
      'scope',
    );
  }
  const type = single(args.types, 'types');
  if (type !== undefined && !FILTERABLE_TYPES.has(type)) throw badUserInput('`types` filters by ISSUE, INCIDENT or TEST_CASE only.', 'types');
  const order = given(args.sort) ? restOrder(args.sort)! : undefined;
  const assigneeUsernames = given(args.assigneeUsername) ? [args.assigneeUsername] : args.assigneeUsernames;
  return {
    state: optional(args.state),
    scope: optional(args.scope),
    assigneeId: valueOrWildcard(assigneeId(args.assigneeId), args.assigneeWildcardId),
    assigneeUsernames: names(assigneeUsernames, given(args.assigneeUsername) ? 'assigneeUsername' : 'assigneeUsernames'),
    authorId: given(args.authorId) ? idFromGlobalId(args.authorId, 'User', 'authorId') : undefined,
    authorUsername: text(args.authorUsername, 'authorUsername'),
    confidential: optional(args.confidential),
    createdAfter: optional(args.createdAfter),
    createdBefore: optional(args.createdBefore),
    updatedAfter: optional(args.updatedAfter),
    updatedBefore: optional(args.updatedBefore),
    // Codegen types NO_DUE_DATE's REST value `0` as a number; REST reads it as text either way.
    dueDate: given(args.dueDate) ? String(args.dueDate) : undefined,
    iids: iids(given(args.iid) ? [args.iid] : args.iids, given(args.iid) ? 'iid' : 'iids'),
    in: level === 'instance' ? searchFields(args.in, 'in') : undefined,
    issueType: type,
    iterationId: valueOrWildcard(iteration(args.iterationId, 'iterationId'), args.iterationWildcardId),
    iterationTitle: text(args.iterationTitle, 'iterationTitle'),
    // A single `None` or `Any` reaches REST as its wildcard, as GitLab's labelName reads it.
    labels: valueOrWildcard(names(args.labelName, 'labelName'), args.labelWildcardId),
    milestone: valueOrWildcard(single(args.milestoneTitle, 'milestoneTitle'), args.milestoneWildcardId),
    myReactionEmoji: valueOrWildcard(text(args.myReactionEmoji, 'myReactionEmoji'), args.myReactionEmojiWildcardId),
    nonArchived: given(args.includeArchived) && level !== 'project' ? !args.includeArchived : undefined,
    not: negatedFilters(args.not, level),
    orderBy: order?.orderBy,
    sort: order?.sort,
    search: text(args.search, 'search'),
    weight: valueOrWildcard(weight(args.weight, 'weight'), args.weightWildcardId),
    withLabelsDetails: optional(args.withLabelsDetails),
  };
}
