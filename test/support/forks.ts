// A fork for tests: the demo data has none, and the embedded server has no fork write, so a test
// that needs one puts it in the server's state: a copy of the source in a user's personal namespace.
import type { Project, SimulatorState } from '../../simulator/index.js';

/** A fork of `sourcePath` in `username`'s personal namespace, with the next free project id. */
export function seedPersonalFork(state: SimulatorState, sourcePath: string, username: string): Project {
  const source = state.findProject(sourcePath)!;
  const owner = state.findUserByUsername(username)!;
  const id = Math.max(...state.projects.keys()) + 1;
  const fork: Project = { ...source, id, namespace: { kind: 'user', userId: owner.id }, forkedFromProjectId: source.id, creatorId: owner.id, archived: false };
  state.projects.set(id, fork);
  return fork;
}
