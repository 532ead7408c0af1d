// A WebSocket client that asks and never reads: everything the gateway sends it piles up, first in
// the operating system's buffers, then in the gateway's memory, with no end. Past its limit of
// unsent bytes (GatewayOptions.maxUnsentWebSocketBytes, 64 KiB here) the connection is closed
// (src/transport/gateway-websocket.ts), and other callers are answered meanwhile.
import type { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { until } from '../support/wait.js';
import { withBystander } from './hostile-support.js';

const MAX_UNSENT_BYTES = 64 * 1024;
/** About 350 KB of answer for one REST call: the five aliases share one page through the loader. */
const WIDE_QUERY = `{ ${['a', 'b', 'c', 'd', 'e'].map((alias) => `${alias}: issues(scope: ALL, first: 100) { nodes { id iid title description webUrl author { username name webUrl } } }`).join(' ')} }`;
/** Far more than the operating system buffers for one loopback connection here (a few MB). */
const MOST_QUERIES = 300;

describe('a WebSocket client that does not read', () => {
  const harness = gatewayOverSimulator({ maxUnsentWebSocketBytes: MAX_UNSENT_BYTES, maxSubscriptionsPerConnection: MOST_QUERIES });

  it('is closed once its unsent bytes pass the limit, while others are answered', async () => {
    const { gateway } = harness;
    const serverSockets: Duplex[] = [];
    const onUpgrade = (_request: unknown, socket: Duplex) => serverSockets.push(socket);
    gateway.gateway.httpServer.on('upgrade', onUpgrade);
    const client = new WebSocket(gateway.wsUrl, 'graphql-transport-ws');
    try {
      await new Promise((resolve, reject) => client.once('open', resolve).once('error', reject));
      client.send(JSON.stringify({ type: 'connection_init', payload: { 'PRIVATE-TOKEN': DEMO_TOKENS.admin } }));
      await new Promise((resolve) => client.once('message', resolve)); // connection_ack
      client.pause(); // from here on, nothing is read
      const server = serverSockets[0]!;

      const sent = await withBystander(harness, async () => {
        let count = 0;
        while (!server.destroyed && count < MOST_QUERIES) {
          client.send(JSON.stringify({ id: String(count), type: 'subscribe', payload: { query: WIDE_QUERY } }));
          count += 1;
          // One answer at a time, so that the count tells how far it got.
          const restCalls = harness.simulator.requests.length;
          await until(() => server.destroyed || harness.simulator.requests.length > restCalls || count === MOST_QUERIES);
          await new Promise((resolve) => setImmediate(resolve));
        }
        return count;
      });

      await until(() => server.destroyed);
      expect(sent).toBeLessThan(MOST_QUERIES);
      expect(gateway.gateway.pollers.activeSubscriptions).toBe(0);
    } finally {
      gateway.gateway.httpServer.off('upgrade', onUpgrade);
      client.terminate();
    }
  });
});
