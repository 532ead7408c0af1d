import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { connect, watch } from '../support/runner-watch.js';
import { restOracle } from '../support/rest-oracle.js';
import { until } from '../support/wait.js';

const CURRENT_USER = '{ currentUser { username } }';

/** A query over the connection, as graphql-ws runs it; its single result. */
function queryOver(client: Client, query: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let result: unknown;
    client.subscribe({ query }, { next: (value) => (result = value), error: reject, complete: () => resolve(result) });
  });
}

/** Calls `onUpgrade` for each upgrade the gateway's server receives, after the gateway's own listener. */
function onNextUpgrade(gateway: TestGateway, onUpgrade: (request: IncomingMessage, socket: Duplex) => void): void {
  gateway.gateway.httpServer.once('upgrade', onUpgrade);
}

/**
 * The WebSocket server (ws, graphql-ws) is loaded at a gateway's first upgrade, not at its start
 * (src/transport/websocket.ts). Each test starts a fresh gateway, so that each meets the server
 * still unloaded: what arrives while it loads is served, and shutdown works whether it ever loaded.
 */
describe('the WebSocket server loaded at the first upgrade', () => {
  let simulator: Simulator;
  let gateway: TestGateway | undefined;
  const clients: Client[] = [];

  beforeAll(async () => {
    simulator = await startSimulator();
  });
  afterAll(async () => simulator?.close());
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.dispose();
    await gateway?.close();
    gateway = undefined;
  });

  it('serves a subscription sent as the first request to a fresh gateway', async () => {
    gateway = await startTestGateway(simulator.url, { runnerPollIntervalMs: 40 });
    const token = DEMO_TOKENS.maintainer;
    const [owned] = await restOracle(simulator).all<{ id: number }>('/runners?type=group_type&status=active', token);
    const client = connect(gateway, { 'PRIVATE-TOKEN': token });
    clients.push(client);
    const watcher = watch(client, owned!.id);
    const started = gateway;
    await until(() => started.gateway.pollers.activeSubscriptions === 1);

    const paused = await gateway.query(`mutation { runnerUpdate(input: { id: "gid://gitlab/Ci::Runner/${owned!.id}", paused: true }) { runner { paused } } }`, {}, token);
    expect(paused.errors).toBeUndefined();
    expect(await watcher.nextEvent()).toMatchObject({ data: { ciRunnerStatusUpdated: { id: `gid://gitlab/Ci::Runner/${owned!.id}`, paused: true } } });
  });

  it('serves every upgrade that arrives while the server loads', async () => {
    gateway = await startTestGateway(simulator.url);
    const racing = [0, 1, 2].map(() => connect(gateway!, { 'PRIVATE-TOKEN': DEMO_TOKENS.maintainer }));
    clients.push(...racing);
    const answers = await Promise.all(racing.map((client) => queryOver(client, CURRENT_USER)));
    const { username } = await restOracle(simulator).get<{ username: string }>('/user', DEMO_TOKENS.maintainer);
    expect(answers).toEqual(racing.map(() => ({ data: { currentUser: { username } } })));
  });

  it('shuts down a gateway that never had a WebSocket connection, and takes no upgrade after', async () => {
    gateway = await startTestGateway(simulator.url);
    const { wsUrl } = gateway;
    await gateway.close();
    gateway = undefined;

    const refused = await new Promise<string>((resolve) => {
      const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
      socket.once('open', () => resolve('open'));
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    expect(refused).toBe('ECONNREFUSED');
  });

  it('closes with 1001 Going Away an upgrade that was waiting for the server when shutdown began', async () => {
    const started = (gateway = await startTestGateway(simulator.url));
    let closing: Promise<void> | undefined;
    // The gateway's listener has just asked for the server; shutdown begins before it has loaded.
    onNextUpgrade(started, () => {
      closing = started.close();
    });
    const closed = new Promise<number>((resolve) => {
      connect(started, { 'PRIVATE-TOKEN': DEMO_TOKENS.maintainer }, resolve);
    });

    expect(await closed).toBe(1001);
    await closing;
  });

  it('goes on serving after a client that went away while the server loaded', async () => {
    const started = (gateway = await startTestGateway(simulator.url));
    // Node gives the socket no 'error' listener of its own: without the gateway's, this would throw.
    onNextUpgrade(started, (_request, socket) => socket.destroy(new Error('the client went away')));
    const gone = new WebSocket(started.wsUrl, 'graphql-transport-ws');
    await new Promise((resolve) => gone.once('error', resolve));

    const client = connect(started, { 'PRIVATE-TOKEN': DEMO_TOKENS.maintainer });
    clients.push(client);
    const { username } = await restOracle(simulator).get<{ username: string }>('/user', DEMO_TOKENS.maintainer);
    expect(await queryOver(client, CURRENT_USER)).toEqual({ data: { currentUser: { username } } });
  });
});
