import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pool } from 'undici';
import { DEMO_TOKENS, GITLAB_KEEP_ALIVE_MS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, ids, list, record } from './helpers.js';

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

describe('simulator http basics', () => {
  it('listens on loopback with an /api/v4 base url', () => {
    expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v4$/);
    expect(sim.url).toBe(`${sim.origin}/api/v4`);
  });

  it.each([
    ['a success', '/projects/1', undefined, 200],
    ['an unknown route', '/no/such/route', undefined, 404],
    ['a 401', '/user', undefined, 401],
    ['a 403', '/runners/all', DEMO_TOKENS.guest, 403],
  ])('sends the standard headers on %s', async (_name, path, token, status) => {
    const result = await call(sim, path, token ? { token } : {});
    expect(result.status).toBe(status);
    expect(result.headers.get('content-type')).toBe('application/json');
    expect(result.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(result.headers.get('x-content-type-options')).toBe('nosniff');
    expect(result.headers.get('x-request-id')).toMatch(/^[0-9A-Z]{26}$/);
    expect(result.headers.get('x-runtime')).toMatch(/^\d+\.\d{6}$/);
  });

  // GitLab's NGINX keeps an idle connection 65 s; Node's default (5 s, which undici honours less
  // 2 s) made every client reopen its connections after a lull of 3 s.
  it("keeps an idle connection open as GitLab's web server does, and says so", async () => {
    const pool = new Pool(sim.origin, { connections: 1 });
    try {
      const get = async () => {
        const answer = await pool.request({ method: 'GET', path: '/api/v4/projects/1' });
        await answer.body.dump();
        return answer.headers['keep-alive'];
      };
      sim.resetRequests();
      expect(await get()).toBe(`timeout=${GITLAB_KEEP_ALIVE_MS / 1000}`);
      await new Promise((resolve) => setTimeout(resolve, 3_500));
      await get();
      const arrivals = sim.traffic.filter((event) => event.event === 'arrived');
      expect(arrivals).toHaveLength(2);
      expect(arrivals[1]!.connection).toBe(arrivals[0]!.connection);
    } finally {
      await pool.close();
    }
  });

  it('echoes an incoming X-Request-Id', async () => {
    const result = await call(sim, '/projects/1', { headers: { 'X-Request-Id': 'req-abc-123' } });
    expect(result.headers.get('x-request-id')).toBe('req-abc-123');
  });

  it('answers an unknown route with an error key, not a message', async () => {
    const result = await call(sim, '/runnerz');
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ error: '404 Not Found' });
  });

  it('answers 410 to API v3', async () => {
    const response = await fetch(`${sim.origin}/api/v3/projects`);
    expect(response.status).toBe(410);
    expect(await response.json()).toEqual({ error: 'API V3 is no longer supported. Use API V4 instead.' });
  });

  it('answers 404 outside /api', async () => {
    const response = await fetch(`${sim.origin}/dashboard`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: '404 Not Found' });
  });

  it('answers 204 with an empty body on delete', async () => {
    const result = await call(sim, '/runners/70', { method: 'DELETE', token: DEMO_TOKENS.admin });
    expect(result.status).toBe(204);
    expect(result.text).toBe('');
  });

  it('answers HEAD like GET without a body', async () => {
    const response = await fetch(`${sim.url}/projects/1`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });
});

describe('URL-encoded ids', () => {
  it('finds a project by its %2F-encoded full path', async () => {
    const result = await call(sim, '/projects/gitlab-org%2Fgitlab');
    expect(result.status).toBe(200);
    expect(record(result)['id']).toBe(1);
    expect(record(result)['path_with_namespace']).toBe('gitlab-org/gitlab');
  });

  it('finds deeply nested projects and groups, lower-case %2f too', async () => {
    const project = await call(sim, '/projects/gitlab-org%2Fbackend%2Fservices%2Fbilling%2Finvoices', { token: DEMO_TOKENS.maintainer });
    expect(record(project)['id']).toBe(14);
    const group = await call(sim, '/groups/gitlab-org%2fbackend%2fservices', { token: DEMO_TOKENS.guest });
    expect(record(group)['full_path']).toBe('gitlab-org/backend/services');
  });

  it('never lets a raw slash be part of :id', async () => {
    const result = await call(sim, '/projects/gitlab-org/gitlab');
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ error: '404 Not Found' });
  });

  it('records the raw, still encoded path and the query', async () => {
    sim.resetRequests();
    await call(sim, '/projects/gitlab-org%2Fgitlab/runners?type=project_type&tag_list[]=a&tag_list[]=b', { token: DEMO_TOKENS.maintainer });
    expect(sim.requests).toEqual([
      { method: 'GET', path: '/projects/gitlab-org%2Fgitlab/runners', query: { type: 'project_type', 'tag_list[]': ['a', 'b'] } },
    ]);
  });
});

describe('parameters', () => {
  it('answers 400 "<param> is missing" for a missing required parameter', async () => {
    const result = await call(sim, '/runners', { method: 'POST', json: {} });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ error: 'token is missing' });
  });

  it('answers 400 "<param> is invalid" for a value of the wrong type', async () => {
    const result = await call(sim, '/runners/37', { method: 'PUT', token: DEMO_TOKENS.admin, json: { active: 'maybe' } });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ error: 'active is invalid' });
    const id = await call(sim, '/runners/abc', { token: DEMO_TOKENS.admin });
    expect(id.body).toEqual({ error: 'id is invalid' });
  });

  it('joins several parameter errors with ", "', async () => {
    const result = await call(sim, '/runners/all?type=x&status=y', { token: DEMO_TOKENS.admin });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ error: 'type does not have a valid value, status does not have a valid value' });
  });

  it('reads form bodies with a[]=x arrays', async () => {
    const result = await call(sim, '/runners/36', { method: 'PUT', token: DEMO_TOKENS.admin, form: 'tag_list[]=docker&tag_list[]=gpu&description=Form+body' });
    expect(result.status).toBe(200);
    expect(record(result)['tag_list']).toEqual(['docker', 'gpu']);
    expect(record(result)['description']).toBe('Form body');
  });

  it('reads JSON bodies and the same parameters from the query string of a write', async () => {
    const json = await call(sim, '/runners/36', { method: 'PUT', token: DEMO_TOKENS.admin, json: { tag_list: ['a', 'b'], locked: true } });
    expect(record(json)['tag_list']).toEqual(['a', 'b']);
    expect(record(json)['locked']).toBe(true);
    const query = await call(sim, '/runners/36?tag_list=x,y&locked=false', { method: 'PUT', token: DEMO_TOKENS.admin });
    expect(record(query)['tag_list']).toEqual(['x', 'y']);
    expect(record(query)['locked']).toBe(false);
  });

  it('refuses a JSON body that does not parse', async () => {
    const response = await fetch(`${sim.url}/runners/verify`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"token":' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'message body does not match declared format' });
  });

  it('filters lists with comma-separated and bracketed arrays alike', async () => {
    const comma = await call(sim, '/runners/all?tag_list=docker,linux&per_page=100', { token: DEMO_TOKENS.admin });
    const brackets = await call(sim, '/runners/all?tag_list[]=docker&tag_list[]=linux&per_page=100', { token: DEMO_TOKENS.admin });
    expect(ids(comma)).toEqual(ids(brackets));
    for (const runner of list(comma)) {
      expect(sim.state.runners.get(runner['id'] as number)?.tagList).toEqual(expect.arrayContaining(['docker', 'linux']));
    }
  });
});

describe('control API', () => {
  it('is not part of /api/v4 and is never recorded', async () => {
    sim.resetRequests();
    // Under /api/v4 it is just an unknown route (and that request is logged) ...
    const viaApi = await call(sim, '/__simulator/requests');
    expect(viaApi.status).toBe(404);
    // ... while the control call itself is not.
    const response = await fetch(`${sim.origin}/__simulator/requests`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([{ method: 'GET', path: '/__simulator/requests', query: {} }]);
    expect(sim.requests).toHaveLength(1);
  });

  it('resets the request log', async () => {
    await call(sim, '/projects/1');
    const reset = await fetch(`${sim.origin}/__simulator/reset`, { method: 'POST' });
    expect(reset.status).toBe(204);
    expect(sim.requests).toEqual([]);
  });
});
