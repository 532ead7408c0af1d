// The issue list filters of rest-v4-api.md "Issues" (GitLab's IssuesFinder and lib/api/issues.rb):
// the same parameters at the three levels, with `in` and the `not` keys each level accepts, scopes
// that follow the caller, `None`/`Any` wildcards, inclusive dates and every `order_by`.
import { milestoneById } from '../../data/labels.js';
import type { Viewer } from '../../data/access.js';
import type { GroupMilestone, Issue, Milestone, Project } from '../../data/model.js';
import type { SimulatorState } from '../../data/state.js';
import { upvotes } from '../../entities/issues.js';
import { grapeError } from '../../http/errors.js';
import { p, type ParamsOf } from '../../http/params.js';
import { isParamHash, type ParamHash, type ParamValue } from '../../http/query.js';
import { canReadIssuesOf, canSeeIssue } from './access.js';

export type IssueListLevel = 'instance' | 'group' | 'project';

export const ORDER_BY = ['created_at', 'updated_at', 'priority', 'due_date', 'relative_position', 'label_priority', 'milestone_due', 'popularity', 'title', 'weight'] as const;
/** The snake_case scopes and their deprecated hyphenated forms (replaced in 11.0). */
const SCOPES = ['created_by_me', 'assigned_to_me', 'all', 'created-by-me', 'assigned-to-me'] as const;
const DUE_DATES = ['0', 'any', 'today', 'tomorrow', 'overdue', 'week', 'month', 'next_month_and_previous_two_weeks', ''] as const;

/** Keys `not[...]` accepts on GET /issues, and on the group and project lists (rest-v4-api.md). */
const NOT_KEYS: Record<IssueListLevel, readonly string[]> = {
  instance: ['assignee_id', 'assignee_username', 'author_id', 'author_username', 'iids', 'iteration_id', 'iteration_title', 'labels', 'milestone', 'weight'],
  group: ['labels', 'milestone', 'author_id', 'author_username', 'assignee_id', 'assignee_username', 'my_reaction_emoji', 'search', 'in'],
  project: ['labels', 'milestone', 'author_id', 'author_username', 'assignee_id', 'assignee_username', 'my_reaction_emoji', 'search', 'in'],
};

export const issueListParams = {
  state: p.string().values(['opened', 'closed', 'all']).default('all'),
  order_by: p.string().values(ORDER_BY).default('created_at'),
  sort: p.string().values(['asc', 'desc']).default('desc'),
  scope: p.string().values(SCOPES),
  labels: p.stringArray().commaSeparated(),
  with_labels_details: p.boolean().default(false),
  milestone: p.string(),
  iids: p.integerArray(),
  search: p.string(),
  author_id: p.integer(),
  author_username: p.string(),
  // Integers, or the wildcards None and Any (GitLab's IntegerNoneAny validator).
  assignee_id: p.string(),
  assignee_username: p.stringArray().commaSeparated(),
  my_reaction_emoji: p.string(),
  confidential: p.boolean(),
  created_after: p.string(),
  created_before: p.string(),
  updated_after: p.string(),
  updated_before: p.string(),
  due_date: p.string().values(DUE_DATES),
  issue_type: p.string().values(['issue', 'incident', 'test_case']),
  // (PREMIUM)
  weight: p.string(),
  iteration_id: p.string(),
  iteration_title: p.string(),
  not: p.hash(),
};

/** GET /issues only. */
export const instanceOnlyParams = { in: p.string(), non_archived: p.boolean().default(true) };
/** GET /groups/:id/issues also hides issues of archived projects unless asked not to. */
export const groupOnlyParams = { non_archived: p.boolean().default(true) };

export const ISSUE_LIST_RULES = {
  mutuallyExclusive: [
    ['assignee_id', 'assignee_username'],
    ['author_id', 'author_username'],
    ['iteration_id', 'iteration_title'],
  ],
} as const;

export type IssueListParams = ParamsOf<typeof issueListParams> & { in?: string | undefined; non_archived?: boolean | undefined };

type Wildcard = 'none' | 'any';
type IntegerOrWildcard = number | Wildcard;

/** IntegerNoneAny: an integer, or None / Any in any case. */
function integerOrWildcard(name: string, value: string | undefined): IntegerOrWildcard | undefined {
  if (value === undefined) return undefined;
  const lower = value.trim().toLowerCase();
  if (lower === 'none' || lower === 'any') return lower;
  if (/^\d+$/.test(lower)) return Number(lower);
  throw grapeError(400, `${name} should be an integer, none or any, however got ${value}`);
}

/** Grape's DateTime coercion: anything `Time.parse` reads; `x is invalid` otherwise. */
function time(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Date.parse(value);
  if (Number.isNaN(parsed)) throw grapeError(400, `${name} is invalid`);
  return parsed;
}

/** `title`, `description` or both joined by a comma; the default is both. */
function searchFields(value: string | undefined): Array<'title' | 'description'> {
  if (value === undefined || value.trim() === '') return ['title', 'description'];
  const fields = value.split(',').map((field) => field.trim().toLowerCase());
  if (fields.some((field) => field !== 'title' && field !== 'description')) throw grapeError(400, 'in does not have a valid value');
  return fields as Array<'title' | 'description'>;
}

function text(value: ParamValue | undefined): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

function textList(value: ParamValue | undefined): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value : [value];
  return items.flatMap((item) => (typeof item === 'string' || typeof item === 'number' ? String(item).split(',') : [])).map((item) => item.trim()).filter((item) => item !== '');
}

function integerList(name: string, value: ParamValue | undefined): number[] | undefined {
  const items = textList(value);
  if (!items) return undefined;
  if (items.some((item) => !/^\d+$/.test(item))) throw grapeError(400, `not[${name}] is invalid`);
  return items.map(Number);
}

/** The negated filters a level accepts; Grape drops undeclared keys (declared_params). */
interface Negation {
  labels?: string[] | undefined;
  milestone?: string | undefined;
  authorId?: number | undefined;
  authorUsername?: string | undefined;
  assigneeId?: number | undefined;
  assigneeUsernames?: string[] | undefined;
  myReactionEmoji?: string | undefined;
  search?: string | undefined;
  in: Array<'title' | 'description'>;
  iids?: number[] | undefined;
  iterationId?: number | undefined;
  iterationTitle?: string | undefined;
  weight?: number | undefined;
}

function negation(level: IssueListLevel, raw: ParamHash | undefined): Negation {
  const allowed = new Set(NOT_KEYS[level]);
  const given: ParamHash = {};
  for (const [key, value] of Object.entries(raw ?? {})) if (allowed.has(key) && value !== null) given[key] = value;
  const single = (name: string) => {
    const value = integerOrWildcard(`not[${name}]`, text(given[name]));
    return typeof value === 'number' ? value : undefined;
  };
  const authorId = text(given['author_id']);
  if (authorId !== undefined && !/^\d+$/.test(authorId)) throw grapeError(400, 'not[author_id] is invalid');
  return {
    labels: textList(given['labels']),
    milestone: text(given['milestone']),
    authorId: authorId === undefined ? undefined : Number(authorId),
    authorUsername: text(given['author_username']),
    assigneeId: single('assignee_id'),
    assigneeUsernames: textList(given['assignee_username']),
    myReactionEmoji: text(given['my_reaction_emoji']),
    search: text(given['search']),
    in: searchFields(text(given['in'])),
    iids: integerList('iids', given['iids']),
    iterationId: single('iteration_id'),
    iterationTitle: text(given['iteration_title']),
    weight: single('weight'),
  };
}

/** The simulator's "today", and the date arithmetic of GitLab's due date filters. */
function dueDateMatches(filter: string, dueDate: string | null, now: Date): boolean {
  const day = (offset: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offset)).toISOString().slice(0, 10);
  const today = day(0);
  switch (filter) {
    case '':
      return true;
    case '0':
      return dueDate === null;
    case 'any':
      return dueDate !== null;
    case 'today':
      return dueDate === today;
    case 'tomorrow':
      return dueDate === day(1);
    case 'overdue':
      return dueDate !== null && dueDate < today;
    case 'week': {
      // Monday to Sunday of the current week.
      const weekday = (now.getUTCDay() + 6) % 7;
      return dueDate !== null && dueDate >= day(-weekday) && dueDate <= day(6 - weekday);
    }
    case 'month':
      return dueDate !== null && dueDate.slice(0, 7) === today.slice(0, 7);
    case 'next_month_and_previous_two_weeks': {
      const endOfNextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 0)).toISOString().slice(0, 10);
      return dueDate !== null && dueDate >= day(-14) && dueDate <= endOfNextMonth;
    }
    default:
      return true;
  }
}

function matchesWildcard(value: IntegerOrWildcard, actual: number | null): boolean {
  if (value === 'none') return actual === null;
  if (value === 'any') return actual !== null;
  return actual === value;
}

function matchesSearch(issue: Issue, search: string, fields: Array<'title' | 'description'>): boolean {
  const wanted = search.toLowerCase();
  return fields.some((field) => issue[field].toLowerCase().includes(wanted));
}

const PREDEFINED = new Set(['none', 'any']);

/**
 * REST's milestone wildcards beyond None and Any (IssuableFinder): `Upcoming` is, per project and
 * group, the active milestone due soonest after today (Milestone.upcoming_ids); `Started` any active
 * milestone whose start date is today or before (Milestone.started). The ids of the milestones each
 * one means, for the issues' projects and their groups.
 */
function milestoneWildcardIds(state: SimulatorState, wildcard: 'upcoming' | 'started'): Set<number> {
  const today = state.now.toISOString().slice(0, 10);
  const all: Array<Milestone | GroupMilestone> = [...state.milestones.values(), ...state.groupMilestones.values()];
  const active = all.filter((milestone) => milestone.state === 'active');
  if (wildcard === 'started') return new Set(active.filter((milestone) => milestone.startDate !== null && milestone.startDate <= today).map((milestone) => milestone.id));
  const soonest = new Map<string, Milestone | GroupMilestone>();
  for (const milestone of active) {
    if (milestone.dueDate === null || milestone.dueDate <= today) continue;
    const owner = 'groupId' in milestone ? `group:${milestone.groupId}` : `project:${milestone.projectId}`;
    const current = soonest.get(owner);
    if (!current || milestone.dueDate < current.dueDate!) soonest.set(owner, milestone);
  }
  return new Set([...soonest.values()].map((milestone) => milestone.id));
}

const MILESTONE_WILDCARDS = new Set(['none', 'any', 'upcoming', 'started']);

/** Builds the predicate of one list request; parameter errors are thrown before any filtering. */
function predicate(state: SimulatorState, viewer: Viewer, level: IssueListLevel, params: IssueListParams): (issue: Issue) => boolean {
  const scope = (params.scope ?? (level === 'instance' ? 'created_by_me' : 'all')).replace(/-/g, '_');
  const assigneeId = integerOrWildcard('assignee_id', params.assignee_id);
  const weight = integerOrWildcard('weight', params.weight);
  const iterationId = integerOrWildcard('iteration_id', params.iteration_id);
  const createdAfter = time('created_after', params.created_after);
  const createdBefore = time('created_before', params.created_before);
  const updatedAfter = time('updated_after', params.updated_after);
  const updatedBefore = time('updated_before', params.updated_before);
  const inFields = searchFields(level === 'instance' ? params.in : undefined);
  const not = negation(level, params.not && isParamHash(params.not) ? params.not : undefined);
  const labels = params.labels ?? [];
  const labelWildcard = labels.length === 1 && PREDEFINED.has(labels[0]!.toLowerCase()) ? (labels[0]!.toLowerCase() as Wildcard) : undefined;
  const milestone = params.milestone;
  const milestoneWildcard = milestone !== undefined && MILESTONE_WILDCARDS.has(milestone.toLowerCase()) ? milestone.toLowerCase() : undefined;
  const notMilestoneWildcard = not.milestone !== undefined && ['upcoming', 'started'].includes(not.milestone.toLowerCase()) ? (not.milestone.toLowerCase() as 'upcoming' | 'started') : undefined;
  const emoji = params.my_reaction_emoji;
  const emojiWildcard = emoji !== undefined && PREDEFINED.has(emoji.toLowerCase()) ? (emoji.toLowerCase() as Wildcard) : undefined;
  const author = params.author_username === undefined ? undefined : state.findUserByUsername(params.author_username);
  const usernamesOf = (issue: Issue) => issue.assigneeIds.map((id) => state.users.get(id)?.username.toLowerCase() ?? '');
  const milestoneTitle = (issue: Issue) => milestoneById(state, issue.milestoneId)?.title ?? null;
  const iterationTitle = (issue: Issue) => (issue.iterationId === null ? null : state.iterations.get(issue.iterationId)?.title ?? null);
  const awardedByViewer = (issue: Issue) => issue.awards.filter((award) => award.userId === viewer?.id).map((award) => award.name);
  const created = (issue: Issue) => Date.parse(issue.createdAt);
  const updated = (issue: Issue) => Date.parse(issue.updatedAt);

  const checks: Array<(issue: Issue) => boolean> = [];
  const add = (check: (issue: Issue) => boolean) => checks.push(check);

  if (scope === 'created_by_me') add((issue) => viewer !== null && issue.authorId === viewer.id);
  if (scope === 'assigned_to_me') add((issue) => viewer !== null && issue.assigneeIds.includes(viewer.id));
  if (params.state !== 'all') add((issue) => issue.state === params.state);
  if (params.iids) add((issue) => params.iids!.includes(issue.iid));
  if (params.author_id !== undefined) add((issue) => issue.authorId === params.author_id);
  if (params.author_username !== undefined) add((issue) => author !== undefined && issue.authorId === author.id);
  if (assigneeId !== undefined) {
    add((issue) => (assigneeId === 'none' ? issue.assigneeIds.length === 0 : assigneeId === 'any' ? issue.assigneeIds.length > 0 : issue.assigneeIds.includes(assigneeId)));
  }
  // Several usernames (PREMIUM) must all be assignees.
  if (params.assignee_username) add((issue) => params.assignee_username!.every((name) => usernamesOf(issue).includes(name.toLowerCase())));
  if (labelWildcard === 'none') add((issue) => issue.labels.length === 0);
  else if (labelWildcard === 'any') add((issue) => issue.labels.length > 0);
  else if (labels.length > 0) add((issue) => labels.every((label) => issue.labels.includes(label)));
  if (milestoneWildcard === 'upcoming' || milestoneWildcard === 'started') {
    const ids = milestoneWildcardIds(state, milestoneWildcard);
    add((issue) => issue.milestoneId !== null && ids.has(issue.milestoneId));
  } else if (milestoneWildcard) add((issue) => (milestoneWildcard === 'none' ? issue.milestoneId === null : issue.milestoneId !== null));
  else if (milestone !== undefined) add((issue) => milestoneTitle(issue) === milestone);
  // Without a caller there is nobody's reaction to look at: the filter is ignored, as IssuableFinder does.
  if (emoji !== undefined && viewer) {
    if (emojiWildcard) add((issue) => (emojiWildcard === 'none' ? awardedByViewer(issue).length === 0 : awardedByViewer(issue).length > 0));
    else add((issue) => awardedByViewer(issue).includes(emoji));
  }
  if (params.search) add((issue) => matchesSearch(issue, params.search!, inFields));
  if (params.confidential !== undefined) add((issue) => issue.confidential === params.confidential);
  if (createdAfter !== undefined) add((issue) => created(issue) >= createdAfter);
  if (createdBefore !== undefined) add((issue) => created(issue) <= createdBefore);
  if (updatedAfter !== undefined) add((issue) => updated(issue) >= updatedAfter);
  if (updatedBefore !== undefined) add((issue) => updated(issue) <= updatedBefore);
  if (params.due_date !== undefined) add((issue) => dueDateMatches(params.due_date!, issue.dueDate, state.now));
  if (params.issue_type !== undefined) add((issue) => issue.issueType === params.issue_type);
  if (weight !== undefined) add((issue) => matchesWildcard(weight, issue.weight));
  if (iterationId !== undefined) add((issue) => matchesWildcard(iterationId, issue.iterationId));
  if (params.iteration_title !== undefined) add((issue) => iterationTitle(issue) === params.iteration_title);

  // not[...]: an issue with ANY of the negated labels or assignees is left out.
  if (not.labels) add((issue) => !not.labels!.some((label) => issue.labels.includes(label)));
  if (notMilestoneWildcard) {
    const ids = milestoneWildcardIds(state, notMilestoneWildcard);
    add((issue) => issue.milestoneId === null || !ids.has(issue.milestoneId));
  } else if (not.milestone !== undefined) add((issue) => milestoneTitle(issue) !== not.milestone);
  if (not.authorId !== undefined) add((issue) => issue.authorId !== not.authorId);
  if (not.authorUsername !== undefined) add((issue) => state.users.get(issue.authorId)?.username.toLowerCase() !== not.authorUsername!.toLowerCase());
  if (not.assigneeId !== undefined) add((issue) => !issue.assigneeIds.includes(not.assigneeId!));
  if (not.assigneeUsernames) add((issue) => !not.assigneeUsernames!.some((name) => usernamesOf(issue).includes(name.toLowerCase())));
  if (not.myReactionEmoji !== undefined && viewer) add((issue) => !awardedByViewer(issue).includes(not.myReactionEmoji!));
  if (not.search) add((issue) => !matchesSearch(issue, not.search!, not.in));
  if (not.iids) add((issue) => !not.iids!.includes(issue.iid));
  if (not.iterationId !== undefined) add((issue) => issue.iterationId !== not.iterationId);
  if (not.iterationTitle !== undefined) add((issue) => iterationTitle(issue) !== not.iterationTitle);
  // Issues without a weight are not "of weight N", so they stay.
  if (not.weight !== undefined) add((issue) => issue.weight !== not.weight);

  return (issue) => checks.every((check) => check(issue));
}

type SortKey = string | number | null;

function milestoneDue(state: SimulatorState, issue: Issue): string | null {
  return milestoneById(state, issue.milestoneId)?.dueDate ?? null;
}

/** The highest priority (lowest number) among the issue's labels that have one. */
function labelPriority(state: SimulatorState, issue: Issue): number | null {
  const priorities = issue.labels.flatMap((name) => {
    for (const label of state.labels.values()) if (label.projectId === issue.projectId && label.name === name && label.priority !== null) return [label.priority];
    return [];
  });
  return priorities.length > 0 ? Math.min(...priorities) : null;
}

/** Sort keys per `order_by`; null sorts last in both directions, as GitLab's `nulls_last`. */
function sortKey(state: SimulatorState, orderBy: string, issue: Issue): SortKey {
  switch (orderBy) {
    case 'updated_at':
      return issue.updatedAt;
    case 'due_date':
      return issue.dueDate;
    case 'relative_position':
      return issue.relativePosition;
    case 'label_priority':
      return labelPriority(state, issue);
    case 'milestone_due':
      return milestoneDue(state, issue);
    case 'popularity':
      return upvotes(issue);
    case 'weight':
      return issue.weight;
    case 'title':
      return issue.title;
    case 'priority': {
      // Milestone due date first, then the highest label priority (IssuableFinder's `priority`).
      const due = milestoneDue(state, issue);
      const priority = labelPriority(state, issue);
      return due === null && priority === null ? null : `${due ?? '9999-12-31'}|${String(priority ?? 999).padStart(3, '0')}`;
    }
    default:
      return issue.createdAt;
  }
}

function order(state: SimulatorState, issues: Issue[], orderBy: string, sort: string): Issue[] {
  const direction = sort === 'asc' ? 1 : -1;
  const keys = new Map(issues.map((issue) => [issue.id, sortKey(state, orderBy, issue)]));
  return issues.sort((a, b) => {
    const ka = keys.get(a.id) ?? null;
    const kb = keys.get(b.id) ?? null;
    if (ka !== kb) {
      if (ka === null) return 1;
      if (kb === null) return -1;
      return direction * (ka < kb ? -1 : 1);
    }
    return direction * (a.id - b.id);
  });
}

/**
 * The issues a list answers: `candidates` are every issue, a group's or a project's; only those the
 * caller may see pass (issues feature on, confidential rules), then the filters, then the order.
 */
export function findIssues(state: SimulatorState, viewer: Viewer, level: IssueListLevel, candidates: Iterable<Issue>, params: IssueListParams): Issue[] {
  const matches = predicate(state, viewer, level, params);
  const readable = new Map<number, Project | null>();
  const projectOf = (issue: Issue): Project | null => {
    if (!readable.has(issue.projectId)) {
      const project = state.projects.get(issue.projectId);
      readable.set(issue.projectId, project && canReadIssuesOf(state, viewer, project) ? project : null);
    }
    return readable.get(issue.projectId) ?? null;
  };
  const result: Issue[] = [];
  for (const issue of candidates) {
    const project = projectOf(issue);
    if (!project || !canSeeIssue(state, viewer, issue, project)) continue;
    if (params.non_archived !== false && level !== 'project' && project.archived) continue;
    if (matches(issue)) result.push(issue);
  }
  return order(state, result, params.order_by, params.sort);
}
