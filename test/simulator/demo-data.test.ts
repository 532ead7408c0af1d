import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupAccessLevel, projectAccessLevel } from '../../simulator/data/access.js';
import { createDemoState } from '../../simulator/data/seed/index.js';
import { runnerStatus } from '../../simulator/entities/runners.js';
import { BUSY_RUNNERS, DEMO_TOKENS, RUNNER_IDS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, list } from './helpers.js';

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

describe('demo data', () => {
  it('is the same on every start', () => {
    const a = createDemoState();
    const b = createDemoState();
    expect(JSON.stringify([...a.runners.values()])).toBe(JSON.stringify([...b.runners.values()]));
    expect(JSON.stringify([...a.jobs.values()])).toBe(JSON.stringify([...b.jobs.values()]));
  });

  it('has at least 30 projects of every visibility, in groups and personal namespaces', () => {
    const projects = [...sim.state.projects.values()];
    expect(projects.length).toBeGreaterThanOrEqual(30);
    expect(new Set(projects.map((p) => p.visibility))).toEqual(new Set(['public', 'internal', 'private']));
    expect(projects.some((p) => p.namespace.kind === 'user')).toBe(true);
    expect(projects.filter((p) => p.sharedRunnersEnabled).length).toBeGreaterThan(projects.length / 2);
  });

  it('has groups at least 3 levels deep, of every visibility', () => {
    const groups = [...sim.state.groups.values()];
    const depth = Math.max(...groups.map((g) => sim.state.groupAncestors(g).length + 1));
    expect(depth).toBeGreaterThanOrEqual(3);
    expect(new Set(groups.map((g) => g.visibility))).toEqual(new Set(['public', 'internal', 'private']));
  });

  it('gives the demo users their roles', () => {
    const { state } = sim;
    const user = (token: string) => state.users.get(state.tokens.get(token)?.userId ?? 0) ?? null;
    const gitlabOrg = state.findGroup('gitlab-org');
    if (!gitlabOrg) throw new Error('no gitlab-org');
    expect(user(DEMO_TOKENS.admin)?.isAdmin).toBe(true);
    expect(user(DEMO_TOKENS.admin)?.username).toBe('root');
    expect(groupAccessLevel(state, user(DEMO_TOKENS.maintainer), gitlabOrg)).toBe(40);
    expect(groupAccessLevel(state, user(DEMO_TOKENS.developer), gitlabOrg)).toBe(30);
    expect(groupAccessLevel(state, user(DEMO_TOKENS.guest), gitlabOrg)).toBe(10);
    expect(groupAccessLevel(state, user(DEMO_TOKENS.outsider), gitlabOrg)).toBe(0);
    const maintained = [...state.projects.values()].filter((p) => projectAccessLevel(state, user(DEMO_TOKENS.developer), p) >= 40);
    expect(maintained.map((p) => state.projectFullPath(p))).toEqual(['gitlab-org/frontend/web-ui']);
  });

  it('has at least 60 runners, with every status in every type', () => {
    const runners = [...sim.state.runners.values()];
    expect(runners.length).toBeGreaterThanOrEqual(60);
    for (const type of ['instance_type', 'group_type', 'project_type'] as const) {
      const ofType = runners.filter((r) => r.runnerType === type);
      const statuses = new Set(ofType.map(runnerStatus));
      for (const status of ['online', 'offline', 'stale', 'never_contacted', 'not_connected', 'paused']) {
        expect(statuses.has(status), `${type} ${status}`).toBe(true);
      }
    }
    expect(runners.filter((r) => r.runnerType === 'instance_type').map((r) => r.id)).toEqual(
      Array.from({ length: RUNNER_IDS.instance.last }, (_, i) => i + 1),
    );
  });

  it('has project runners on one project and on several', () => {
    const projectRunners = [...sim.state.runners.values()].filter((r) => r.runnerType === 'project_type');
    expect(projectRunners.some((r) => r.projectIds.length === 1)).toBe(true);
    expect(projectRunners.some((r) => r.projectIds.length === 2)).toBe(true);
    expect(projectRunners.some((r) => r.projectIds.length === 3)).toBe(true);
  });

  it('gives every runner a distinct glrt- authentication token', () => {
    const tokens = [...sim.state.runners.values()].map((r) => r.token);
    expect(tokens.every((t) => /^glrt-[A-Za-z0-9]{20}$/.test(t))).toBe(true);
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('has runners with more than 100 jobs, a few jobs, and none', () => {
    const counts = new Map<number, number>();
    for (const job of sim.state.jobs.values()) counts.set(job.runnerId, (counts.get(job.runnerId) ?? 0) + 1);
    for (const [id, count] of Object.entries(BUSY_RUNNERS)) {
      expect(counts.get(Number(id))).toBe(count);
      expect(count).toBeGreaterThan(100);
    }
    expect([...counts.values()].some((c) => c > 0 && c < 20)).toBe(true);
    expect([...sim.state.runners.keys()].some((id) => !counts.has(id))).toBe(true);
    const statuses = new Set([...sim.state.jobs.values()].map((j) => j.status));
    expect(statuses).toEqual(new Set(['running', 'success', 'failed', 'canceled']));
  });

  it('serves them over HTTP', async () => {
    const all = await call(sim, '/runners/all?per_page=100', { token: DEMO_TOKENS.admin });
    expect(Number(all.headers.get('x-total'))).toBeGreaterThanOrEqual(60);
    const types = new Set(list(all).map((r) => r['runner_type']));
    expect(types).toEqual(new Set(['instance_type', 'group_type', 'project_type']));
  });
});
