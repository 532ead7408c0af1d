// Finding one merge request of a project as GitLab's REST does (find_merge_request_with_access):
// the project must be visible (404) with its merge requests on (403), and an unknown iid is
// ActiveRecord's RecordNotFound, which REST answers as a bare 404.
import { projectAccessLevel } from '../data/access.js';
import { AccessLevel, type MergeRequest, type Project, type User } from '../data/model.js';
import type { SimulatorState } from '../data/state.js';
import { forbidden, messageError } from '../http/errors.js';
import type { RequestContext } from '../http/router.js';
import { visibleProject } from './lookup.js';

export function visibleMergeRequest(ctx: RequestContext<unknown>, projectIdOrPath: string, iid: number): { project: Project; mergeRequest: MergeRequest } {
  const project = visibleProject(ctx, projectIdOrPath);
  if (!project.mergeRequestsEnabled) throw forbidden();
  const mergeRequest = [...ctx.state.mergeRequests.values()].find((candidate) => candidate.projectId === project.id && candidate.iid === iid);
  if (!mergeRequest) throw messageError(404, '404 Not found');
  return { project, mergeRequest };
}

/** `update_merge_request`: Developers and above, the author, the assignee and administrators. */
export function canUpdateMergeRequest(state: SimulatorState, user: User, mergeRequest: MergeRequest, project: Project): boolean {
  if (user.isAdmin) return true;
  return mergeRequest.authorId === user.id || mergeRequest.assigneeId === user.id || projectAccessLevel(state, user, project) >= AccessLevel.DEVELOPER;
}
