import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, list, record } from './helpers.js';

let sim: Simulator;
const { maintainer, outsider } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

const jobsOf = (projectId: number) => [...sim.state.jobs.values()].filter((job) => job.projectId === projectId).sort((a, b) => b.id - a.id);

describe('GET /projects/:id/jobs', () => {
  it("lists the project's jobs newest first, as one job's record reads", async () => {
    const answer = await call(sim, '/projects/1/jobs?per_page=100', { token: maintainer });
    expect(answer.status).toBe(200);
    const items = list(answer);
    expect(items.map((item) => item['id'])).toEqual(jobsOf(1).slice(0, 100).map((job) => job.id));
    expect(answer.headers.get('x-total')).toBe(String(jobsOf(1).length));
    const first = items[0]!;
    expect(first).toEqual(record(await call(sim, `/projects/1/jobs/${String(first['id'])}`, { token: maintainer })));
  });

  it('keeps the statuses scope[] names and refuses an unknown one (400)', async () => {
    const failedOrCanceled = list(await call(sim, '/projects/1/jobs?scope[]=failed&scope[]=canceled&per_page=100', { token: maintainer }));
    expect(failedOrCanceled.map((item) => item['id'])).toEqual(jobsOf(1).filter((job) => job.status === 'failed' || job.status === 'canceled').map((job) => job.id));
    expect(record(await call(sim, '/projects/1/jobs?scope[]=finished', { token: maintainer }))).toEqual({ error: 'scope does not have a valid value' });
  });

  it('hides a private project (404)', async () => {
    expect(record(await call(sim, '/projects/5/jobs', { token: outsider }))).toEqual({ message: '404 Project Not Found' });
  });
});
