// Time tracking of an issue (rest-v4-api.md "Other issue endpoints"; GitLab's
// TimeTrackingEndpoints): human durations in, time stats out, and spent time that adds up (a
// negative duration subtracts, never below zero). Changing it takes `admin_issue`: Reporter and
// above, and administrators.
import { projectAccessLevel } from '../../data/access.js';
import { AccessLevel, type Issue, type Project } from '../../data/model.js';
import { parseDuration, timeStatsEntity } from '../../entities/time-stats.js';
import { forbidden, validationError } from '../../http/errors.js';
import { p } from '../../http/params.js';
import { created, ok, type ApiResponse } from '../../http/response.js';
import type { RequestContext, Router } from '../../http/router.js';
import { visibleIssue } from './access.js';

type IssueRouteParams = { id: string; issue_iid: number };

function adminIssue(ctx: RequestContext<IssueRouteParams>): { issue: Issue; project: Project } {
  const found = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
  if (!ctx.user?.isAdmin && projectAccessLevel(ctx.state, ctx.user, found.project) < AccessLevel.REPORTER) throw forbidden();
  return found;
}

function stats(issue: Issue) {
  return timeStatsEntity(issue.timeEstimate, issue.totalTimeSpent);
}

function touch(ctx: RequestContext<unknown>, issue: Issue): void {
  issue.updatedAt = ctx.state.now.toISOString();
}

function setEstimate(ctx: RequestContext<IssueRouteParams & { duration: string }>): ApiResponse {
  const { issue } = adminIssue(ctx);
  const seconds = parseDuration(ctx.params.duration);
  if (seconds === null || seconds < 0) throw validationError({ time_estimate: ['must have a valid format and be greater than or equal to zero'] });
  issue.timeEstimate = seconds;
  touch(ctx, issue);
  return ok(stats(issue));
}

function addSpentTime(ctx: RequestContext<IssueRouteParams & { duration: string; summary?: string | undefined }>): ApiResponse {
  const { issue } = adminIssue(ctx);
  const seconds = parseDuration(ctx.params.duration);
  if (seconds === null || seconds === 0) throw validationError({ time_spent: ["can't be blank"] });
  if (issue.totalTimeSpent + seconds < 0) throw validationError({ base: ['Time to subtract exceeds the total time spent'] });
  issue.totalTimeSpent += seconds;
  touch(ctx, issue);
  return created(stats(issue));
}

export function registerTimeTrackingRoutes(router: Router): void {
  const issueParams = { id: p.string().required(), issue_iid: p.integer().required() };
  const base = '/projects/:id/issues/:issue_iid';

  router.post(`${base}/time_estimate`, { auth: 'required', params: { ...issueParams, duration: p.string().required() } }, setEstimate);

  router.post(`${base}/reset_time_estimate`, { auth: 'required', params: issueParams }, (ctx) => {
    const { issue } = adminIssue(ctx);
    issue.timeEstimate = 0;
    touch(ctx, issue);
    return ok(stats(issue));
  });

  router.post(`${base}/add_spent_time`, { auth: 'required', params: { ...issueParams, duration: p.string().required(), summary: p.string() } }, addSpentTime);

  router.post(`${base}/reset_spent_time`, { auth: 'required', params: issueParams }, (ctx) => {
    const { issue } = adminIssue(ctx);
    issue.totalTimeSpent = 0;
    touch(ctx, issue);
    return ok(stats(issue));
  });

  router.get(`${base}/time_stats`, { auth: 'optional', params: issueParams }, (ctx) => {
    const { issue } = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
    return ok(stats(issue));
  });
}
