// The embedded server's `GET /projects/:id/pipelines/:pipeline_id/jobs` as GitLab's REST answers it
// (lib/api/ci/pipelines.rb, Ci::JobsFinder): the pipeline's jobs newest first and paginated, retried
// jobs only with `include_retried`, `scope[]` keeping the jobs in those statuses, 404 for a pipeline
// the project does not have.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Job, type Simulator } from '../../simulator/index.js';
import { retryJobInState } from '../support/retried-jobs.js';
import { call, ids, list } from './helpers.js';

const { maintainer } = DEMO_TOKENS;

describe('GET /projects/:id/pipelines/:pipeline_id/jobs', () => {
  let sim: Simulator;
  let old: Job;
  let retry: Job;
  beforeAll(async () => {
    sim = await startSimulator();
    old = [...sim.state.jobs.values()].find((job) => job.projectId === 1 && job.status === 'failed')!;
    retry = retryJobInState(sim.state, old.id);
  });
  afterAll(async () => {
    await sim.close();
  });

  const ofPipeline = () => [...sim.state.jobs.values()].filter((job) => job.projectId === 1 && job.pipeline.id === old.pipeline.id);

  it('lists the latest try of each job, newest first, with the job records of GET /projects/:id/jobs', async () => {
    const answer = await call(sim, `/projects/1/pipelines/${old.pipeline.id}/jobs`, { token: maintainer });
    expect(answer.status).toBe(200);
    const expected = ofPipeline().filter((job) => job !== old).map((job) => job.id).sort((a, b) => b - a);
    expect(ids(answer)).toEqual(expected);
    expect(ids(answer)).toContain(retry.id);
    expect(answer.headers.get('x-total')).toBe(String(expected.length));
    const single = await call(sim, `/projects/1/jobs/${retry.id}`, { token: maintainer });
    expect(list(answer).find((job) => job['id'] === retry.id)).toEqual(single.body);
  });

  it('lists the retried tries too with include_retried=true', async () => {
    const answer = await call(sim, `/projects/1/pipelines/${old.pipeline.id}/jobs?include_retried=true`, { token: maintainer });
    expect(ids(answer)).toEqual(ofPipeline().map((job) => job.id).sort((a, b) => b - a));
    expect(ids(answer)).toContain(old.id);
  });

  it('keeps the jobs in the statuses scope names', async () => {
    const answer = await call(sim, `/projects/1/pipelines/${old.pipeline.id}/jobs?scope[]=failed&include_retried=true`, { token: maintainer });
    expect(list(answer).every((job) => job['status'] === 'failed')).toBe(true);
    expect(ids(answer)).toContain(old.id);
    const refused = await call(sim, `/projects/1/pipelines/${old.pipeline.id}/jobs?scope[]=finished`, { token: maintainer });
    expect(refused.status).toBe(400);
  });

  it('answers 404 for a pipeline the project does not have', async () => {
    const answer = await call(sim, '/projects/1/pipelines/999999/jobs', { token: maintainer });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: '404 Not found' });
  });
});
