// A retried job for tests: the embedded server has no retry endpoint, so a test that needs one
// retries a job in the server's state as GitLab's Ci::RetryJobService does: a new try of the same
// job in the same pipeline, the old one marked retried.
import type { Job, SimulatorState } from '../../simulator/index.js';

/** Retries `jobId`: its new try (the next free job id) ends with `status`. */
export function retryJobInState(state: SimulatorState, jobId: number, status: Job['status'] = 'success'): Job {
  const old = state.jobs.get(jobId)!;
  const id = Math.max(...state.jobs.keys()) + 1;
  const retry: Job = { ...old, id, status, retried: false };
  old.retried = true;
  state.jobs.set(id, retry);
  return retry;
}
