// Merge requests as GitLab's entities present them: MergeRequestBasic in lists (of which
// rest-v4-api.md "Merge request summary" and fixtures/issues/list-issue-closed-by-merge-requests.json
// show a part) and MergeRequest for one (fixtures/issues/list-issue-related-merge-requests.json
// adds its pipeline, diff and permission fields).
import { projectAccessLevel } from '../data/access.js';
import { AccessLevel, type MergeRequest } from '../data/model.js';
import type { PresentContext } from './context.js';
import { extend } from './extend.js';
import { milestoneEntity } from './labels.js';
import { headPipelineOf, mayReadPipelines, pipelineDetailEntity, pipelineEntity } from './pipelines.js';
import { MERGE_SETTINGS } from './projects.js';
import { timeStatsEntity } from './time-stats.js';
import { userSummary } from './users.js';

function userOrNull(ctx: PresentContext, id: number | null) {
  const user = id === null ? undefined : ctx.state.users.get(id);
  return user ? userSummary(ctx, user) : null;
}

/**
 * Taskable's task list items of a description, as TaskList::Summary counts them: list items that
 * open with `[ ]` (to do) or `[x]` (done); `[~]` ones are neither.
 */
function taskCompletionStatus(description: string) {
  const items = [...description.matchAll(/^(?:>\s{0,4})*(?:\s*(?:[-+*]|\d+[.)]))+\s+\[([ xX])\]\s+\S/gm)];
  return { count: items.length, completed_count: items.filter((item) => item[1] !== ' ').length };
}

/**
 * MergeRequests::Mergeability::DetailedMergeStatusService over what is modelled here: `unchecked`
 * before any check, then the first failed check in MergeRequest.all_mergeability_checks' order
 * (open, draft, then conflicts; the discussions and pipeline checks pass, no project asking for
 * them: MERGE_SETTINGS), else `mergeable`.
 */
function detailedMergeStatus(mergeRequest: MergeRequest): string {
  if (mergeRequest.mergeStatus === 'unchecked') return 'unchecked';
  if (mergeRequest.state !== 'opened') return 'not_open';
  if (mergeRequest.draft) return 'draft_status';
  if (mergeRequest.mergeStatus === 'cannot_be_merged') return 'conflict';
  return 'mergeable';
}

/** Whether a thread of the merge request waits to be resolved (Note#to_be_resolved?). */
function hasUnresolvedDiscussions(ctx: PresentContext, mergeRequest: MergeRequest): boolean {
  for (const note of ctx.state.mergeRequestNotes.values()) {
    if (note.mergeRequestId === mergeRequest.id && note.resolvable && note.resolvedById === undefined) return true;
  }
  return false;
}

/** What the project's merge settings make of a merge request: squash, and whether discussions block it. */
function mergeSettingFields() {
  const { squashOption, onlyAllowMergeIfAllDiscussionsAreResolved } = MERGE_SETTINGS;
  // MergeRequest#squash: the author's choice, which defaults to the project's option.
  const squash = squashOption === 'always' || squashOption === 'default_on';
  return {
    squash,
    // MergeRequest#squash_on_merge?: the project's `always` and `never` win over the choice.
    squash_on_merge: squashOption === 'always' || (squashOption !== 'never' && squash),
    // MergeRequest#mergeable_discussions_state?: true unless the project asks for resolved discussions.
    blocks_on_discussions: onlyAllowMergeIfAllDiscussionsAreResolved,
  };
}

/** GitLab's MergeRequestBasic: lists, `closed_by`, commit merge requests and to-do targets. */
export function mergeRequestBasic(ctx: PresentContext, mergeRequest: MergeRequest) {
  const project = ctx.state.projects.get(mergeRequest.projectId);
  const fullPath = project ? ctx.state.projectFullPath(project) : '';
  const milestone = mergeRequest.milestoneId === null ? undefined : ctx.state.milestones.get(mergeRequest.milestoneId);
  const assignee = userOrNull(ctx, mergeRequest.assigneeId);
  const mergedBy = userOrNull(ctx, mergeRequest.mergedById);
  const settings = mergeSettingFields();
  return {
    id: mergeRequest.id,
    iid: mergeRequest.iid,
    project_id: mergeRequest.projectId,
    title: mergeRequest.title,
    description: mergeRequest.description,
    state: mergeRequest.state,
    created_at: mergeRequest.createdAt,
    updated_at: mergeRequest.updatedAt,
    merged_by: mergedBy,
    // Who merged it, or who set it to merge when checks pass (not modelled here).
    merge_user: mergedBy,
    merged_at: mergeRequest.mergedAt,
    closed_by: userOrNull(ctx, mergeRequest.closedById),
    closed_at: mergeRequest.closedAt,
    target_branch: mergeRequest.targetBranch,
    source_branch: mergeRequest.sourceBranch,
    user_notes_count: mergeRequest.userNotesCount,
    upvotes: 0,
    downvotes: 0,
    author: userOrNull(ctx, mergeRequest.authorId),
    assignees: assignee ? [assignee] : [],
    assignee,
    reviewers: mergeRequest.reviewerIds.map((id) => userOrNull(ctx, id)).filter((user) => user !== null),
    source_project_id: mergeRequest.projectId,
    target_project_id: mergeRequest.projectId,
    labels: mergeRequest.labels,
    draft: mergeRequest.draft,
    imported: false,
    imported_from: 'none',
    work_in_progress: mergeRequest.draft,
    milestone: milestone ? milestoneEntity(ctx, milestone) : null,
    merge_when_pipeline_succeeds: false,
    merge_status: mergeRequest.mergeStatus,
    detailed_merge_status: detailedMergeStatus(mergeRequest),
    merge_after: null,
    sha: mergeRequest.sha,
    merge_commit_sha: mergeRequest.mergeCommitSha,
    squash_commit_sha: null,
    discussion_locked: mergeRequest.discussionLocked,
    should_remove_source_branch: null,
    force_remove_source_branch: false,
    // MergeRequests::AfterCreateService marks a merge request prepared once it is created.
    prepared_at: mergeRequest.createdAt,
    reference: `!${mergeRequest.iid}`,
    references: { short: `!${mergeRequest.iid}`, relative: `!${mergeRequest.iid}`, full: `${fullPath}!${mergeRequest.iid}` },
    web_url: `${ctx.origin}/${fullPath}/-/merge_requests/${mergeRequest.iid}`,
    time_stats: timeStatsEntity(mergeRequest.timeEstimate, 0),
    squash: settings.squash,
    squash_on_merge: settings.squash_on_merge,
    task_completion_status: taskCompletionStatus(mergeRequest.description),
    has_conflicts: mergeRequest.mergeStatus === 'cannot_be_merged',
    blocking_discussions_resolved: !settings.blocks_on_discussions || !hasUnresolvedDiscussions(ctx, mergeRequest),
    // PREMIUM (EE::API::Entities::MergeRequestBasic), as the issues' weight; no merge request sets it.
    approvals_before_merge: null,
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
