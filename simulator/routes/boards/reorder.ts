// PUT /projects/:id/issues/:issue_iid/reorder (GitLab's doc/api/issues.md "Reorder an issue";
// lib/api/issues.rb and Issues::ReorderService): what a board does when a card is dropped between
// two others. It lives with the boards because nothing else here orders issues by hand; the issue
// routes stay the issues domain's.
import type { Issue } from '../../data/model.js';
import { issueEntity } from '../../entities/issues.js';
import { forbidden, nestedMessageError } from '../../http/errors.js';
import { p } from '../../http/params.js';
import { ok } from '../../http/response.js';
import type { RequestContext, Router } from '../../http/router.js';
import { canUpdateIssue, visibleIssue } from '../issues/access.js';

/** GitLab's RelativePositioning leaves this gap when an issue goes past either end. */
const IDEAL_DISTANCE = 1000;

/** The project's issues in board order (relative position, then newest first), the moved one left out. */
function othersInOrder(ctx: RequestContext<unknown>, issue: Issue): Issue[] {
  return [...ctx.state.issues.values()]
    .filter((other) => other.projectId === issue.projectId && other.id !== issue.id)
    .sort((a, b) => a.relativePosition - b.relativePosition || b.id - a.id);
}

/**
 * `Issue#move_between(before, after)`: a position strictly between the two neighbours. When they sit
 * on adjacent integers, the issues from `after` on are shifted to make room, as GitLab rebalances.
 */
function placeBetween(ordered: Issue[], issue: Issue, before: Issue | undefined, after: Issue | undefined): void {
  const lower = before ?? (after ? ordered[ordered.indexOf(after) - 1] : undefined);
  const upper = after ?? (before ? ordered[ordered.indexOf(before) + 1] : undefined);
  if (!lower && !upper) return;
  if (!upper) {
    issue.relativePosition = lower!.relativePosition + IDEAL_DISTANCE;
    return;
  }
  if (!lower) {
    issue.relativePosition = upper.relativePosition - IDEAL_DISTANCE;
    return;
  }
  if (upper.relativePosition - lower.relativePosition < 2) {
    for (const other of ordered.slice(ordered.indexOf(upper))) other.relativePosition += IDEAL_DISTANCE;
  }
  issue.relativePosition = Math.floor((lower.relativePosition + upper.relativePosition) / 2);
}

export function registerIssueReorderRoute(router: Router): void {
  const params = { id: p.string().required(), issue_iid: p.integer().required(), move_after_id: p.integer(), move_before_id: p.integer() };

  router.put('/projects/:id/issues/:issue_iid/reorder', { auth: 'required', params }, (ctx) => {
    const { project, issue } = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
    if (!canUpdateIssue(ctx.state, ctx.user, issue, project)) throw forbidden();
    const ordered = othersInOrder(ctx, issue);
    // move_before_id: the issue to sit before this one; move_after_id: the one to sit after it.
    // Ids of other projects' issues are ignored, as the service looks them up in the project only.
    const before = ordered.find((other) => other.id === ctx.params.move_before_id);
    const after = ordered.find((other) => other.id === ctx.params.move_after_id);
    // ReorderService#execute is false without a neighbour: `render_api_error!({ error: 'Unprocessable Entity' }, 422)`.
    if (!before && !after) throw nestedMessageError(422, 'Unprocessable Entity');
    placeBetween(ordered, issue, before, after);
    issue.updatedAt = ctx.state.now.toISOString();
    return ok(issueEntity(ctx, issue, { from: { kind: 'project' } }));
  });
}
