// A project's merge request list (GitLab's lib/api/merge_requests.rb, MergeRequestsFinder): the
// filters REST takes, newest first unless `order_by`/`sort` say otherwise, as MergeRequestBasic.
import type { MergeRequest } from '../data/model.js';
import { mergeRequestBasic, mergeRequestEntity } from '../entities/merge-requests.js';
import { forbidden } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { p, type ParamsOf } from '../http/params.js';
import { isParamHash, type ParamHash } from '../http/query.js';
import { ok } from '../http/response.js';
import type { RequestContext, Router } from '../http/router.js';
import { visibleProject } from './lookup.js';
import { visibleMergeRequest } from './merge-request-access.js';

const listParams = {
  id: p.string().required(),
  state: p.string().values(['opened', 'closed', 'locked', 'merged', 'all']).default('all'),
  order_by: p.string().values(['created_at', 'updated_at', 'title']).default('created_at'),
  sort: p.string().values(['asc', 'desc']).default('desc'),
  iids: p.integerArray(),
  labels: p.stringArray().commaSeparated(),
  milestone: p.string(),
  author_username: p.string(),
  assignee_username: p.string(),
  reviewer_username: p.string(),
  source_branch: p.string(),
  target_branch: p.string(),
  wip: p.string().values(['yes', 'no']),
  created_after: p.string(),
  created_before: p.string(),
  updated_after: p.string(),
  updated_before: p.string(),
  merged_after: p.string(),
  merged_before: p.string(),
  not: p.hash(),
};
type ListParams = ParamsOf<typeof listParams>;

/** `labels`: every label named; `None` for none at all, `Any` for at least one. */
function hasLabels(mergeRequest: MergeRequest, labels: string[] | undefined): boolean {
  if (!labels || labels.length === 0) return true;
  if (labels.length === 1 && labels[0]!.toLowerCase() === 'none') return mergeRequest.labels.length === 0;
  if (labels.length === 1 && labels[0]!.toLowerCase() === 'any') return mergeRequest.labels.length > 0;
  return labels.every((label) => mergeRequest.labels.includes(label));
}

/** `reviewer_username`: a reviewer by name; `None` for no reviewer, `Any` for at least one. */
function hasReviewer(ctx: RequestContext<unknown>, mergeRequest: MergeRequest, reviewer: string | undefined): boolean {
  if (reviewer === undefined) return true;
  if (reviewer.toLowerCase() === 'none') return mergeRequest.reviewerIds.length === 0;
  if (reviewer.toLowerCase() === 'any') return mergeRequest.reviewerIds.length > 0;
  return mergeRequest.reviewerIds.some((id) => ctx.state.users.get(id)?.username.toLowerCase() === reviewer.toLowerCase());
}

/** `not[...]` (the negatable params of API::Helpers::MergeRequestsHelpers); Grape drops undeclared keys. */
interface Negation {
  labels?: string[];
  milestone?: string;
  authorUsername?: string;
  assigneeUsername?: string;
  reviewerUsername?: string;
}

function negation(raw: ParamHash | undefined): Negation {
  const text = (key: string): string | undefined => {
    const value = raw?.[key];
    return typeof value === 'string' ? value : undefined;
  };
  const labels = text('labels');
  return {
    ...(labels !== undefined ? { labels: labels.split(',').map((label) => label.trim()).filter((label) => label !== '') } : {}),
    ...(text('milestone') !== undefined ? { milestone: text('milestone') } : {}),
    ...(text('author_username') !== undefined ? { authorUsername: text('author_username') } : {}),
    ...(text('assignee_username') !== undefined ? { assigneeUsername: text('assignee_username') } : {}),
    ...(text('reviewer_username') !== undefined ? { reviewerUsername: text('reviewer_username') } : {}),
  };
}

/** Whether a negation leaves the merge request in: it has none of the labels, is not of the milestone, and so on. */
function passesNegation(ctx: RequestContext<unknown>, mergeRequest: MergeRequest, not: Negation, milestone: string | undefined): boolean {
  const username = (id: number | null) => (id === null ? undefined : ctx.state.users.get(id)?.username);
  return (
    (!not.labels || !not.labels.some((label) => mergeRequest.labels.includes(label))) &&
    (not.milestone === undefined || milestone !== not.milestone) &&
    (not.authorUsername === undefined || username(mergeRequest.authorId) !== not.authorUsername) &&
    (not.assigneeUsername === undefined || username(mergeRequest.assigneeId) !== not.assigneeUsername) &&
    (not.reviewerUsername === undefined || !mergeRequest.reviewerIds.some((id) => username(id) === not.reviewerUsername))
  );
}

function within(time: string, after: string | undefined, before: string | undefined): boolean {
  const at = Date.parse(time);
  return (after === undefined || at >= Date.parse(after)) && (before === undefined || at <= Date.parse(before));
}

function matches(ctx: RequestContext<unknown>, mergeRequest: MergeRequest, params: ListParams): boolean {
  const username = (id: number | null) => (id === null ? undefined : ctx.state.users.get(id)?.username);
  const milestone = mergeRequest.milestoneId === null ? undefined : ctx.state.milestones.get(mergeRequest.milestoneId)?.title;
  return (
    (params.state === 'all' || mergeRequest.state === params.state) &&
    (!params.iids || params.iids.length === 0 || params.iids.includes(mergeRequest.iid)) &&
    hasLabels(mergeRequest, params.labels) &&
    (params.milestone === undefined || milestone === params.milestone) &&
    (params.author_username === undefined || username(mergeRequest.authorId) === params.author_username) &&
    (params.assignee_username === undefined || username(mergeRequest.assigneeId) === params.assignee_username) &&
    (params.source_branch === undefined || mergeRequest.sourceBranch === params.source_branch) &&
    (params.target_branch === undefined || mergeRequest.targetBranch === params.target_branch) &&
    (params.wip === undefined || mergeRequest.draft === (params.wip === 'yes')) &&
    within(mergeRequest.createdAt, params.created_after, params.created_before) &&
    within(mergeRequest.updatedAt, params.updated_after, params.updated_before) &&
    hasReviewer(ctx, mergeRequest, params.reviewer_username) &&
    // Only merged merge requests have a merge time to compare.
    ((params.merged_after === undefined && params.merged_before === undefined) || (mergeRequest.mergedAt !== null && within(mergeRequest.mergedAt, params.merged_after, params.merged_before))) &&
    passesNegation(ctx, mergeRequest, negation(params.not && isParamHash(params.not) ? params.not : undefined), milestone)
  );
}

/** The order GitLab sorts by, ties broken by id in the same direction. */
function ordered(mergeRequests: MergeRequest[], orderBy: string, sort: string): MergeRequest[] {
  const key = (mergeRequest: MergeRequest) => (orderBy === 'title' ? mergeRequest.title : orderBy === 'updated_at' ? mergeRequest.updatedAt : mergeRequest.createdAt);
  const direction = sort === 'asc' ? 1 : -1;
  return [...mergeRequests].sort((a, b) => direction * (key(a).localeCompare(key(b)) || a.id - b.id));
}

export function registerMergeRequestRoutes(router: Router): void {
  router.get('/projects/:id/merge_requests', { auth: 'optional', paginated: true, params: listParams }, (ctx) => {
    const project = visibleProject(ctx, ctx.params.id);
    if (!project.mergeRequestsEnabled) throw forbidden();
    const mergeRequests = [...ctx.state.mergeRequests.values()].filter((mergeRequest) => mergeRequest.projectId === project.id && matches(ctx, mergeRequest, ctx.params));
    return paginate(ctx, ordered(mergeRequests, ctx.params.order_by, ctx.params.sort), (mergeRequest) => mergeRequestBasic(ctx, mergeRequest));
  });

  // One merge request as GitLab's MergeRequest entity, with its head pipeline (lib/api/merge_requests.rb).
  router.get('/projects/:id/merge_requests/:merge_request_iid', { auth: 'optional', params: { id: p.string().required(), merge_request_iid: p.integer().required() } }, (ctx) => {
    const { mergeRequest } = visibleMergeRequest(ctx, ctx.params.id, ctx.params.merge_request_iid);
    return ok(mergeRequestEntity(ctx, mergeRequest, { single: true }));
  });
}
