import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, record } from './helpers.js';

let sim: Simulator;
const { admin, developer, guest } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

/** A project the developer maintains: the owner project of one of their runners. */
async function maintainedProjectId(): Promise<number> {
  const runner = record(await call(sim, '/runners/37', { token: developer }));
  return (runner['projects'] as Array<{ id: number }>)[0]!.id;
}

/** The group of a group runner, and the group's own registration token (administrators see it). */
async function someGroup(): Promise<{ id: number; runnersToken: string }> {
  const runner = record(await call(sim, '/runners/16', { token: admin }));
  const id = (runner['groups'] as Array<{ id: number }>)[0]!.id;
  const group = record(await call(sim, `/groups/${id}`, { token: admin }));
  return { id, runnersToken: group['runners_token'] as string };
}

describe('POST /user/runners', () => {
  it('creates a project runner for a Maintainer of the project: 201 with its id and token, never contacted', async () => {
    const projectId = await maintainedProjectId();
    const created = await call(sim, '/user/runners', {
      method: 'POST',
      token: developer,
      json: { runner_type: 'project_type', project_id: projectId, description: 'made by a user', paused: true, tag_list: 'gpu,arm64', maximum_timeout: 3600 },
    });
    expect(created.status).toBe(201);
    const body = record(created);
    expect(Object.keys(body).sort()).toEqual(['id', 'token', 'token_expires_at']);
    expect(body['token']).toMatch(/^glrt-/);
    const runner = record(await call(sim, `/runners/${body['id'] as number}`, { token: developer }));
    expect(runner).toMatchObject({
      runner_type: 'project_type',
      description: 'made by a user',
      paused: true,
      // Never contacted comes before paused in GitLab's REST status (Ci::Runner#deprecated_rest_status).
      status: 'never_contacted',
      tag_list: ['gpu', 'arm64'],
      maximum_timeout: 3600,
      projects: [expect.objectContaining({ id: projectId })],
    });
    const verified = await call(sim, '/runners/verify', { method: 'POST', json: { token: body['token'] } });
    expect(verified.status).toBe(200);
  });

  it('creates instance runners for administrators only, and group runners for the group\'s Owners', async () => {
    expect((await call(sim, '/user/runners', { method: 'POST', token: admin, json: { runner_type: 'instance_type' } })).status).toBe(201);
    const refused = await call(sim, '/user/runners', { method: 'POST', token: developer, json: { runner_type: 'instance_type' } });
    expect(refused).toMatchObject({ status: 403, body: { message: '403 Forbidden - Insufficient permissions' } });
    const group = await someGroup();
    expect((await call(sim, '/user/runners', { method: 'POST', token: admin, json: { runner_type: 'group_type', group_id: group.id } })).status).toBe(201);
    expect((await call(sim, '/user/runners', { method: 'POST', token: guest, json: { runner_type: 'group_type', group_id: group.id } })).status).toBe(403);
  });

  it('answers 403 for a project that does not exist, 400 for a bad type, and the model\'s validation errors', async () => {
    expect((await call(sim, '/user/runners', { method: 'POST', token: admin, json: { runner_type: 'project_type', project_id: 999_999 } })).status).toBe(403);
    const badType = await call(sim, '/user/runners', { method: 'POST', token: admin, json: { runner_type: 'specific' } });
    expect(badType.status).toBe(400);
    const tooShort = await call(sim, '/user/runners', { method: 'POST', token: admin, json: { runner_type: 'instance_type', maximum_timeout: 60 } });
    expect(tooShort).toMatchObject({ status: 400, body: { message: { maximum_timeout: ['needs to be at least 10 minutes'] } } });
  });

  it('needs a credential', async () => {
    expect((await call(sim, '/user/runners', { method: 'POST', json: { runner_type: 'instance_type' } })).status).toBe(401);
  });
});

describe('POST .../runners/reset_registration_token', () => {
  it('replaces the instance token for administrators only', async () => {
    const refused = await call(sim, '/runners/reset_registration_token', { method: 'POST', token: developer });
    expect(refused.status).toBe(403);
    const reset = await call(sim, '/runners/reset_registration_token', { method: 'POST', token: admin });
    expect(reset.status).toBe(201);
    const token = record(reset)['token'] as string;
    expect(token).toMatch(/^GR1348941/);
    expect((await call(sim, '/runners', { method: 'POST', json: { token: DEMO_TOKENS.runnerRegistration } })).status).toBe(403);
    expect((await call(sim, '/runners', { method: 'POST', json: { token } })).status).toBe(201);
  });

  it('replaces a group\'s token for its Owners and a project\'s for its Maintainers', async () => {
    const group = await someGroup();
    expect((await call(sim, `/groups/${group.id}/runners/reset_registration_token`, { method: 'POST', token: guest })).status).toBeGreaterThanOrEqual(403);
    const groupReset = record(await call(sim, `/groups/${group.id}/runners/reset_registration_token`, { method: 'POST', token: admin }));
    expect(groupReset['token']).not.toBe(group.runnersToken);
    expect((await call(sim, '/runners', { method: 'POST', json: { token: group.runnersToken } })).status).toBe(403);

    const projectId = await maintainedProjectId();
    const projectReset = await call(sim, `/projects/${projectId}/runners/reset_registration_token`, { method: 'POST', token: developer });
    expect(projectReset.status).toBe(201);
    expect(record(projectReset)['token']).toMatch(/^GR1348941/);
    expect((await call(sim, `/projects/${projectId}/runners/reset_registration_token`, { method: 'POST', token: guest })).status).toBeGreaterThanOrEqual(403);
  });
});

describe('GET /projects/:id/jobs/:job_id', () => {
  it('answers the job record with its tags and artifacts, to Reporters and above', async () => {
    const jobs = (await call(sim, '/runners/37/jobs?per_page=1', { token: developer })).body as Array<{ id: number; project: { id: number } }>;
    const job = jobs[0]!;
    const answer = await call(sim, `/projects/${job.project.id}/jobs/${job.id}`, { token: developer });
    expect(answer.status).toBe(200);
    const body = record(answer);
    expect(body['id']).toBe(job.id);
    expect(Array.isArray(body['tag_list'])).toBe(true);
    expect(Array.isArray(body['artifacts'])).toBe(true);
    expect(String(body['web_url'])).toContain(`/-/jobs/${job.id}`);
    expect((await call(sim, `/projects/${job.project.id}/jobs/999999`, { token: developer })).status).toBe(404);
  });
});
