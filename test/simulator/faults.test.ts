import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { until } from '../support/wait.js';
import { call } from './helpers.js';

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator();
});

afterEach(() => {
  sim.faults.clear();
  sim.setLatency(0);
});

afterAll(async () => {
  await sim.close();
});

describe('faults', () => {
  it('answers 500 with the generic body by default, and is recorded', async () => {
    sim.faults.add({ path: '/projects/1', kind: 'status' });
    sim.resetRequests();
    const result = await call(sim, '/projects/1');
    expect(result.status).toBe(500);
    expect(result.body).toEqual({ message: '500 Internal Server Error' });
    expect(result.headers.get('x-request-id')).toBeTruthy();
    expect(sim.requests).toEqual([{ method: 'GET', path: '/projects/1', query: {} }]);
  });

  it('answers a chosen status, body and headers for `times` requests only', async () => {
    sim.faults.add({ path: /^\/runners\/\d+$/, kind: 'status', status: 429, body: 'Retry later', headers: { 'Retry-After': '30' }, times: 1 });
    const limited = await call(sim, '/runners/1', { token: DEMO_TOKENS.admin });
    expect(limited.status).toBe(429);
    expect(limited.text).toBe('Retry later');
    expect(limited.headers.get('retry-after')).toBe('30');
    expect(limited.headers.get('content-type')).toBe('text/plain');
    expect((await call(sim, '/runners/1', { token: DEMO_TOKENS.admin })).status).toBe(200);
  });

  it('matches the method when one is given', async () => {
    sim.faults.add({ method: 'PUT', path: '/runners/1', kind: 'status', status: 503, body: { message: 'busy' } });
    expect((await call(sim, '/runners/1', { token: DEMO_TOKENS.admin })).status).toBe(200);
    const put = await call(sim, '/runners/1', { method: 'PUT', token: DEMO_TOKENS.admin, json: { description: 'x' } });
    expect(put.status).toBe(503);
    expect(put.body).toEqual({ message: 'busy' });
  });

  it('matches the raw, encoded path', async () => {
    sim.faults.add({ path: '/projects/gitlab-org%2Fgitlab', kind: 'status', status: 502 });
    expect((await call(sim, '/projects/gitlab-org%2Fgitlab')).status).toBe(502);
    expect((await call(sim, '/projects/1')).status).toBe(200);
  });

  it('answers 200 with truncated JSON when malformed', async () => {
    sim.faults.add({ path: '/runners', kind: 'malformed' });
    const result = await call(sim, '/runners', { token: DEMO_TOKENS.admin });
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('application/json');
    expect(() => JSON.parse(result.text) as unknown).toThrow();
  });

  it('destroys the socket on close', async () => {
    sim.faults.add({ path: '/user', kind: 'close', times: 1 });
    await expect(call(sim, '/user', { token: DEMO_TOKENS.admin })).rejects.toThrow();
    expect((await call(sim, '/user', { token: DEMO_TOKENS.admin })).status).toBe(200);
  });

  it('never answers on timeout', async () => {
    sim.faults.add({ path: '/user', kind: 'timeout' });
    await expect(fetch(`${sim.url}/user`, { signal: AbortSignal.timeout(200) })).rejects.toThrow();
  });

  it('can be removed by id', async () => {
    const id = sim.faults.add({ path: '/projects/1', kind: 'status' });
    expect(sim.faults.remove(id)).toBe(true);
    expect((await call(sim, '/projects/1')).status).toBe(200);
  });

  it('closes promptly while a request is held by a timeout fault', async () => {
    const other = await startSimulator();
    other.faults.add({ path: /.*/, kind: 'timeout' });
    const pending = fetch(`${other.url}/projects/1`).then(
      () => 'answered',
      () => 'failed',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await other.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await pending).toBe('failed');
  });
});

describe('latency', () => {
  it('delays every /api/v4 answer', async () => {
    sim.setLatency(150);
    const started = Date.now();
    expect((await call(sim, '/projects/1')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("does a call's work as it arrives and answers when the latency has passed, as a server working on many calls at once", async () => {
    sim.setLatency(300);
    const runner = sim.state.runners.get(2)!;
    runner.active = true;
    const started = Date.now();
    let answered = false;
    const pausing = call(sim, '/runners/2', { method: 'PUT', token: DEMO_TOKENS.admin, json: { paused: true } }).then((result) => {
      answered = true;
      return result;
    });
    // The change is made on arrival, while the answer still waits out the latency.
    await until(() => !runner.active);
    expect(answered).toBe(false);
    const result = await pausing;
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ id: 2, paused: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('answers with the state as it was when the work was done, whatever changes while the answer waits', async () => {
    sim.setLatency(300);
    const runner = sim.state.runners.get(4)!;
    const description = runner.description;
    sim.resetRequests();
    const reading = call(sim, '/runners/4', { token: DEMO_TOKENS.admin });
    await until(() => sim.requests.length === 1);
    // The call is worked on as it arrives (its body read, then routed): give that a moment, then change the runner.
    await new Promise((resolve) => setTimeout(resolve, 50));
    runner.description = 'changed while the answer waited';
    try {
      expect((await reading).body).toMatchObject({ id: 4, description });
    } finally {
      runner.description = description;
    }
  });

  it('does no work for a call a fault takes', async () => {
    sim.setLatency(100);
    const runner = sim.state.runners.get(3)!;
    runner.active = true;
    sim.faults.add({ method: 'PUT', path: '/runners/3', kind: 'status', status: 503 });
    const result = await call(sim, '/runners/3', { method: 'PUT', token: DEMO_TOKENS.admin, json: { paused: true } });
    expect(result.status).toBe(503);
    expect(runner.active).toBe(true);
  });

  it('can be set at start', async () => {
    const slow = await startSimulator({ latencyMs: 100 });
    try {
      const started = Date.now();
      await fetch(`${slow.url}/projects/1`).then((r) => r.text());
      expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    } finally {
      await slow.close();
    }
  });
});

describe('control API', () => {
  it('sets latency and adds, lists and clears faults over HTTP', async () => {
    const latency = await fetch(`${sim.origin}/__simulator/latency`, { method: 'PUT', body: JSON.stringify({ ms: 120 }) });
    expect(await latency.json()).toEqual({ ms: 120 });
    const started = Date.now();
    await call(sim, '/projects/1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    await fetch(`${sim.origin}/__simulator/latency`, { method: 'PUT', body: JSON.stringify({ ms: 0 }) });

    const added = await fetch(`${sim.origin}/__simulator/faults`, {
      method: 'POST',
      body: JSON.stringify({ path: { regex: '^/projects/' }, kind: 'status', status: 418, body: { message: 'teapot' }, times: 2 }),
    });
    expect(added.status).toBe(201);
    expect(await added.json()).toEqual({ id: expect.any(String) as unknown });
    expect((await call(sim, '/projects/1')).status).toBe(418);

    const cleared = await fetch(`${sim.origin}/__simulator/faults`, { method: 'DELETE' });
    expect(cleared.status).toBe(204);
    expect((await call(sim, '/projects/1')).status).toBe(200);
  });

  it('refuses a fault it cannot read', async () => {
    const response = await fetch(`${sim.origin}/__simulator/faults`, { method: 'POST', body: JSON.stringify({ path: '/x', kind: 'explode' }) });
    expect(response.status).toBe(400);
  });
});
