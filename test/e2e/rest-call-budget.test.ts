import { describe, expect, it } from 'vitest';
import { DEFAULT_QUERY_LIMITS } from '../../src/policy/limits.js';
import { gatewayOverSimulator, type Harness } from '../support/harness.js';

// Issue 16: a budget users can live with. A generous ceiling on the worst-case estimate still
// refuses abusive shapes before any REST call; the calls an operation really makes are counted as
// it runs, and the fields past the budget fail with LIMIT_EXCEEDED while the rest stands.

const admin = 'glpat-demo-admin';

async function post(harness: Harness, body: Record<string, unknown>, token = admin) {
  const response = await fetch(harness.gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'private-token': token },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { data?: Record<string, unknown> | null; errors?: Array<{ message: string; path?: Array<string | number>; extensions?: Record<string, unknown> }>; extensions?: Record<string, unknown> } };
}

describe('the shipped REST-call limits', () => {
  const harness = gatewayOverSimulator();

  it('run a realistic nested page that the old worst-case ceiling of 100 refused', async () => {
    // A group's projects, 20 per page, each with its issues: estimated far above 100, cheap in fact.
    const query = '{ groups(first: 5) { nodes { fullPath projects(first: 20) { nodes { fullPath issues(first: 20) { nodes { iid title } } } } } } }';
    const { status, body } = await post(harness, { query });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(harness.simulator.requests.length).toBeLessThanOrEqual(DEFAULT_QUERY_LIMITS.maxRestCallsMade);
  });

  it('still refuse the 100 x 100 x 100 shape before any REST call', async () => {
    const query = '{ groups(first: 100) { nodes { projects(first: 100) { nodes { issues(first: 100) { nodes { iid author { username } } } } } } } }';
    const { status, body } = await post(harness, { query });
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'cost', maxRestCalls: DEFAULT_QUERY_LIMITS.maxRestCalls });
    expect(harness.simulator.requests).toHaveLength(0);
  });

  it('still refuse an alias bomb before any REST call', async () => {
    const aliases = Array.from({ length: DEFAULT_QUERY_LIMITS.maxAliases + 1 }, (_, i) => `a${i}: currentUser { username }`).join(' ');
    const { status, body } = await post(harness, { query: `{ ${aliases} }` });
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'aliases' });
    expect(harness.simulator.requests).toHaveLength(0);
  });
});

describe('the budget of REST calls an operation makes', () => {
  const harness = gatewayOverSimulator({ limits: { maxRestCallsMade: 10 } });

  it('fails the fields past the budget with LIMIT_EXCEEDED, saying both figures, and keeps the rest', async () => {
    // 1 call for the page, then 1 per runner for its detail field: 21 calls wanted, 10 allowed.
    const { status, body } = await post(harness, { query: '{ runners(first: 20) { nodes { id tagList } } }' });
    expect(status).toBe(200);
    expect(harness.simulator.requests).toHaveLength(10);
    const nodes = (body.data?.['runners'] as { nodes: Array<{ id: string; tagList: string[] | null }> }).nodes;
    expect(nodes).toHaveLength(20);
    expect(nodes.filter((node) => node.tagList !== null)).toHaveLength(9);
    expect(body.errors).toHaveLength(11);
    for (const error of body.errors ?? []) {
      expect(error.path?.at(-1)).toBe('tagList');
      expect(error.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'calls', maxRestCallsMade: 10 });
      expect(error.extensions?.['estimate']).toBeGreaterThanOrEqual(21);
    }
  });

  it('counts per operation: the next operation has a budget of its own', async () => {
    const first = await post(harness, { query: '{ runners(first: 20) { nodes { id tagList } } }' });
    const second = await post(harness, { query: '{ currentUser { username } }' });
    expect(first.body.errors?.length).toBeGreaterThan(0);
    expect(second.body.errors).toBeUndefined();
    expect(second.body.data).toEqual({ currentUser: { username: 'root' } });
  });
});

describe('explaining the REST calls an operation made', () => {
  describe('when the gateway enables it', () => {
    const harness = gatewayOverSimulator({ explainRestCalls: true });

    it('lists each call with its endpoint template, status, duration and wave', async () => {
      const { body } = await post(harness, { query: '{ runners(first: 3) { nodes { id tagList } } }', extensions: { explainRestCalls: true } });
      expect(body.errors).toBeUndefined();
      const explained = body.extensions?.['restCalls'] as { estimate: number; made: number; budget: number; calls: Array<{ method: string; endpoint: string; status: number; durationMs: number; wave: number }> };
      expect(explained).toMatchObject({ made: 4, budget: DEFAULT_QUERY_LIMITS.maxRestCallsMade });
      expect(explained.estimate).toBeGreaterThanOrEqual(4);
      expect(explained.calls.map(({ method, endpoint, status, wave }) => ({ method, endpoint, status, wave }))).toEqual([
        { method: 'GET', endpoint: '/runners/all', status: 200, wave: 1 },
        { method: 'GET', endpoint: '/runners/:id', status: 200, wave: 2 },
        { method: 'GET', endpoint: '/runners/:id', status: 200, wave: 2 },
        { method: 'GET', endpoint: '/runners/:id', status: 200, wave: 2 },
      ]);
      for (const call of explained.calls) expect(call.durationMs).toBeGreaterThanOrEqual(0);
      // The endpoint is a template: no runner id, project path or token in it.
      expect(JSON.stringify(explained)).not.toMatch(/runners\/\d/);
    });

    it('says nothing to a caller who did not ask', async () => {
      const { body } = await post(harness, { query: '{ currentUser { username } }' });
      expect(body.extensions?.['restCalls']).toBeUndefined();
    });

    it('shows a failed call with its status', async () => {
      const { body } = await post(harness, { query: '{ runner(id: "gid://gitlab/Ci::Runner/999999") { id } }', extensions: { explainRestCalls: true } });
      const explained = body.extensions?.['restCalls'] as { calls: Array<{ endpoint: string; status: number; wave: number }> };
      expect(explained.calls).toEqual([expect.objectContaining({ endpoint: '/runners/:id', status: 404, wave: 1 })]);
    });
  });

  describe('when it is off (the default)', () => {
    const harness = gatewayOverSimulator();

    it('ignores the request for it', async () => {
      const { body } = await post(harness, { query: '{ currentUser { username } }', extensions: { explainRestCalls: true } });
      expect(body.errors).toBeUndefined();
      expect(body.extensions?.['restCalls']).toBeUndefined();
    });
  });
});
