// What a merge request's sidebar reads and toggles beside the record (GitLab's REST "Merge
// requests"): its participants, and subscribing to or unsubscribing from its notifications.
import type { MergeRequest, User } from '../data/model.js';
import { mergeRequestEntity } from '../entities/merge-requests.js';
import { userSummary } from '../entities/users.js';
import { paginate } from '../http/pagination.js';
import { p } from '../http/params.js';
import { created, notModified } from '../http/response.js';
import type { RequestContext, Router } from '../http/router.js';
import { visibleMergeRequest } from './merge-request-access.js';

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

export function registerMergeRequestSidebarRoutes(router: Router): void {
  const mergeRequestParams = { id: p.string().required(), merge_request_iid: p.integer().required() };
  const base = '/projects/:id/merge_requests/:merge_request_iid';

  router.get(`${base}/participants`, { auth: 'optional', paginated: true, params: mergeRequestParams }, (ctx) => {
    const { mergeRequest } = visibleMergeRequest(ctx, ctx.params.id, ctx.params.merge_request_iid);
    return paginate(ctx, participants(ctx, mergeRequest), (user) => userSummary(ctx, user));
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
