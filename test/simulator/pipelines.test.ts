import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, list, record } from './helpers.js';

let sim: Simulator;
const { admin, outsider } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

describe('GET /projects/:id/pipelines', () => {
  it('lists the pipelines of the project\'s jobs, newest first, numbered within the project', async () => {
    const result = await call(sim, '/projects/1/pipelines?per_page=100', { token: admin });
    expect(result.status).toBe(200);
    const pipelines = list(result) as Array<{ id: number; iid: number; project_id: number; status: string; web_url: string }>;
    expect(pipelines.length).toBeGreaterThan(1);
    expect(pipelines.map((pipeline) => pipeline.id)).toEqual([...pipelines.map((pipeline) => pipeline.id)].sort((a, b) => b - a));
    // Newest first: the iids count down to 1 on the last page.
    expect(pipelines.every((pipeline, index) => index === 0 || pipeline.iid < pipelines[index - 1]!.iid)).toBe(true);
    expect(pipelines.every((pipeline) => pipeline.project_id === 1 && pipeline.web_url.endsWith(`/-/pipelines/${pipeline.id}`))).toBe(true);
    const jobPipelineIds = new Set([...sim.state.jobs.values()].filter((job) => job.projectId === 1).map((job) => job.pipeline.id));
    expect(Number(result.headers.get('x-total'))).toBe(jobPipelineIds.size);
  });

  it('filters by sha, ref and status, and refuses an unknown status', async () => {
    const [first] = list(await call(sim, '/projects/1/pipelines?per_page=1', { token: admin })) as Array<{ sha: string; ref: string; status: string }>;
    for (const query of [`sha=${first!.sha}`, `ref=${first!.ref}`, `status=${first!.status}`]) {
      const [key, value] = query.split('=') as [string, string];
      const filtered = list(await call(sim, `/projects/1/pipelines?${query}&per_page=100`, { token: admin }));
      expect(filtered.length).toBeGreaterThan(0);
      expect(filtered.every((pipeline) => pipeline[key] === value)).toBe(true);
    }
    expect((await call(sim, '/projects/1/pipelines?status=bogus', { token: admin })).status).toBe(400);
  });

  it('keeps by scope: running and pending by status, finished ones, and the latest of each branch', async () => {
    const all: Array<{ id: number; ref: string; status: string }> = [];
    for (let page = 1; ; page++) {
      const result = await call(sim, `/projects/1/pipelines?per_page=100&page=${page}`, { token: admin });
      all.push(...(list(result) as typeof all));
      if (!result.headers.get('x-next-page')) break;
    }
    const finished = await call(sim, '/projects/1/pipelines?scope=finished&per_page=1', { token: admin });
    expect(Number(finished.headers.get('x-total'))).toBe(all.filter((pipeline) => ['success', 'failed', 'canceled', 'skipped'].includes(pipeline.status)).length);
    const running = list(await call(sim, '/projects/1/pipelines?scope=running&per_page=100', { token: admin })) as Array<{ status: string }>;
    expect(running.every((pipeline) => pipeline.status === 'running')).toBe(true);
    const branches = list(await call(sim, '/projects/1/pipelines?scope=branches&per_page=100', { token: admin })) as Array<{ id: number; ref: string }>;
    expect(new Set(branches.map((pipeline) => pipeline.ref)).size).toBe(branches.length);
    for (const latest of branches) expect(all.filter((pipeline) => pipeline.ref === latest.ref).every((pipeline) => pipeline.id <= latest.id)).toBe(true);
    expect((await call(sim, '/projects/1/pipelines?scope=bogus', { token: admin })).status).toBe(400);
  });

  it('answers one pipeline, and 404 for another project\'s or a missing one', async () => {
    const [first] = list(await call(sim, '/projects/1/pipelines?per_page=1', { token: admin })) as Array<{ id: number }>;
    expect(record(await call(sim, `/projects/1/pipelines/${first!.id}`, { token: admin }))).toMatchObject({ id: first!.id, project_id: 1 });
    expect((await call(sim, '/projects/1/pipelines/999999', { token: admin })).status).toBe(404);
  });

  it('keeps a private project\'s pipelines from outsiders', async () => {
    const secret = [...sim.state.projects.values()].find((project) => project.visibility === 'private')!;
    const answer = await call(sim, `/projects/${secret.id}/pipelines`, { token: outsider });
    expect([403, 404]).toContain(answer.status);
  });
});
