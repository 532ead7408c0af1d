import type {
  IssueDueDateFilter,
  IssueFilterWildcard,
  IssueOrderBy,
  IssueScope,
  IssueSearchField,
  IssueStateFilter,
  IssueType,
  SortDirection,
} from '../../__generated__/resolvers-types.js';
import type { IssueListFilters, IssueWildcard, NegatedIssueFilters } from '../../datasources/issues.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { idFromGlobalId } from '../global-id.js';

/** Where a list is read from: `GET /issues`, `/groups/:id/issues` or `/projects/:id/issues`. */
export type IssueListLevel = 'instance' | 'group' | 'project';

/** The negated filters of every level together; the schema gives each level only its own. */
interface NegatedArgs {
  labels?: ReadonlyArray<string> | null;
  milestone?: string | null;
  authorId?: string | null;
  authorUsername?: string | null;
  assigneeId?: string | null;
  assigneeUsernames?: ReadonlyArray<string> | null;
  myReactionEmoji?: string | null;
  search?: string | null;
  in?: ReadonlyArray<IssueSearchField> | null;
  iids?: ReadonlyArray<string> | null;
  iterationId?: string | null;
  iterationTitle?: string | null;
  weight?: number | null;
}

/** The filter arguments of `issues`, `Group.issues` and `Project.issues`. */
export interface IssueListArgs {
  state?: IssueStateFilter | null;
  scope?: IssueScope | null;
  assigneeId?: string | null;
  assigneeUsernames?: ReadonlyArray<string> | null;
  assigneeWildcardId?: IssueFilterWildcard | null;
  authorId?: string | null;
  authorUsername?: string | null;
  confidential?: boolean | null;
  createdAfter?: string | null;
  createdBefore?: string | null;
  updatedAfter?: string | null;
  updatedBefore?: string | null;
  dueDate?: IssueDueDateFilter | null;
  iids?: ReadonlyArray<string> | null;
  issueType?: IssueType | null;
  iterationId?: string | null;
  iterationTitle?: string | null;
  iterationWildcardId?: IssueFilterWildcard | null;
  labels?: ReadonlyArray<string> | null;
  labelWildcardId?: IssueFilterWildcard | null;
  milestone?: string | null;
  milestoneWildcardId?: IssueFilterWildcard | null;
  myReactionEmoji?: string | null;
  myReactionEmojiWildcardId?: IssueFilterWildcard | null;
  search?: string | null;
  weight?: number | null;
  weightWildcardId?: IssueFilterWildcard | null;
  orderBy?: IssueOrderBy | null;
  sort?: SortDirection | null;
  withLabelsDetails?: boolean | null;
  not?: NegatedArgs | null;
  nonArchived?: boolean | null;
  in?: ReadonlyArray<IssueSearchField> | null;
}

const given = <T>(value: T | null | undefined): value is T => value !== null && value !== undefined;
const optional = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);

/** REST's scope when none is given: `created_by_me` on `GET /issues`, `all` elsewhere (rest-v4-api.md). */
const DEFAULT_SCOPE: Record<IssueListLevel, IssueScope> = { instance: 'created_by_me', group: 'all', project: 'all' };
/** The types the issue lists filter by (rest-v4-api.md `issue_type`). */
const FILTERABLE_TYPES: ReadonlySet<string> = new Set(['issue', 'incident', 'test_case']);
/** REST reads these values of `labels`, `milestone` and `my_reaction_emoji` as wildcards, in any case. */
const WILDCARD_WORDS: ReadonlySet<string> = new Set(['none', 'any']);

/** At most one of a filter's forms: its value, its other value, its wildcard. */
function exclusive(args: object, names: readonly string[]): void {
  const present = names.filter((name) => given((args as Record<string, unknown>)[name]));
  if (present.length > 1) {
    const list = names.map((name) => `\`${name}\``).join(names.length > 2 ? ', ' : ' and ');
    throw badUserInput(`${list} are mutually exclusive; give one.`, present[present.length - 1]);
  }
}

function text(value: string | null | undefined, argumentName: string, wildcardArgument?: string): string | undefined {
  if (!given(value)) return undefined;
  if (!value.trim()) throw badUserInput(`\`${argumentName}\` must not be empty; leave it out instead.`, argumentName);
  if (wildcardArgument && WILDCARD_WORDS.has(value.trim().toLowerCase())) {
    throw badUserInput(`\`${argumentName}\` "${value}" would be read as a wildcard by REST; use \`${wildcardArgument}\` for NONE or ANY.`, argumentName);
  }
  return value;
}

/** Names REST takes comma-separated, so a name may hold no comma. */
function names(values: ReadonlyArray<string> | null | undefined, argumentName: string, wildcardArgument?: string): string[] | undefined {
  if (!given(values)) return undefined;
  if (values.length === 0) throw badUserInput(`\`${argumentName}\` must not be an empty list; leave it out instead.`, argumentName);
  return values.map((value) => {
    const checked = text(value, argumentName, wildcardArgument)!;
    if (checked.includes(',')) throw badUserInput(`\`${argumentName}\` entries must not contain commas; got "${value.slice(0, 100)}".`, argumentName);
    return checked;
  });
}

function iids(values: ReadonlyArray<string> | null | undefined, argumentName: string): number[] | undefined {
  if (!given(values)) return undefined;
  return values.map((value) => {
    if (!/^\d{1,15}$/.test(value)) throw badUserInput(`\`${argumentName}\` holds internal IDs such as "12"; got "${value.slice(0, 100)}".`, argumentName);
    return Number(value);
  });
}

function weight(value: number | null | undefined, argumentName: string): number | undefined {
  if (!given(value)) return undefined;
  if (value < 0) throw badUserInput(`\`${argumentName}\` must not be negative; got ${value}.`, argumentName);
  return value;
}

function searchFields(fields: ReadonlyArray<IssueSearchField> | null | undefined, argumentName: string): string | undefined {
  if (!given(fields)) return undefined;
  if (fields.length === 0) throw badUserInput(`\`${argumentName}\` must name TITLE, DESCRIPTION or both.`, argumentName);
  return [...new Set(fields)].join(',');
}

function valueOrWildcard<T>(value: T | undefined, wildcard: IssueFilterWildcard | null | undefined): T | IssueWildcard | undefined {
  return given(wildcard) ? wildcard : value;
}

function negatedFilters(not: NegatedArgs | null | undefined): NegatedIssueFilters | undefined {
  if (!given(not)) return undefined;
  exclusive(not, ['authorId', 'authorUsername']);
  return {
    labels: names(not.labels, 'not.labels'),
    milestone: text(not.milestone, 'not.milestone'),
    authorId: given(not.authorId) ? idFromGlobalId(not.authorId, 'User', 'not.authorId') : undefined,
    authorUsername: text(not.authorUsername, 'not.authorUsername'),
    assigneeId: given(not.assigneeId) ? idFromGlobalId(not.assigneeId, 'User', 'not.assigneeId') : undefined,
    assigneeUsernames: names(not.assigneeUsernames, 'not.assigneeUsernames'),
    myReactionEmoji: text(not.myReactionEmoji, 'not.myReactionEmoji'),
    search: text(not.search, 'not.search'),
    in: searchFields(not.in, 'not.in'),
    iids: iids(not.iids, 'not.iids'),
    iterationId: given(not.iterationId) ? idFromGlobalId(not.iterationId, 'Iteration', 'not.iterationId') : undefined,
    iterationTitle: text(not.iterationTitle, 'not.iterationTitle'),
    weight: weight(not.weight, 'not.weight'),
  };
}

/**
 * The REST filters of an issue list, checked before any REST call: each filter's forms (value,
 * other value, wildcard) are mutually exclusive, IDs must be global IDs of the right class, and
 * an author filter needs a scope other than CREATED_BY_ME (rest-v4-api.md: "combine with
 * scope=all or scope=assigned_to_me"), which is the default at instance level.
 */
export function issueListFilters(args: IssueListArgs, level: IssueListLevel): IssueListFilters {
  exclusive(args, ['assigneeId', 'assigneeUsernames', 'assigneeWildcardId']);
  exclusive(args, ['authorId', 'authorUsername']);
  exclusive(args, ['iterationId', 'iterationTitle', 'iterationWildcardId']);
  exclusive(args, ['labels', 'labelWildcardId']);
  exclusive(args, ['milestone', 'milestoneWildcardId']);
  exclusive(args, ['myReactionEmoji', 'myReactionEmojiWildcardId']);
  exclusive(args, ['weight', 'weightWildcardId']);
  const scope = args.scope ?? DEFAULT_SCOPE[level];
  if ((given(args.authorId) || given(args.authorUsername)) && scope === 'created_by_me') {
    throw badUserInput(
      `An author filter needs \`scope\` ALL or ASSIGNED_TO_ME${args.scope ? '' : ' (the default here is CREATED_BY_ME, the caller\'s own issues)'}.`,
      'scope',
    );
  }
  if (given(args.issueType) && !FILTERABLE_TYPES.has(args.issueType)) {
    throw badUserInput('`issueType` filters by ISSUE, INCIDENT or TEST_CASE only.', 'issueType');
  }
  return {
    state: optional(args.state),
    scope: optional(args.scope),
    assigneeId: valueOrWildcard(given(args.assigneeId) ? idFromGlobalId(args.assigneeId, 'User', 'assigneeId') : undefined, args.assigneeWildcardId),
    assigneeUsernames: names(args.assigneeUsernames, 'assigneeUsernames'),
    authorId: given(args.authorId) ? idFromGlobalId(args.authorId, 'User', 'authorId') : undefined,
    authorUsername: text(args.authorUsername, 'authorUsername'),
    confidential: optional(args.confidential),
    createdAfter: optional(args.createdAfter),
    createdBefore: optional(args.createdBefore),
    updatedAfter: optional(args.updatedAfter),
    updatedBefore: optional(args.updatedBefore),
    // Codegen types NO_DUE_DATE's REST value `0` as a number; REST reads it as text either way.
    dueDate: given(args.dueDate) ? String(args.dueDate) : undefined,
    iids: iids(args.iids, 'iids'),
    in: searchFields(args.in, 'in'),
    issueType: optional(args.issueType),
    iterationId: valueOrWildcard(given(args.iterationId) ? idFromGlobalId(args.iterationId, 'Iteration', 'iterationId') : undefined, args.iterationWildcardId),
    iterationTitle: text(args.iterationTitle, 'iterationTitle'),
    labels: valueOrWildcard(names(args.labels, 'labels', 'labelWildcardId'), args.labelWildcardId),
    milestone: valueOrWildcard(text(args.milestone, 'milestone', 'milestoneWildcardId'), args.milestoneWildcardId),
    myReactionEmoji: valueOrWildcard(text(args.myReactionEmoji, 'myReactionEmoji', 'myReactionEmojiWildcardId'), args.myReactionEmojiWildcardId),
    nonArchived: optional(args.nonArchived),
    not: negatedFilters(args.not),
    orderBy: optional(args.orderBy),
    sort: optional(args.sort),
    search: text(args.search, 'search'),
    weight: valueOrWildcard(weight(args.weight, 'weight'), args.weightWildcardId),
    withLabelsDetails: optional(args.withLabelsDetails),
  };
}
