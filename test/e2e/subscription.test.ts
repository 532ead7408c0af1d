import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from 'graphql-ws';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { restOracle } from '../support/rest-oracle.js';
import { until } from '../support/wait.js';
import { connect, graphqlStatusOf, SUBSCRIPTION, watch } from '../support/runner-watch.js';

const POLL_MS = 40;
const gid = (id: number) => `gid://gitlab/Ci::Runner/${id}`;
const pollsOf = (simulator: Simulator, runnerId: number) => simulator.requests.filter((request) => request.method === 'GET' && request.path === `/runners/${runnerId}`).length;

describe('ciRunnerStatusUpdated over graphql-ws', () => {
  let simulator: Simulator;
  let gateway: TestGateway;
  const clients: Client[] = [];

  beforeAll(async () => {
    simulator = await startSimulator();
    gateway = await startTestGateway(simulator.url, { runnerPollIntervalMs: POLL_MS });
  });

  afterAll(async () => {
    for (const client of clients) await client.dispose();
    await gateway?.close();
    await simulator?.close();
  });

  beforeEach(() => simulator.resetRequests());

  it('shares one poller between two subscribers, pushes a pause to both, and stops polling when they leave', async () => {
    const token = DEMO_TOKENS.maintainer;
    const [owned] = await restOracle(simulator).all<{ id: number; active: boolean }>('/runners?type=group_type&status=active', token);
    const runnerId = owned!.id;
    const first = connect(gateway, { 'PRIVATE-TOKEN': token });
    const second = connect(gateway, { 'PRIVATE-TOKEN': token });
    clients.push(first, second);
    const a = watch(first, runnerId);
    const b = watch(second, runnerId);
    await until(() => gateway.gateway.pollers.activeSubscriptions === 2);
    expect(gateway.gateway.pollers.activePollers).toBe(1);

    // Polls can only be late, never early: two pollers would exceed this bound.
    simulator.resetRequests();
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 8));
    const polls = pollsOf(simulator, runnerId);
    const elapsed = performance.now() - started;
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(polls).toBeLessThanOrEqual(Math.floor(elapsed / POLL_MS) + 1);

    const paused = await gateway.query(`mutation { runnerUpdate(input: { id: "${gid(runnerId)}", paused: true }) { runner { paused } } }`, {}, token);
    expect(paused.errors).toBeUndefined();
    const [eventA, eventB] = await Promise.all([a.nextEvent(), b.nextEvent()]);
    const status = graphqlStatusOf(await restOracle(simulator).get<{ status: string; online: boolean | null }>(`/runners/${runnerId}`, token));
    for (const event of [eventA, eventB]) {
      expect(event).toEqual({ data: { ciRunnerStatusUpdated: { id: gid(runnerId), status, paused: true } } });
    }

    a.dispose();
    await until(() => gateway.gateway.pollers.activeSubscriptions === 1);
    expect(gateway.gateway.pollers.activePollers).toBe(1);
    b.dispose();
    await until(() => gateway.gateway.pollers.activePollers === 0);
    const pollsAtStop = pollsOf(simulator, runnerId);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 4));
    // At most one poll already on the wire when the last subscriber left.
    expect(pollsOf(simulator, runnerId) - pollsAtStop).toBeLessThanOrEqual(1);
  });

  it('starts a watch even when its first poll meets a passing fault, and reports the next change', async () => {
    const token = DEMO_TOKENS.admin;
    const runnerId = 12;
    // Three 503s outlast the client's retries: the first poll fails, but not for good.
    simulator.faults.add({ method: 'GET', path: `/runners/${runnerId}`, kind: 'status', status: 503, times: 3 });
    const client = connect(gateway, { 'PRIVATE-TOKEN': token });
    clients.push(client);
    const watcher = watch(client, runnerId);
    await until(() => gateway.gateway.pollers.activeSubscriptions === 1);
    await until(() => pollsOf(simulator, runnerId) >= 5); // the faulted attempts, then the baseline
    const paused = await gateway.query(`mutation { runnerUpdate(input: { id: "${gid(runnerId)}", paused: true }) { runner { paused } } }`, {}, token);
    expect(paused.errors).toBeUndefined();
    const status = graphqlStatusOf(await restOracle(simulator).get<{ status: string; online: boolean | null }>(`/runners/${runnerId}`, token));
    expect(await watcher.nextEvent()).toEqual({ data: { ciRunnerStatusUpdated: { id: gid(runnerId), status, paused: true } } });
    watcher.dispose();
    await until(() => gateway.gateway.pollers.activePollers === 0);
  });

  it('keeps one poller per credential, so callers never share what REST showed another', async () => {
    const runnerId = 2; // an instance runner: visible to every signed-in user
    const admin = connect(gateway, { 'PRIVATE-TOKEN': DEMO_TOKENS.admin });
    const guest = connect(gateway, { authorization: `Bearer ${DEMO_TOKENS.guest}` });
    clients.push(admin, guest);
    const a = watch(admin, runnerId);
    const b = watch(guest, runnerId);
    await until(() => gateway.gateway.pollers.activeSubscriptions === 2);
    expect(gateway.gateway.pollers.activePollers).toBe(2);
    a.dispose();
    b.dispose();
    await until(() => gateway.gateway.pollers.activePollers === 0);
  });

  it('ends a subscription to a runner the caller may not see with FORBIDDEN', async () => {
    const client = connect(gateway, { 'PRIVATE-TOKEN': DEMO_TOKENS.guest });
    clients.push(client);
    const watcher = watch(client, 16);
    const event = await watcher.nextEvent();
    expect(event.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
    await until(() => watcher.completed);
    expect(gateway.gateway.pollers.activePollers).toBe(0);
  });

  it('refuses bad arguments before any REST call', async () => {
    const client = connect(gateway, { 'PRIVATE-TOKEN': DEMO_TOKENS.admin });
    clients.push(client);
    await until(() => simulator.requests.length > 0); // the connection's credential check
    simulator.resetRequests();
    const watcher = client.subscribe({ query: SUBSCRIPTION, variables: { id: 'gid://gitlab/Project/1' } }, { next: () => {}, error: () => {}, complete: () => {} });
    const errors = await new Promise<unknown>((resolve) => {
      client.subscribe({ query: SUBSCRIPTION, variables: { id: 'not-an-id' } }, { next: (event) => resolve(event.errors), error: resolve, complete: () => {} });
    });
    watcher();
    expect(JSON.stringify(errors)).toContain('BAD_USER_INPUT');
    expect(simulator.requests).toEqual([]);
  });

  it.each([
    ['no credential', undefined],
    ['an unknown token', { 'PRIVATE-TOKEN': 'glpat-not-a-real-token' }],
  ])('closes a connection with %s with 4403 Forbidden', async (_label, params) => {
    let closeCode: number | undefined;
    const client = connect(gateway, params, (code) => {
      closeCode = code;
    });
    clients.push(client);
    await until(() => closeCode !== undefined);
    expect(closeCode).toBe(4403);
  });
});
