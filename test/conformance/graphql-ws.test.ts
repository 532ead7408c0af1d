import { describe, expect, it } from 'vitest';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

/**
 * The graphql-transport-ws protocol as the gateway speaks it, from the client side: each breach of
 * the protocol closes the socket with the code the protocol names. (A `connection_init` without a
 * credential, or with one REST refuses, closes with 4403: test/e2e/subscription.test.ts. The
 * operation limits over WebSocket, cost included: test/e2e/limits.test.ts.)
 */
const INIT = JSON.stringify({ type: 'connection_init', payload: { 'PRIVATE-TOKEN': DEMO_TOKENS.admin } });
const WATCH_RUNNER = 'subscription { ciRunnerStatusUpdated(runnerId: "gid://gitlab/Ci::Runner/1") { status } }';

/** A raw socket speaking the protocol's subprotocol, and how it ended. */
function rawSocket(url: string) {
  const socket = new WebSocket(url, 'graphql-transport-ws');
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  const acknowledged = new Promise<void>((resolve) => {
    socket.on('message', (data: Buffer) => {
      if ((JSON.parse(data.toString('utf8')) as { type?: string }).type === 'connection_ack') resolve();
    });
  });
  return { socket, opened, closed, acknowledged };
}

describe('graphql-ws protocol conformance', () => {
  const harness = gatewayOverSimulator({ connectionInitWaitTimeoutMs: 300, runnerPollIntervalMs: 60_000 });

  it('closes a connection that sends no connection_init in time with 4408', async () => {
    const { opened, closed } = rawSocket(harness.gateway.wsUrl);
    await opened;
    expect(await closed).toEqual({ code: 4408, reason: 'Connection initialisation timeout' });
    expect(restCalls(harness.simulator)).toEqual([]);
  });

  it('closes a connection that subscribes before its connection_ack with 4401, before any REST call', async () => {
    const { socket, opened, closed } = rawSocket(harness.gateway.wsUrl);
    await opened;
    socket.send(JSON.stringify({ type: 'subscribe', id: '1', payload: { query: '{ currentUser { username } }' } }));
    expect(await closed).toEqual({ code: 4401, reason: 'Unauthorized' });
    expect(restCalls(harness.simulator)).toEqual([]);
  });

  it('closes a connection that starts a second operation under a running one\'s id with 4409', async () => {
    let closeCode: number | undefined;
    const closedWith = new Promise<number>((resolve) => {
      const client: Client = createClient({
        url: harness.gateway.wsUrl,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        connectionParams: { 'PRIVATE-TOKEN': DEMO_TOKENS.admin },
        // The real client with ids of its own choosing: the same one twice.
        generateID: () => 'same-id',
        on: {
          closed: (event) => {
            closeCode = (event as { code: number }).code;
            resolve(closeCode);
            void client.dispose();
          },
        },
      });
      const ignore = { next: () => {}, error: () => {}, complete: () => {} };
      client.subscribe({ query: WATCH_RUNNER }, ignore);
      client.on('connected', () => {
        // Once the first is running (its poller registered), the second reuses its id.
        const started = setInterval(() => {
          if (harness.gateway.gateway.pollers.activeSubscriptions === 0) return;
          clearInterval(started);
          client.subscribe({ query: WATCH_RUNNER }, ignore);
        }, 10);
      });
    });
    expect(await closedWith).toBe(4409);
  });

  it('closes a connection whose message exceeds the size cap with 1009', async () => {
    const { socket, opened, closed, acknowledged } = rawSocket(harness.gateway.wsUrl);
    await opened;
    socket.send(INIT);
    await acknowledged;
    // Far above any query the length limit allows (10,000 characters) with its variables.
    const huge = 'x'.repeat(200_000);
    socket.send(JSON.stringify({ type: 'subscribe', id: '1', payload: { query: '{ __typename }', variables: { huge } } }));
    expect((await closed).code).toBe(1009);
  });
});
