// What a merge request's sidebar reads and changes (GitLab's REST "Merge requests"): its
// participants, subscribing to or unsubscribing from its notifications, editing it
// (`PUT .../merge_requests/:merge_request_iid`) and its time estimate.
import { projectAccessLevel } from '../data/access.js';
import { AccessLevel, type MergeRequest, type Project, type User } from '../data/model.js';
import { mergeRequestEntity } from '../entities/merge-requests.js';
import { parseDuration, timeStatsEntity } from '../entities/time-stats.js';
import { userSummary } from '../entities/users.js';
import { ApiError, forbidden, validationError } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { p, type ParamsOf } from '../http/params.js';
import { created, notModified, ok, type ApiResponse } from '../http/response.js';
import type { RequestContext, Router } from '../http/router.js';
import { resolveLabels, resolveMilestone } from './issues/writes.js';
import { canUpdateMergeRequest, visibleMergeRequest } from './merge-request-access.js';
import { markTodo } from './todos.js';

/**
 * The author, the assignee, then the reviewers, each once (Participable: Issuable's author and
 * assignees, MergeRequest's reviewers; the demo data has no merge request comments).
 */
function participants(ctx: RequestContext<unknown>, mergeRequest: MergeRequest): User[] {
  const ids = [mergeRequest.authorId, mergeRequest.assigneeId, ...mergeRequest.reviewerIds].filter((id) => id !== null);
  return [...new Set(ids)].flatMap((id) => {
    const user = ctx.state.users.get(id);
    return user ? [user] : [];
  });
}

/**
 * The attributes of GitLab's update this server edits; GitLab's others (reviewers, squash, source
 * branch removal, collaboration) are not taken here, and a request with none of these is refused as
 * GitLab refuses one with none of its own.
 */
const updateParams = {
  // In GitLab's order, which its at-least-one message follows.
  assignee_id: p.integer().nullable(),
  assignee_ids: p.integerArray().nullable(),
  description: p.string(),
  labels: p.stringArray().commaSeparated(),
  add_labels: p.stringArray().commaSeparated(),
  remove_labels: p.stringArray().commaSeparated(),
  milestone_id: p.integer().nullable(),
  target_branch: p.string(),
  title: p.string(),
  state_event: p.string().values(['close', 'reopen']),
  discussion_locked: p.boolean(),
};

type UpdateParams = Partial<ParamsOf<typeof updateParams>>;

/**
 * `assignee_ids` (or the older `assignee_id`) as IssuableBaseService#filter_assignees takes them:
 * unknown users and 0 dropped, and, merge requests allowing one assignee without Premium, the first
 * of the rest kept. Undefined when neither is given.
 */
function assigneeOf(ctx: RequestContext<unknown>, params: UpdateParams): number | null | undefined {
  const ids = params.assignee_ids !== undefined ? (params.assignee_ids ?? []) : params.assignee_id !== undefined ? [params.assignee_id ?? 0] : undefined;
  if (ids === undefined) return undefined;
  return ids.find((id) => ctx.state.users.has(id)) ?? null;
}

/**
 * The edit GitLab's MergeRequests::UpdateService makes: labels, assignees and the lock only for
 * those who may administer the merge request (Developers and above, administrators), dropped
 * silently for the others, as IssuableBaseService#filter_params drops them.
 */
function applyUpdate(ctx: RequestContext<unknown>, project: Project, mergeRequest: MergeRequest, params: UpdateParams): void {
  const now = ctx.state.now.toISOString();
  if (params.title !== undefined) mergeRequest.title = params.title;
  if (params.description !== undefined) mergeRequest.description = params.description;
  if (params.target_branch !== undefined) mergeRequest.targetBranch = params.target_branch;
  // IssuableBaseService#filter_milestone: 0, null or a milestone outside the project and its groups clears it.
  if (params.milestone_id !== undefined) mergeRequest.milestoneId = resolveMilestone(ctx.state, project, params.milestone_id);
  if (mayAdministerMergeRequest(ctx, project)) {
    const assignee = assigneeOf(ctx, params);
    if (assignee !== undefined) mergeRequest.assigneeId = assignee;
    // A label name no label has becomes a project label, as for issues.
    if (params.labels !== undefined) mergeRequest.labels = resolveLabels(ctx.state, project, params.labels);
    if (params.add_labels !== undefined) mergeRequest.labels = resolveLabels(ctx.state, project, [...mergeRequest.labels, ...params.add_labels]);
    if (params.remove_labels !== undefined) mergeRequest.labels = mergeRequest.labels.filter((name) => !params.remove_labels!.includes(name));
    if (params.discussion_locked !== undefined) mergeRequest.discussionLocked = params.discussion_locked;
  }
  if (params.state_event === 'close' && mergeRequest.state === 'opened') {
    Object.assign(mergeRequest, { state: 'closed', closedAt: now, closedById: ctx.user!.id });
  } else if (params.state_event === 'reopen' && mergeRequest.state === 'closed') {
    Object.assign(mergeRequest, { state: 'opened', closedAt: null, closedById: null });
  }
  mergeRequest.updatedAt = now;
}

/** `admin_merge_request`: Developers and above, and administrators. */
function mayAdministerMergeRequest(ctx: RequestContext<unknown>, project: Project): boolean {
  return ctx.user!.isAdmin || projectAccessLevel(ctx.state, ctx.user, project) >= AccessLevel.DEVELOPER;
}

/** The merge request a time tracking write changes: TimeTrackingEndpoints ask `admin_merge_request` (403 otherwise). */
function mergeRequestToTrack(ctx: RequestContext<{ id: string; merge_request_iid: number }>): MergeRequest {
  const { project, mergeRequest } = visibleMergeRequest(ctx, ctx.params.id, ctx.params.merge_request_iid);
  if (!mayAdministerMergeRequest(ctx, project)) throw forbidden();
  return mergeRequest;
}

function trackedTime(ctx: RequestContext<unknown>, mergeRequest: MergeRequest, timeEstimate: number): ApiResponse {
  mergeRequest.timeEstimate = timeEstimate;
  mergeRequest.updatedAt = ctx.state.now.toISOString();
  return ok(timeStatsEntity(mergeRequest.timeEstimate, 0));
}

export function registerMergeRequestSidebarRoutes(router: Router): void {
  const mergeRequestParams = { id: p.string().required(), merge_request_iid: p.integer().required() };
  const base = '/projects/:id/merge_requests/:merge_request_iid';

  router.get(`${base}/participants`, { auth: 'optional', paginated: true, params: mergeRequestParams }, (ctx) => {
    const { mergeRequest } = visibleMergeRequest(ctx, ctx.params.id, ctx.params.merge_request_iid);
    return paginate(ctx, participants(ctx, mergeRequest), (user) => userSummary(ctx, user));
  });

  router.put(base, { auth: 'required', params: { ...mergeRequestParams, ...updateParams }, atLeastOneOf: Object.keys(updateParams) }, (ctx) => {
    const { project, mergeRequest } = visibleMergeRequest(ctx, ctx.params.id, ctx.params.merge_request_iid);
    if (!canUpdateMergeRequest(ctx.state, ctx.user!, mergeRequest, project)) throw forbidden();
    // handle_merge_request_errors!: MergeRequest#validate_branches' conflict is a 422 of its own.
    if (ctx.params.target_branch !== undefined && ctx.params.target_branch === mergeRequest.sourceBranch) {
      throw new ApiError(422, { json: { message: ["You can't use same project/branch for source and target"] } });
    }
    if (ctx.params.title !== undefined && ctx.params.title.trim() === '') throw validationError({ title: ["can't be blank"] });
    applyUpdate(ctx, project, mergeRequest, ctx.params);
    return ok(mergeRequestEntity(ctx, mergeRequest, { single: true }));
  });

  // TimeTrackingEndpoints: a human duration in, the time stats out (this server tracks no spent time on merge requests).
  router.post(`${base}/time_estimate`, { auth: 'required', params: { ...mergeRequestParams, duration: p.string().required() } }, (ctx) => {
    const mergeRequest = mergeRequestToTrack(ctx);
    const seconds = parseDuration(ctx.params.duration);
    if (seconds === null || seconds < 0) throw validationError({ time_estimate: ['must have a valid format and be greater than or equal to zero'] });
    return trackedTime(ctx, mergeRequest, seconds);
  });

  router.post(`${base}/reset_time_estimate`, { auth: 'required', params: mergeRequestParams }, (ctx) => trackedTime(ctx, mergeRequestToTrack(ctx), 0));

  router.post(`${base}/todo`, { auth: 'required', params: mergeRequestParams }, (ctx) => {
    const { mergeRequest } = visibleMergeRequest(ctx, ctx.params.id, ctx.params.merge_request_iid);
    return markTodo(ctx, ctx.user!, { type: 'MergeRequest', id: mergeRequest.id, title: mergeRequest.title });
  });

  // rest-conventions §5: 304, no body, when the caller already is (or is not) subscribed.
  for (const [action, subscribe] of [['subscribe', true], ['unsubscribe', false]] as const) {
    router.post(`${base}/${action}`, { auth: 'required', params: mergeRequestParams }, (ctx) => {
      const { mergeRequest } = visibleMergeRequest(ctx, ctx.params.id, ctx.params.merge_request_iid);
      const userId = ctx.user!.id;
      if (mergeRequest.subscriberIds.includes(userId) === subscribe) return notModified();
      mergeRequest.subscriberIds = subscribe ? [...mergeRequest.subscriberIds, userId] : mergeRequest.subscriberIds.filter((id) => id !== userId);
      return created(mergeRequestEntity(ctx, mergeRequest, { single: true }));
    });
  }
}
