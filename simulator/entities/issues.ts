// Issue shapes (rest-v4-api.md "Issue"; fixtures/issues/*.json). The simulator answers as a
// PREMIUM/ULTIMATE instance would, so `weight`, `epic`, `iteration` and `health_status` are present.
import type { Issue, Project } from '../data/model.js';
import type { PresentContext } from './context.js';
import { milestoneById, projectLabelNamed } from '../data/labels.js';
import { groupMilestoneEntity, labelBasic, milestoneEntity } from './labels.js';
import { extend } from './extend.js';
import { timeStatsEntity } from './time-stats.js';
import { userSummary } from './users.js';

/** Where an issue was read from: `references.relative` is relative to it. */
export type IssueReadFrom = { kind: 'instance' } | { kind: 'group'; groupId: number } | { kind: 'project' };

export interface IssuePresentOptions {
  from: IssueReadFrom;
  /** `with_labels_details=true`: labels as objects instead of names. */
  labelDetails?: boolean;
  /** The single-issue answer adds `subscribed` and the milestone's `closed_at`. */
  single?: boolean;
}

function projectOf(ctx: PresentContext, issue: Issue): Project {
  const project = ctx.state.projects.get(issue.projectId);
  if (!project) throw new Error(`issue ${issue.id} has no project`);
  return project;
}

function relativeReference(ctx: PresentContext, project: Project, issue: Issue, from: IssueReadFrom): string {
  const full = `${ctx.state.projectFullPath(project)}#${issue.iid}`;
  if (from.kind === 'project') return `#${issue.iid}`;
  if (from.kind === 'group') {
    const group = ctx.state.groups.get(from.groupId);
    const prefix = group ? `${ctx.state.groupFullPath(group)}/` : '';
    if (prefix && full.startsWith(prefix)) return full.slice(prefix.length);
  }
  return full;
}

function labelsOf(ctx: PresentContext, issue: Issue, details: boolean) {
  if (!details) return issue.labels;
  const project = projectOf(ctx, issue);
  return issue.labels.flatMap((name) => {
    const label = projectLabelNamed(ctx.state, project, name);
    return label ? [labelBasic(label)] : [];
  });
}

/**
 * User summaries, made once per answer: a page of issues names the same people many times, and a
 * summary (with its avatar hash) is the costliest part of an issue.
 */
const summaries = new WeakMap<PresentContext, Map<number, ReturnType<typeof userSummary>>>();

function userOrNull(ctx: PresentContext, id: number | null) {
  const user = id === null ? undefined : ctx.state.users.get(id);
  if (!user) return null;
  let known = summaries.get(ctx);
  if (!known) {
    known = new Map<number, ReturnType<typeof userSummary>>();
    summaries.set(ctx, known);
  }
  const summary = known.get(user.id) ?? userSummary(ctx, user);
  known.set(user.id, summary);
  return summary;
}

function users(ctx: PresentContext, ids: number[]) {
  return ids.flatMap((id) => {
    const user = userOrNull(ctx, id);
    return user ? [user] : [];
  });
}

export function upvotes(issue: Issue): number {
  return issue.awards.filter((award) => award.name === 'thumbsup').length;
}

export function downvotes(issue: Issue): number {
  return issue.awards.filter((award) => award.name === 'thumbsdown').length;
}

interface IssueCounts {
  closingMergeRequests: Map<number, number>;
  userNotes: Map<number, number>;
}

/** Per-issue counts, tallied once per answer rather than once per issue of a page. */
const counts = new WeakMap<PresentContext, IssueCounts>();

function countsFor(ctx: PresentContext): IssueCounts {
  let known = counts.get(ctx);
  if (known) return known;
  known = { closingMergeRequests: new Map(), userNotes: new Map() };
  for (const mergeRequest of ctx.state.mergeRequests.values()) {
    for (const id of mergeRequest.closesIssueIds) known.closingMergeRequests.set(id, (known.closingMergeRequests.get(id) ?? 0) + 1);
  }
  for (const note of ctx.state.notes.values()) if (!note.system) known.userNotes.set(note.issueId, (known.userNotes.get(note.issueId) ?? 0) + 1);
  counts.set(ctx, known);
  return known;
}

/** Merge requests that close the issue when merged (`merge_requests_count`). */
export function closingMergeRequestCount(ctx: PresentContext, issue: Issue): number {
  return countsFor(ctx).closingMergeRequests.get(issue.id) ?? 0;
}

function userNotesCount(ctx: PresentContext, issue: Issue): number {
  return countsFor(ctx).userNotes.get(issue.id) ?? 0;
}

function epicOf(ctx: PresentContext, issue: Issue) {
  const epic = issue.epicId === null ? undefined : ctx.state.epics.get(issue.epicId);
  if (!epic) return null;
  const group = ctx.state.groups.get(epic.groupId);
  return { id: epic.id, iid: epic.iid, title: epic.title, url: `/groups/${group ? ctx.state.groupFullPath(group) : ''}/-/epics/${epic.iid}`, group_id: epic.groupId };
}

function iterationOf(ctx: PresentContext, issue: Issue) {
  const iteration = issue.iterationId === null ? undefined : ctx.state.iterations.get(issue.iterationId);
  if (!iteration) return null;
  const group = ctx.state.groups.get(iteration.groupId);
  return {
    id: iteration.id,
    iid: iteration.iid,
    sequence: iteration.sequence,
    group_id: iteration.groupId,
    title: iteration.title,
    description: null,
    state: iteration.state,
    created_at: iteration.createdAt,
    updated_at: iteration.createdAt,
    start_date: iteration.startDate,
    due_date: iteration.dueDate,
    web_url: `${ctx.origin}/groups/${group ? ctx.state.groupFullPath(group) : ''}/-/iterations/${iteration.id}`,
  };
}

/**
 * The fields an embedded issue carries (the `target` of a to-do, fixtures/issues/create-issue-todo.json):
 * no time stats, links or task status.
 */
export function issueBasic(ctx: PresentContext, issue: Issue, from: IssueReadFrom = { kind: 'project' }) {
  const project = projectOf(ctx, issue);
  const milestone = milestoneById(ctx.state, issue.milestoneId);
  const assignees = users(ctx, issue.assigneeIds);
  const fullPath = ctx.state.projectFullPath(project);
  return {
    id: issue.id,
    iid: issue.iid,
    project_id: issue.projectId,
    title: issue.title,
    description: issue.description,
    state: issue.state,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    labels: issue.labels,
    milestone: !milestone ? null : 'groupId' in milestone ? groupMilestoneEntity(ctx, milestone) : milestoneEntity(ctx, milestone),
    assignees,
    assignee: assignees[0] ?? null,
    type: issue.issueType.toUpperCase(),
    author: userOrNull(ctx, issue.authorId),
    user_notes_count: userNotesCount(ctx, issue),
    upvotes: upvotes(issue),
    downvotes: downvotes(issue),
    merge_requests_count: closingMergeRequestCount(ctx, issue),
    due_date: issue.dueDate,
    web_url: `${ctx.origin}/${fullPath}/-/issues/${issue.iid}`,
    references: { short: `#${issue.iid}`, relative: relativeReference(ctx, project, issue, from), full: `${fullPath}#${issue.iid}` },
    confidential: issue.confidential,
    discussion_locked: issue.discussionLocked,
    issue_type: issue.issueType,
    severity: issue.severity,
    task_completion_status: { count: issue.tasks.count, completed_count: issue.tasks.completed },
  };
}

/** An issue as the lists, the single-issue read and the administrators' read by id answer it. */
export function issueEntity(ctx: PresentContext, issue: Issue, options: IssuePresentOptions) {
  const basic = issueBasic(ctx, issue, options.from);
  const api = `${ctx.origin}/api/v4/projects/${issue.projectId}`;
  const epic = epicOf(ctx, issue);
  return extend(basic, {
    closed_at: issue.closedAt,
    closed_by: userOrNull(ctx, issue.closedById),
    labels: labelsOf(ctx, issue, options.labelDetails === true),
    milestone: basic.milestone && options.single ? { ...basic.milestone, closed_at: milestoneById(ctx.state, basic.milestone.id)?.closedAt ?? null } : basic.milestone,
    moved_to_id: issue.movedToId ?? null,
    service_desk_reply_to: null,
    imported: false,
    imported_from: 'none',
    time_stats: timeStatsEntity(issue.timeEstimate, issue.totalTimeSpent),
    has_tasks: issue.tasks.count > 0,
    task_status: issue.tasks.count > 0 ? `${issue.tasks.completed} of ${issue.tasks.count} tasks completed` : '',
    _links: {
      self: `${api}/issues/${issue.iid}`,
      notes: `${api}/issues/${issue.iid}/notes`,
      award_emoji: `${api}/issues/${issue.iid}/award_emoji`,
      project: api,
      closed_as_duplicate_of: null,
    },
    weight: issue.weight,
    epic_iid: epic?.iid ?? null,
    epic,
    iteration: iterationOf(ctx, issue),
    health_status: issue.healthStatus,
    ...(options.single ? { subscribed: ctx.user !== null && issue.subscriberIds.includes(ctx.user.id) } : {}),
  });
}
