import type { User } from '../data/model.js';
import type { SimulatorState } from '../data/state.js';

/** What a presenter needs: the world, who is looking, and the server's origin for URLs. */
export interface PresentContext {
  state: SimulatorState;
  user: User | null;
  origin: string;
}

/** Host part of the origin, for `git@host:path.git` URLs. */
export function sshHost(origin: string): string {
  return new URL(origin).hostname;
}
