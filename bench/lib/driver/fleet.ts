// Grows the demo world to the fleet size a scenario needs. The seed has 70 runners; the fleet
// scenario lists 100. Extra runners are copies of seeded ones (same type, owner and projects),
// each with a copy of its original's newest job, so every copy has projects and a last job like
// a real fleet, and the REST answers keep their shapes. `Simulator.state` is public for this.
import { randomBytes } from 'node:crypto';
import type { Job, SimulatorState } from '../../../simulator/index.js';

export function growFleet(state: SimulatorState, size: number): void {
  const originals = [...state.runners.values()].sort((a, b) => a.id - b.id);
  if (originals.length === 0) throw new Error('the simulator has no runners to copy');
  const newestJob = new Map<number, Job>();
  for (const job of state.jobs.values()) {
    const known = newestJob.get(job.runnerId);
    if (!known || job.id > known.id) newestJob.set(job.runnerId, job);
  }
  for (let index = 0; state.runners.size < size; index++) {
    const original = originals[index % originals.length]!;
    const id = state.nextId('runners');
    state.runners.set(id, {
      ...original,
      id,
      projectIds: [...original.projectIds],
      tagList: [...original.tagList],
      description: `${original.description} (copy ${id})`,
      token: `glrt-bench${randomBytes(10).toString('hex')}`,
    });
    const job = newestJob.get(original.id);
    if (job) {
      const jobId = state.nextId('jobs');
      state.jobs.set(jobId, { ...job, id: jobId, runnerId: id, commit: { ...job.commit }, pipeline: { ...job.pipeline } });
    }
  }
}
