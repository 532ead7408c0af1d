// GitLab's `RunnerUpdateInput.associatedProjects` (Ci::Runners::SetRunnerAssociatedProjectsService):
// the projects a project runner is enabled in besides its owner project, set as a whole. REST
// enables and disables a runner project by project (`POST /projects/:id/runners`,
// `DELETE /projects/:id/runners/:runner_id`), so the gateway reads the runner's projects and sends
// the difference.
import { RestError } from '../../datasources/rest-error.js';
import type { GatewayContext } from '../../server/context.js';

/** Why the set could not be reached, in sentences; empty when every change was made. */
export async function setAssociatedProjects(runnerId: number, projectIds: ReadonlyArray<number>, context: GatewayContext): Promise<string[]> {
  const { api, loaders } = context;
  const detail = await loaders.runner.load(runnerId);
  if (detail.runner_type !== 'project_type') return ['Only project runners can be associated with projects.'];
  // The owner project comes first (Ci::Runner#owner_project); it always stays.
  const [owner, ...associated] = (detail.projects ?? []).map((project) => project.id);
  const wanted = new Set(projectIds.filter((id) => id !== owner));
  const changes = [
    ...[...wanted].filter((id) => !associated.includes(id)).map((id) => ({ id, change: () => api.runners.enableInProject(id, runnerId) })),
    ...associated.filter((id) => !wanted.has(id)).map((id) => ({ id, change: () => api.runners.disableInProject(id, runnerId) })),
  ];
  const outcomes = await Promise.allSettled(changes.map(({ change }) => change()));
  loaders.runner.clear(runnerId);
  const errors: string[] = [];
  outcomes.forEach((outcome, index) => {
    if (outcome.status === 'fulfilled') return;
    if (!(outcome.reason instanceof RestError)) throw outcome.reason;
    errors.push(`Project ${changes[index]!.id}: ${outcome.reason.reason}`);
  });
  return errors;
}
