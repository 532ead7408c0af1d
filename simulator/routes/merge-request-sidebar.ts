// What a merge request's sidebar reads and changes (GitLab's REST "Merge requests"): its
// participants, subscribing to or unsubscribing from its notifications, and editing it
// (`PUT .../merge_requests/:merge_request_iid`).
import type { MergeRequest, User } from '../data/model.js';
import { mergeRequestEntity } from '../entities/merge-requests.js';
import { userSummary } from '../entities/users.js';
import { forbidden } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { p } from '../http/params.js';
import { created, notModified, ok } from '../http/response.js';
import type { RequestContext, Router } from '../http/router.js';
import { resolveMilestone } from './issues/writes.js';
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
 * The attributes of GitLab's update this server edits; GitLab's others (branches, assignees,
 * reviewers, labels, squash, lock) are not taken here, and a request with none of these is
 * refused as GitLab refuses one with none of its own.
 */
const updateParams = {
  title: p.string(),
  description: p.string(),
  milestone_id: p.integer().nullable(),
  state_event: p.string().values(['close', 'reopen']),
};

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
    const now = ctx.state.now.toISOString();
    if (ctx.params.title !== undefined) mergeRequest.title = ctx.params.title;
    if (ctx.params.description !== undefined) mergeRequest.description = ctx.params.description;
    // IssuableBaseService#filter_milestone: 0, null or a milestone outside the project and its groups clears it.
    if (ctx.params.milestone_id !== undefined) mergeRequest.milestoneId = resolveMilestone(ctx.state, project, ctx.params.milestone_id);
    if (ctx.params.state_event === 'close' && mergeRequest.state === 'opened') {
      Object.assign(mergeRequest, { state: 'closed', closedAt: now, closedById: ctx.user!.id });
    } else if (ctx.params.state_event === 'reopen' && mergeRequest.state === 'closed') {
      Object.assign(mergeRequest, { state: 'opened', closedAt: null, closedById: null });
    }
    mergeRequest.updatedAt = now;
    return ok(mergeRequestEntity(ctx, mergeRequest, { single: true }));
  });

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
