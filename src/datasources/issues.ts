import type { MilestoneSchema, ReferencesSchema, TaskCompletionStatusSchema, TimeStatsSchema } from './issuable-schemas.js';
import type { MergeRequestSchema } from './merge-requests.js';
import type { Page, PageRequest } from './pagination.js';
import { restPath } from './path.js';
import type { RestParams } from './query.js';
import type { RestSession } from './rest-client.js';
import type { UserSchema } from './users.js';

/** A label: a name alone in issue lists, an object with `with_labels_details` and on boards. */
export interface LabelSchema {
  id?: number;
  name: string;
  /** Not REST's: the project an issue's label name was read from, to find its details. */
  project_id?: number;
  color?: string;
  description?: string | null;
  description_html?: string | null;
  text_color?: string;
}

/** `_links` of an issue. */
export interface IssueLinksSchema {
  self?: string;
  notes?: string;
  award_emoji?: string;
  project?: string;
  closed_as_duplicate_of?: string | null;
}

/** (PREMIUM) The epic an issue belongs to. */
export interface EpicSummarySchema {
  id: number;
  iid?: number;
  title?: string;
  url?: string;
  group_id?: number;
}

/** (PREMIUM) The iteration of an issue (fixtures/issues/fragment-issue-premium-iteration.json). */
export interface IterationSchema {
  id: number;
  iid?: number;
  sequence?: number;
  group_id?: number;
  title?: string | null;
  description?: string | null;
  state?: number;
  created_at?: string;
  updated_at?: string;
  start_date?: string | null;
  due_date?: string | null;
  web_url?: string;
}

/**
 * An issue (rest-v4-api.md "Issue"). Lists and single reads return the same record but for
 * `subscribed`; a to-do's `target` carries fewer fields, so all but the keys are optional.
 */
export interface IssueSchema {
  id: number;
  iid: number;
  project_id: number;
  title?: string;
  description?: string | null;
  state?: string;
  created_at?: string;
  updated_at?: string;
  closed_at?: string | null;
  closed_by?: UserSchema | null;
  labels?: Array<string | LabelSchema>;
  milestone?: MilestoneSchema | null;
  assignees?: UserSchema[];
  assignee?: UserSchema | null;
  author?: UserSchema;
  type?: string;
  issue_type?: string;
  user_notes_count?: number;
  merge_requests_count?: number;
  upvotes?: number;
  downvotes?: number;
  due_date?: string | null;
  start_date?: string | null;
  confidential?: boolean;
  discussion_locked?: boolean | null;
  web_url?: string;
  time_stats?: TimeStatsSchema;
  task_completion_status?: TaskCompletionStatusSchema;
  has_tasks?: boolean;
  task_status?: string;
  _links?: IssueLinksSchema;
  references?: ReferencesSchema;
  reference?: string;
  severity?: string;
  subscribed?: boolean;
  moved_to_id?: number | null;
  imported?: boolean;
  imported_from?: string;
  service_desk_reply_to?: string | null;
  weight?: number | null;
  epic?: EpicSummarySchema | null;
  epic_iid?: number | null;
  iteration?: IterationSchema | null;
  health_status?: string | null;
}

/** `None` or `Any`, the wildcards several issue filters accept (and `Upcoming`, `Started` for milestones). */
export type IssueWildcard = 'None' | 'Any' | 'Upcoming' | 'Started';

/** `not[...]` of an issue list, in REST's names; each level accepts its own keys (rest-v4-api.md). */
export interface NegatedIssueFilters {
  labels?: string[] | undefined;
  milestone?: string | undefined;
  authorId?: number | undefined;
  authorUsername?: string | undefined;
  assigneeId?: number | undefined;
  assigneeUsernames?: string[] | undefined;
  myReactionEmoji?: string | undefined;
  search?: string | undefined;
  in?: string | undefined;
  iids?: number[] | undefined;
  iterationId?: number | undefined;
  iterationTitle?: string | undefined;
  weight?: number | undefined;
}

/** The filters of `GET /issues`, `/groups/:id/issues` and `/projects/:id/issues` (rest-v4-api.md "Issues"). */
export interface IssueListFilters {
  state?: string | undefined;
  scope?: string | undefined;
  assigneeId?: number | IssueWildcard | undefined;
  assigneeUsernames?: string[] | undefined;
  authorId?: number | undefined;
  authorUsername?: string | undefined;
  confidential?: boolean | undefined;
  createdAfter?: string | undefined;
  createdBefore?: string | undefined;
  updatedAfter?: string | undefined;
  updatedBefore?: string | undefined;
  dueDate?: string | undefined;
  iids?: number[] | undefined;
  /** `GET /issues` only. */
  in?: string | undefined;
  issueType?: string | undefined;
  iterationId?: number | IssueWildcard | undefined;
  iterationTitle?: string | undefined;
  labels?: string[] | IssueWildcard | undefined;
  /** A milestone title, or one of REST's wildcards (`None`, `Any`, `Upcoming`, `Started`). */
  milestone?: string | undefined;
  myReactionEmoji?: string | undefined;
  /** `GET /issues` and the group list. */
  nonArchived?: boolean | undefined;
  not?: NegatedIssueFilters | undefined;
  orderBy?: string | undefined;
  sort?: string | undefined;
  search?: string | undefined;
  weight?: number | IssueWildcard | undefined;
  withLabelsDetails?: boolean | undefined;
}

/** One issue of a project, as REST names it: the project (id or full path) and the issue's iid. */
export interface IssueKey {
  project: number | string;
  iid: number;
}

/** The fields `POST /projects/:id/issues` and `PUT /projects/:id/issues/:issue_iid` take, in REST's names. */
export interface IssueWriteBody {
  title?: string;
  description?: string;
  confidential?: boolean;
  discussion_locked?: boolean;
  /** `YYYY-MM-DD`, or `''`/null to clear it. */
  due_date?: string | null;
  issue_type?: string;
  assignee_ids?: number[];
  /** `0` removes the milestone. */
  milestone_id?: number;
  /** Comma-separated titles; `''` removes every label. */
  labels?: string;
  add_labels?: string;
  remove_labels?: string;
  state_event?: string;
  weight?: number | null;
  created_at?: string;
  iid?: number;
}

/** `GET .../user_agent_detail` (administrators). */
export interface UserAgentDetailSchema {
  user_agent?: string;
  ip_address?: string;
  akismet_submitted?: boolean;
  filter_submitted?: boolean;
}

function negatedQuery(not: NegatedIssueFilters | undefined) {
  if (!not) return undefined;
  const query = {
    labels: not.labels?.join(','),
    milestone: not.milestone,
    author_id: not.authorId,
    author_username: not.authorUsername,
    assignee_id: not.assigneeId,
    assignee_username: not.assigneeUsernames,
    my_reaction_emoji: not.myReactionEmoji,
    search: not.search,
    in: not.in,
    iids: not.iids,
    iteration_id: not.iterationId,
    iteration_title: not.iterationTitle,
    weight: not.weight,
  };
  return Object.values(query).some((value) => value !== undefined) ? query : undefined;
}

function issueListQuery(filters: IssueListFilters): RestParams {
  return {
    state: filters.state,
    scope: filters.scope,
    assignee_id: filters.assigneeId,
    assignee_username: filters.assigneeUsernames,
    author_id: filters.authorId,
    author_username: filters.authorUsername,
    confidential: filters.confidential,
    created_after: filters.createdAfter,
    created_before: filters.createdBefore,
    updated_after: filters.updatedAfter,
    updated_before: filters.updatedBefore,
    due_date: filters.dueDate,
    iids: filters.iids,
    in: filters.in,
    issue_type: filters.issueType,
    iteration_id: filters.iterationId,
    iteration_title: filters.iterationTitle,
    // Comma-separated; every label must match.
    labels: Array.isArray(filters.labels) ? filters.labels.join(',') : filters.labels,
    milestone: filters.milestone,
    my_reaction_emoji: filters.myReactionEmoji,
    non_archived: filters.nonArchived,
    not: negatedQuery(filters.not),
    order_by: filters.orderBy,
    sort: filters.sort,
    search: filters.search,
    weight: filters.weight,
    with_labels_details: filters.withLabelsDetails,
  };
}

/** REST issues: the three lists, single reads, and what hangs off one issue. */
export class IssuesApi {
  constructor(private readonly rest: RestSession) {}

  /** `GET /issues`: without `scope`, REST answers the caller's own issues (`created_by_me`). */
  all(filters: IssueListFilters, page: PageRequest): Promise<Page<IssueSchema>> {
    return this.rest.getPage<IssueSchema>(restPath`/issues`, page, issueListQuery(filters));
  }

  forGroup(idOrPath: number | string, filters: IssueListFilters, page: PageRequest): Promise<Page<IssueSchema>> {
    return this.rest.getPage<IssueSchema>(restPath`/groups/${idOrPath}/issues`, page, issueListQuery(filters));
  }

  forProject(idOrPath: number | string, filters: IssueListFilters, page: PageRequest): Promise<Page<IssueSchema>> {
    return this.rest.getPage<IssueSchema>(restPath`/projects/${idOrPath}/issues`, page, issueListQuery(filters));
  }

  show(key: IssueKey): Promise<IssueSchema> {
    return this.rest.get<IssueSchema>(restPath`/projects/${key.project}/issues/${key.iid}`);
  }

  /** `GET /issues/:id`, administrators only. */
  showById(id: number): Promise<IssueSchema> {
    return this.rest.get<IssueSchema>(restPath`/issues/${id}`);
  }

  async create(project: number | string, body: IssueWriteBody): Promise<IssueSchema> {
    return (await this.rest.post<IssueSchema>(restPath`/projects/${project}/issues`, body)).body;
  }

  edit(key: IssueKey, body: IssueWriteBody): Promise<IssueSchema> {
    return this.rest.put<IssueSchema>(restPath`/projects/${key.project}/issues/${key.iid}`, body);
  }

  /** `POST .../move`: the new issue in the target project (the old one is closed). */
  async move(key: IssueKey, toProjectId: number): Promise<IssueSchema> {
    return (await this.rest.post<IssueSchema>(restPath`/projects/${key.project}/issues/${key.iid}/move`, { to_project_id: toProjectId })).body;
  }

  /**
   * `POST .../subscribe` or `.../unsubscribe`: the issue, or null when it already was so (REST 304,
   * no body).
   */
  async setSubscription(key: IssueKey, subscribed: boolean): Promise<IssueSchema | null> {
    const response = subscribed
      ? await this.rest.post<IssueSchema | null>(restPath`/projects/${key.project}/issues/${key.iid}/subscribe`)
      : await this.rest.post<IssueSchema | null>(restPath`/projects/${key.project}/issues/${key.iid}/unsubscribe`);
    return response.status === 304 ? null : response.body;
  }

  timeStats(key: IssueKey): Promise<TimeStatsSchema> {
    return this.rest.get<TimeStatsSchema>(restPath`/projects/${key.project}/issues/${key.iid}/time_stats`);
  }

  /** `duration` is a human duration (`3h30m`). */
  async setTimeEstimate(key: IssueKey, duration: string): Promise<TimeStatsSchema> {
    return (await this.rest.post<TimeStatsSchema>(restPath`/projects/${key.project}/issues/${key.iid}/time_estimate`, { duration })).body;
  }

  async resetTimeEstimate(key: IssueKey): Promise<TimeStatsSchema> {
    return (await this.rest.post<TimeStatsSchema>(restPath`/projects/${key.project}/issues/${key.iid}/reset_time_estimate`)).body;
  }

  /** A negative `duration` (`-30m`) subtracts. */
  async addSpentTime(key: IssueKey, duration: string, summary?: string): Promise<TimeStatsSchema> {
    return (await this.rest.post<TimeStatsSchema>(restPath`/projects/${key.project}/issues/${key.iid}/add_spent_time`, { duration, summary })).body;
  }

  async resetSpentTime(key: IssueKey): Promise<TimeStatsSchema> {
    return (await this.rest.post<TimeStatsSchema>(restPath`/projects/${key.project}/issues/${key.iid}/reset_spent_time`)).body;
  }

  relatedMergeRequests(key: IssueKey, page: PageRequest): Promise<Page<MergeRequestSchema>> {
    return this.rest.getPage<MergeRequestSchema>(restPath`/projects/${key.project}/issues/${key.iid}/related_merge_requests`, page);
  }

  /** Merge requests that close the issue when merged. */
  closedBy(key: IssueKey, page: PageRequest): Promise<Page<MergeRequestSchema>> {
    return this.rest.getPage<MergeRequestSchema>(restPath`/projects/${key.project}/issues/${key.iid}/closed_by`, page);
  }

  participants(key: IssueKey, page: PageRequest): Promise<Page<UserSchema>> {
    return this.rest.getPage<UserSchema>(restPath`/projects/${key.project}/issues/${key.iid}/participants`, page);
  }

  /** Administrators only. */
  userAgentDetail(key: IssueKey): Promise<UserAgentDetailSchema> {
    return this.rest.get<UserAgentDetailSchema>(restPath`/projects/${key.project}/issues/${key.iid}/user_agent_detail`);
  }
}
