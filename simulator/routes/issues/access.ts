// Who may see and change an issue (GitLab's IssuePolicy, as rest-v4-api.md and rest-conventions §7
// need it): the project must be visible and its issues feature on; a confidential issue shows only
// to its author, its assignees, Reporters and above, and administrators; what may not be seen is a
// 404, like what does not exist.
import { canReadProject, projectAccessLevel, type Viewer } from '../../data/access.js';
import { AccessLevel, type Issue, type Project } from '../../data/model.js';
import type { SimulatorState } from '../../data/state.js';
import { forbidden, messageError, notFound } from '../../http/errors.js';
import type { RequestContext } from '../../http/router.js';
import { visibleProject } from '../lookup.js';

/** Whether the viewer may list a project's issues at all. */
export function canReadIssuesOf(state: SimulatorState, viewer: Viewer, project: Project): boolean {
  return project.issuesEnabled && canReadProject(state, viewer, project);
}

/** Whether the viewer may see this issue of a project whose issues they may read. */
export function canSeeIssue(state: SimulatorState, viewer: Viewer, issue: Issue, project: Project): boolean {
  if (!issue.confidential || viewer?.isAdmin) return true;
  if (!viewer) return false;
  return issue.authorId === viewer.id || issue.assigneeIds.includes(viewer.id) || projectAccessLevel(state, viewer, project) >= AccessLevel.REPORTER;
}

/** `update_issue`: Reporters and above, the author, the assignees and administrators (time tracking). */
export function canUpdateIssue(state: SimulatorState, viewer: Viewer, issue: Issue, project: Project): boolean {
  if (!viewer) return false;
  if (viewer.isAdmin) return true;
  return issue.authorId === viewer.id || issue.assigneeIds.includes(viewer.id) || projectAccessLevel(state, viewer, project) >= AccessLevel.REPORTER;
}

/** The project of a project-level issue route: visible (404) and with issues on (403, fixtures/issues/create-issue-issues-disabled-403.json). */
export function issuesProject(ctx: RequestContext<unknown>, idOrPath: string): Project {
  const project = visibleProject(ctx, idOrPath);
  if (!project.issuesEnabled) throw forbidden();
  return project;
}

/** `find_project_issue`: the issue by its iid, 404 "Issue Not Found" when it is missing or hidden. */
export function visibleIssue(ctx: RequestContext<unknown>, projectIdOrPath: string, iid: number): { project: Project; issue: Issue } {
  const project = issuesProject(ctx, projectIdOrPath);
  for (const issue of ctx.state.issues.values()) {
    if (issue.projectId === project.id && issue.iid === iid) {
      if (!canSeeIssue(ctx.state, ctx.user, issue, project)) break;
      return { project, issue };
    }
  }
  throw notFound('Issue');
}

/** rest-v4-api.md "Authentication": administrators only. */
export function requireAdmin(ctx: RequestContext<unknown>): void {
  if (!ctx.user?.isAdmin) throw messageError(403, '403 Forbidden');
}
