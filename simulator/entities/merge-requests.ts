// Merge request summaries as the issue endpoints return them (rest-v4-api.md "Merge request
// summary"; fixtures/issues/list-issue-closed-by-merge-requests.json and
// list-issue-related-merge-requests.json, which adds the pipeline, diff and permission fields).
import { projectAccessLevel } from '../data/access.js';
import { AccessLevel, type MergeRequest } from '../data/model.js';
import type { PresentContext } from './context.js';
import { extend } from './extend.js';
import { milestoneEntity } from './labels.js';
import { headPipelineOf, mayReadPipelines, pipelineDetailEntity, pipelineEntity } from './pipelines.js';
import { timeStatsEntity } from './time-stats.js';
import { userSummary } from './users.js';

function userOrNull(ctx: PresentContext, id: number | null) {
  const user = id === null ? undefined : ctx.state.users.get(id);
  return user ? userSummary(ctx, user) : null;
}

/** `GET .../closed_by` (and commit merge request lists): GitLab's MergeRequestBasic. */
export function mergeRequestBasic(ctx: PresentContext, mergeRequest: MergeRequest) {
  const project = ctx.state.projects.get(mergeRequest.projectId);
  const fullPath = project ? ctx.state.projectFullPath(project) : '';
  const milestone = mergeRequest.milestoneId === null ? undefined : ctx.state.milestones.get(mergeRequest.milestoneId);
  return {
    id: mergeRequest.id,
    iid: mergeRequest.iid,
    project_id: mergeRequest.projectId,
    title: mergeRequest.title,
    description: mergeRequest.description,
    state: mergeRequest.state,
    created_at: mergeRequest.createdAt,
    updated_at: mergeRequest.updatedAt,
    merged_at: mergeRequest.mergedAt,
    closed_at: mergeRequest.closedAt,
    closed_by: userOrNull(ctx, mergeRequest.closedById),
    target_branch: mergeRequest.targetBranch,
    source_branch: mergeRequest.sourceBranch,
    upvotes: 0,
    downvotes: 0,
    author: userOrNull(ctx, mergeRequest.authorId),
    assignee: userOrNull(ctx, mergeRequest.assigneeId),
    // GitLab's MergeRequestBasic entity sends the whole list beside its first (`assignee`).
    assignees: [userOrNull(ctx, mergeRequest.assigneeId)].filter((user) => user !== null),
    reviewers: mergeRequest.reviewerIds.map((id) => userOrNull(ctx, id)).filter((user) => user !== null),
    source_project_id: mergeRequest.projectId,
    target_project_id: mergeRequest.projectId,
    labels: mergeRequest.labels,
    draft: mergeRequest.draft,
    work_in_progress: mergeRequest.draft,
    milestone: milestone ? milestoneEntity(ctx, milestone) : null,
    merge_when_pipeline_succeeds: false,
    merge_status: mergeRequest.mergeStatus,
    sha: mergeRequest.sha,
    merge_commit_sha: mergeRequest.mergeCommitSha,
    squash_commit_sha: null,
    user_notes_count: mergeRequest.userNotesCount,
    discussion_locked: mergeRequest.discussionLocked,
    should_remove_source_branch: null,
    force_remove_source_branch: false,
    reference: `!${mergeRequest.iid}`,
    web_url: `${ctx.origin}/${fullPath}/-/merge_requests/${mergeRequest.iid}`,
    references: { short: `!${mergeRequest.iid}`, relative: `!${mergeRequest.iid}`, full: `${fullPath}!${mergeRequest.iid}` },
    time_stats: timeStatsEntity(mergeRequest.timeEstimate, 0),
  };
}

/**
 * `GET .../related_merge_requests` and the single read: GitLab's full MergeRequest entity. `changes_count` is a string,
 * because REST caps it as "1000+".
 */
export function mergeRequestEntity(ctx: PresentContext, mergeRequest: MergeRequest, options: { single?: boolean } = {}) {
  const project = ctx.state.projects.get(mergeRequest.projectId);
  // MergeRequest#diff_head_pipeline, as PipelineBasic (`pipeline`) and as Ci::Pipeline
  // (`head_pipeline`), for callers who may read the project's pipelines.
  const head = project && mayReadPipelines(ctx.state, ctx.user, project) ? headPipelineOf(ctx.state, project, mergeRequest.sourceBranch, mergeRequest.sha) : undefined;
  const canMerge = project !== undefined && projectAccessLevel(ctx.state, ctx.user, project) >= AccessLevel.DEVELOPER;
  return extend(mergeRequestBasic(ctx, mergeRequest), {
    squash: false,
    task_completion_status: { count: 0, completed_count: 0 },
    changes_count: String(mergeRequest.changesCount),
    latest_build_started_at: mergeRequest.createdAt,
    latest_build_finished_at: mergeRequest.mergedAt ?? mergeRequest.closedAt,
    first_deployed_to_production_at: null,
    pipeline: head ? pipelineEntity(ctx, head) : null,
    head_pipeline: head ? pipelineDetailEntity(ctx, head) : null,
    diff_refs: { base_sha: mergeRequest.sha, head_sha: mergeRequest.sha, start_sha: mergeRequest.sha },
    merge_error: null,
    user: { can_merge: canMerge && mergeRequest.state === 'opened' },
    // The single read only: lists present the entity with `include_subscribed: false`.
    ...(options.single ? { subscribed: ctx.user !== null && mergeRequest.subscriberIds.includes(ctx.user.id) } : {}),
  });
}
