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

/** Every pipeline of project 1 the query keeps, page after page. */
async function everyPipeline(query = ''): Promise<Array<{ id: number; source: string; updated_at: string }>> {
  const all: Array<{ id: number; source: string; updated_at: string }> = [];
  for (let page = 1; ; page++) {
    const result = await call(sim, `/projects/1/pipelines?per_page=100&page=${page}${query}`, { token: admin });
    all.push(...(list(result) as typeof all));
    if (!result.headers.get('x-next-page')) return all;
  }
}

describe('GET /projects/:id/pipelines', () => {
  it('lists the pipelines of the project\'s jobs and commits, newest first, numbered within the project', async () => {
    const result = await call(sim, '/projects/1/pipelines?per_page=100', { token: admin });
    expect(result.status).toBe(200);
    const pipelines = list(result) as Array<{ id: number; iid: number; project_id: number; status: string; web_url: string }>;
    expect(pipelines.length).toBeGreaterThan(1);
    expect(pipelines.map((pipeline) => pipeline.id)).toEqual([...pipelines.map((pipeline) => pipeline.id)].sort((a, b) => b - a));
    expect(new Set(pipelines.map((pipeline) => pipeline.iid)).size).toBe(pipelines.length);
    expect(pipelines.every((pipeline) => pipeline.project_id === 1 && pipeline.web_url.endsWith(`/-/pipelines/${pipeline.id}`))).toBe(true);
    const jobPipelineIds = new Set([...sim.state.jobs.values()].filter((job) => job.projectId === 1).map((job) => job.pipeline.id));
    const commitPipelineIds = [...sim.state.commitPipelines.values()].filter((pipeline) => pipeline.projectId === 1).map((pipeline) => pipeline.id);
    expect(commitPipelineIds.length).toBeGreaterThan(0);
    expect(Number(result.headers.get('x-total'))).toBe(jobPipelineIds.size + commitPipelineIds.length);
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

  it('answers one pipeline as Entities::Ci::Pipeline, and 404 for another project\'s or a missing one', async () => {
    const [first] = list(await call(sim, '/projects/1/pipelines?per_page=1&scope=finished', { token: admin })) as Array<{ id: number }>;
    const pipeline = record(await call(sim, `/projects/1/pipelines/${first!.id}`, { token: admin }));
    expect(pipeline).toMatchObject({ id: first!.id, project_id: 1, before_sha: '0'.repeat(40), yaml_errors: null, committed_at: null, detailed_status: { group: pipeline['status'] } });
    expect(Object.keys(pipeline)).toEqual(expect.arrayContaining(['tag', 'user', 'started_at', 'finished_at', 'duration', 'queued_duration', 'coverage']));
    // A finished pipeline has run: it started, finished, and ran for some seconds.
    expect(typeof pipeline['duration']).toBe('number');
    expect(Date.parse(pipeline['finished_at'] as string)).toBeGreaterThanOrEqual(Date.parse(pipeline['started_at'] as string));
    expect(pipeline['coverage'] === null || /^\d+\.\d\d$/.test(pipeline['coverage'] as string)).toBe(true);
    expect((await call(sim, '/projects/1/pipelines/999999', { token: admin })).status).toBe(404);
  });

  it('filters by source, username and update time as Ci::PipelinesFinder does', async () => {
    const all = await everyPipeline();
    const external = await everyPipeline('&source=external');
    expect(external.map((pipeline) => pipeline.id)).toEqual(all.filter((pipeline) => pipeline.source === 'external').map((pipeline) => pipeline.id));
    expect((await call(sim, '/projects/1/pipelines?source=bogus', { token: admin })).status).toBe(400);

    const detail = record(await call(sim, `/projects/1/pipelines/${all[0]!.id}`, { token: admin })) as { user: { username: string } };
    const byUser = await everyPipeline(`&username=${detail.user.username}`);
    expect(byUser.map((pipeline) => pipeline.id)).toContain(all[0]!.id);
    for (const pipeline of byUser.slice(0, 10)) expect(record(await call(sim, `/projects/1/pipelines/${pipeline.id}`, { token: admin }))).toMatchObject({ user: { username: detail.user.username } });
    expect(list(await call(sim, '/projects/1/pipelines?username=nobody-here', { token: admin }))).toEqual([]);

    // Strictly after and strictly before.
    const pivot = all[Math.floor(all.length / 2)]!.updated_at;
    const after = await everyPipeline(`&updated_after=${encodeURIComponent(pivot)}`);
    expect(after.map((pipeline) => pipeline.id)).toEqual(all.filter((pipeline) => Date.parse(pipeline.updated_at) > Date.parse(pivot)).map((pipeline) => pipeline.id));
    const before = await everyPipeline(`&updated_before=${encodeURIComponent(pivot)}`);
    expect(before.map((pipeline) => pipeline.id)).toEqual(all.filter((pipeline) => Date.parse(pipeline.updated_at) < Date.parse(pivot)).map((pipeline) => pipeline.id));
    const refused = await call(sim, '/projects/1/pipelines?updated_after=yesterday-ish', { token: admin });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'updated_after is invalid' });
  });

  it('keeps a private project\'s pipelines from outsiders', async () => {
    const secret = [...sim.state.projects.values()].find((project) => project.visibility === 'private')!;
    const answer = await call(sim, `/projects/${secret.id}/pipelines`, { token: outsider });
    expect([403, 404]).toContain(answer.status);
  });
});
