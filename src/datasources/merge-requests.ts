import type { MilestoneSchema, ReferencesSchema, TaskCompletionStatusSchema, TimeStatsSchema } from './issuable-schemas.js';
import type { Page, PageRequest } from './pagination.js';
import type { PipelineSchema } from './pipelines.js';
import { restPath } from './path.js';
import type { RestSession } from './rest-client.js';
import type { UserSchema } from './users.js';

export interface DiffRefsSchema {
  base_sha?: string;
  head_sha?: string;
  start_sha?: string;
}

/** What the caller may do with a merge request (`user`). */
export interface MergeRequestPermissionsSchema {
  can_merge?: boolean;
}

/**
 * A merge request summary (rest-v4-api.md "Merge request summary"): issue endpoints return it, and
 * so does a commit's merge request list. `GET .../related_merge_requests` adds the fields from
 * `squash` on. REST sends `changes_count` as a string, since it caps it as `"1000+"`.
 */
export interface MergeRequestSchema {
  id: number;
  iid: number;
  project_id: number;
  title?: string;
  description?: string | null;
  state?: string;
  created_at?: string;
  updated_at?: string;
  merged_at?: string | null;
  closed_at?: string | null;
  closed_by?: UserSchema | null;
  target_branch?: string;
  source_branch?: string;
  upvotes?: number;
  downvotes?: number;
  author?: UserSchema;
  assignee?: UserSchema | null;
  assignees?: UserSchema[];
  /** Users asked to review it (MergeRequestBasic and the whole record alike). */
  reviewers?: UserSchema[];
  source_project_id?: number;
  target_project_id?: number;
  labels?: string[];
  draft?: boolean;
  work_in_progress?: boolean;
  milestone?: MilestoneSchema | null;
  merge_when_pipeline_succeeds?: boolean;
  merge_status?: string;
  sha?: string | null;
  merge_commit_sha?: string | null;
  squash_commit_sha?: string | null;
  user_notes_count?: number;
  discussion_locked?: boolean | null;
  should_remove_source_branch?: boolean | null;
  force_remove_source_branch?: boolean | null;
  reference?: string;
  references?: ReferencesSchema;
  web_url?: string;
  time_stats?: TimeStatsSchema;
  squash?: boolean;
  task_completion_status?: TaskCompletionStatusSchema;
  changes_count?: string | number | null;
  latest_build_started_at?: string | null;
  latest_build_finished_at?: string | null;
  first_deployed_to_production_at?: string | null;
  /** The head pipeline as Entities::Ci::PipelineBasic (deprecated in REST for `head_pipeline`). */
  pipeline?: PipelineSchema | null;
  /** The head pipeline as Entities::Ci::Pipeline, for callers who may read pipelines. */
  head_pipeline?: PipelineSchema | null;
  diff_refs?: DiffRefsSchema | null;
  merge_error?: string | null;
  user?: MergeRequestPermissionsSchema | null;
  /** Whether the caller gets its notifications: the single read's only (lists leave it out). */
  subscribed?: boolean;
}

/** A merge request of a project: the key of `GET /projects/:id/merge_requests/:merge_request_iid`. */
export interface MergeRequestKey {
  project: number | string;
  iid: number;
}

/** What `PUT /projects/:id/merge_requests/:merge_request_iid` is given here. */
export interface MergeRequestWriteBody {
  milestone_id?: number;
  title?: string;
  description?: string;
  target_branch?: string;
  state_event?: 'close' | 'reopen';
  discussion_locked?: boolean;
  /** Label titles, comma-separated (REST takes titles, not IDs). */
  labels?: string;
  add_labels?: string;
  remove_labels?: string;
  /** `[0]` unassigns everyone: REST ignores an empty list. */
  assignee_ids?: number[];
}

/** `not[labels]` and `not[milestone]` of a merge request list, in REST's terms. */
export interface NegatedMergeRequestFilters {
  labels?: string[] | undefined;
  milestone?: string | undefined;
}

/** The filters of a project's merge request list, in REST's terms (`GET /projects/:id/merge_requests`). */
export interface MergeRequestListFilters {
  state?: string | undefined;
  iids?: number[] | undefined;
  labels?: string[] | undefined;
  milestone?: string | undefined;
  authorUsername?: string | undefined;
  assigneeUsername?: string | undefined;
  reviewerUsername?: string | undefined;
  sourceBranch?: string | undefined;
  targetBranch?: string | undefined;
  /** `yes` for drafts only, `no` for the others. */
  wip?: 'yes' | 'no' | undefined;
  createdAfter?: string | undefined;
  createdBefore?: string | undefined;
  updatedAfter?: string | undefined;
  updatedBefore?: string | undefined;
  mergedAfter?: string | undefined;
  mergedBefore?: string | undefined;
  /** `not[...]`: merge requests to leave out. */
  not?: NegatedMergeRequestFilters | undefined;
  orderBy?: string | undefined;
  sort?: string | undefined;
}

export class MergeRequestsApi {
  constructor(private readonly rest: RestSession) {}

  /** The whole record (GitLab's MergeRequest entity), with what list records lack: `head_pipeline`, `diff_refs`, ... */
  show(key: MergeRequestKey): Promise<MergeRequestSchema> {
    return this.rest.get<MergeRequestSchema>(restPath`/projects/${key.project}/merge_requests/${key.iid}`);
  }

  /** `PUT .../merge_requests/:merge_request_iid`: the merge request after the change (`milestone_id` 0 takes the milestone away). */
  edit(key: MergeRequestKey, body: MergeRequestWriteBody): Promise<MergeRequestSchema> {
    return this.rest.put<MergeRequestSchema>(restPath`/projects/${key.project}/merge_requests/${key.iid}`, body);
  }

  /** `POST .../time_estimate`: the time stats after the change (`duration` a human duration). */
  async setTimeEstimate(key: MergeRequestKey, duration: string): Promise<TimeStatsSchema> {
    return (await this.rest.post<TimeStatsSchema>(restPath`/projects/${key.project}/merge_requests/${key.iid}/time_estimate`, { duration })).body;
  }

  /** `POST .../reset_time_estimate`: the time stats with no estimate. */
  async resetTimeEstimate(key: MergeRequestKey): Promise<TimeStatsSchema> {
    return (await this.rest.post<TimeStatsSchema>(restPath`/projects/${key.project}/merge_requests/${key.iid}/reset_time_estimate`)).body;
  }

  /** Who took part: the author, the assignees, the reviewers and the commenters. */
  participants(key: MergeRequestKey, page: PageRequest): Promise<Page<UserSchema>> {
    return this.rest.getPage<UserSchema>(restPath`/projects/${key.project}/merge_requests/${key.iid}/participants`, page);
  }

  /**
   * `POST .../subscribe` or `.../unsubscribe`: the merge request, or null when it already was so
   * (REST 304, no body).
   */
  async setSubscription(key: MergeRequestKey, subscribed: boolean): Promise<MergeRequestSchema | null> {
    const response = subscribed
      ? await this.rest.post<MergeRequestSchema | null>(restPath`/projects/${key.project}/merge_requests/${key.iid}/subscribe`)
      : await this.rest.post<MergeRequestSchema | null>(restPath`/projects/${key.project}/merge_requests/${key.iid}/unsubscribe`);
    return response.status === 304 ? null : response.body;
  }

  forProject(idOrPath: number | string, filters: MergeRequestListFilters, page: PageRequest): Promise<Page<MergeRequestSchema>> {
    return this.rest.getPage<MergeRequestSchema>(restPath`/projects/${idOrPath}/merge_requests`, page, {
      state: filters.state,
      iids: filters.iids,
      // Comma-separated; every label must match.
      labels: filters.labels?.join(','),
      milestone: filters.milestone,
      author_username: filters.authorUsername,
      assignee_username: filters.assigneeUsername,
      reviewer_username: filters.reviewerUsername,
      source_branch: filters.sourceBranch,
      target_branch: filters.targetBranch,
      wip: filters.wip,
      created_after: filters.createdAfter,
      created_before: filters.createdBefore,
      updated_after: filters.updatedAfter,
      updated_before: filters.updatedBefore,
      merged_after: filters.mergedAfter,
      merged_before: filters.mergedBefore,
      // `not[labels]` is comma-separated too.
      not: filters.not && { labels: filters.not.labels?.join(','), milestone: filters.not.milestone },
      order_by: filters.orderBy,
      sort: filters.sort,
    });
  }
}
