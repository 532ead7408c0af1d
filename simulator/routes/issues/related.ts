// What hangs off an issue: merge requests that mention or close it, its participants, how it was
// filed (administrators), and an incident's metric images (rest-v4-api.md "Other issue endpoints";
// EE lib/ee/api/issues.rb for the metric images).
import { canReadProject } from '../../data/access.js';
import type { Issue, MergeRequest, MetricImage, User } from '../../data/model.js';
import { mergeRequestBasic, mergeRequestEntity } from '../../entities/merge-requests.js';
import { metricImageEntity } from '../../entities/todos.js';
import { userSummary } from '../../entities/users.js';
import { badRequest, messageError } from '../../http/errors.js';
import { paginate } from '../../http/pagination.js';
import { p } from '../../http/params.js';
import { created, noContent, ok } from '../../http/response.js';
import type { RequestContext, Router } from '../../http/router.js';
import { canUpdateIssue, requireAdmin, visibleIssue } from './access.js';

/** IssuableMetricImage::MAX_FILE_SIZE. */
export const METRIC_IMAGE_MAX_BYTES = 1024 * 1024;
const IMAGE_EXTENSIONS = /\.(png|jpe?g|gif|bmp|tiff?|ico|webp)$/i;

/** Merge requests the caller may see: their project visible and its merge requests on. */
function visibleMergeRequests(ctx: RequestContext<unknown>, keep: (mergeRequest: MergeRequest) => boolean): MergeRequest[] {
  return [...ctx.state.mergeRequests.values()].filter((mergeRequest) => {
    const project = ctx.state.projects.get(mergeRequest.projectId);
    return project !== undefined && project.mergeRequestsEnabled && canReadProject(ctx.state, ctx.user, project) && keep(mergeRequest);
  });
}

/** The author, the assignees, then whoever commented, each once (Participable). */
function participants(ctx: RequestContext<unknown>, issue: Issue): User[] {
  const ids = [issue.authorId, ...issue.assigneeIds];
  for (const note of ctx.state.notes.values()) if (note.issueId === issue.id && !note.system) ids.push(note.authorId);
  return [...new Set(ids)].flatMap((id) => {
    const user = ctx.state.users.get(id);
    return user ? [user] : [];
  });
}

function imagesOf(ctx: RequestContext<unknown>, issue: Issue): MetricImage[] {
  return [...ctx.state.metricImages.values()].filter((image) => image.issueId === issue.id).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
}

export function registerRelatedRoutes(router: Router): void {
  const issueParams = { id: p.string().required(), issue_iid: p.integer().required() };
  const base = '/projects/:id/issues/:issue_iid';

  router.get(`${base}/related_merge_requests`, { auth: 'optional', paginated: true, params: issueParams }, (ctx) => {
    const { issue } = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
    const related = visibleMergeRequests(ctx, (mr) => mr.closesIssueIds.includes(issue.id) || mr.mentionsIssueIds.includes(issue.id));
    return paginate(ctx, related, (mergeRequest) => mergeRequestEntity(ctx, mergeRequest));
  });

  router.get(`${base}/closed_by`, { auth: 'optional', paginated: true, params: issueParams }, (ctx) => {
    const { issue } = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
    const closing = visibleMergeRequests(ctx, (mr) => mr.closesIssueIds.includes(issue.id));
    return paginate(ctx, closing, (mergeRequest) => mergeRequestBasic(ctx, mergeRequest));
  });

  router.get(`${base}/participants`, { auth: 'optional', paginated: true, params: issueParams }, (ctx) => {
    const { issue } = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
    return paginate(ctx, participants(ctx, issue), (user) => userSummary(ctx, user));
  });

  router.get(`${base}/user_agent_detail`, { auth: 'required', params: issueParams }, (ctx) => {
    requireAdmin(ctx);
    const { issue } = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
    const detail = issue.userAgentDetail;
    if (!detail) throw messageError(404, '404 UserAgentDetail Not Found');
    return ok({ user_agent: detail.userAgent, ip_address: detail.ipAddress, akismet_submitted: detail.submitted });
  });

  // Incidents only: for any other issue REST answers 404 "Issue not found".
  router.get(`${base}/metric_images`, { auth: 'optional', params: issueParams }, (ctx) => {
    const { issue } = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
    if (issue.issueType !== 'incident') throw messageError(404, 'Issue not found');
    return ok(imagesOf(ctx, issue).map(metricImageEntity));
  });

  router.post(`${base}/metric_images`, { auth: 'required', params: { ...issueParams, file: p.file().required(), url: p.string(), url_text: p.string() } }, (ctx) => {
    const { file } = ctx.params;
    if (file.size > METRIC_IMAGE_MAX_BYTES) throw badRequest('File is too large');
    const { issue, project } = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
    // UploadMetricService answers 403 with its message when the issue is no incident or the caller may not upload.
    if (issue.issueType !== 'incident' || !canUpdateIssue(ctx.state, ctx.user, issue, project)) throw messageError(403, 'Not allowed!');
    if (!IMAGE_EXTENSIONS.test(file.filename)) {
      throw messageError(403, 'Validation failed: File does not have a supported extension. Only png, jpg, jpeg, gif, bmp, tiff, ico, and webp are supported');
    }
    const id = ctx.state.nextId('metricImages');
    const image: MetricImage = {
      id,
      issueId: issue.id,
      filename: file.filename,
      contentType: file.contentType,
      size: file.size,
      url: ctx.params.url ?? null,
      urlText: ctx.params.url_text ?? null,
      createdAt: ctx.state.now.toISOString(),
    };
    ctx.state.metricImages.set(id, image);
    return created(metricImageEntity(image));
  });

  router.delete(`${base}/metric_images/:image_id`, { auth: 'required', params: { ...issueParams, image_id: p.integer().required() } }, (ctx) => {
    const { issue, project } = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
    if (issue.issueType !== 'incident' || !canUpdateIssue(ctx.state, ctx.user, issue, project)) throw messageError(403, '403 Forbidden');
    const image = ctx.state.metricImages.get(ctx.params.image_id);
    if (!image || image.issueId !== issue.id) throw messageError(404, 'Metric image not found');
    ctx.state.metricImages.delete(image.id);
    return noContent();
  });
}
