// A status change reaches every subscription of a connection at once; graphql-ws sends each
// message on its own, and each was a write system call of its own. The gateway's sockets
// (src/transport/gateway-websocket.ts) hold their writes until the turn of the event loop ends, so
// a fan-out to one connection leaves in one write. Counted on the gateway's end of the connection.
import type { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { connect, watch } from '../support/runner-watch.js';
import { until } from '../support/wait.js';

const token = DEMO_TOKENS.admin;
const SUBSCRIPTIONS = 20;
const gid = (id: number) => `gid://gitlab/Ci::Runner/${id}`;

/** Counts the writes a stream hands to the kernel: `_write` for one chunk, `_writev` for several buffered ones. */
function countFlushes(stream: Duplex): { readonly count: number } {
  const counter = { count: 0 };
  const writable = stream as Duplex & { _writev?: (...args: unknown[]) => void };
  const write = writable._write.bind(writable);
  writable._write = (...args: Parameters<Duplex['_write']>) => {
    counter.count += 1;
    write(...args);
  };
  const writev = writable._writev?.bind(writable);
  if (writev) {
    writable._writev = (...args: unknown[]) => {
      counter.count += 1;
      writev(...args);
    };
  }
  return counter;
}

describe('WebSocket writes', () => {
  const harness = gatewayOverSimulator({ runnerPollIntervalMs: 50, maxSubscriptionsPerConnection: SUBSCRIPTIONS });

  it(`sends a change to ${SUBSCRIPTIONS} subscriptions of one connection in one write`, async () => {
    const { gateway } = harness;
    const serverSockets: Duplex[] = [];
    const onUpgrade = (_request: unknown, socket: Duplex) => serverSockets.push(socket);
    gateway.gateway.httpServer.on('upgrade', onUpgrade);
    const [runner] = await harness.oracle.all<{ id: number; paused: boolean }>('/runners/all?per_page=1', token);
    const client = connect(gateway, { 'PRIVATE-TOKEN': token });
    try {
      const watchers = Array.from({ length: SUBSCRIPTIONS }, () => watch(client, runner!.id));
      await until(() => gateway.gateway.pollers.activeSubscriptions === SUBSCRIPTIONS);
      expect(serverSockets).toHaveLength(1);
      const flushes = countFlushes(serverSockets[0]!);

      const flipped = await gateway.query(`mutation { runnerUpdate(input: { id: "${gid(runner!.id)}", paused: ${!runner!.paused} }) { runner { paused } } }`, {}, token);
      expect(flipped.errors).toBeUndefined();
      await until(() => watchers.every((watcher) => watcher.events.length === 1));

      expect(watchers.map((watcher) => watcher.events[0]?.data?.ciRunnerStatusUpdated.paused)).toEqual(Array(SUBSCRIPTIONS).fill(!runner!.paused));
      expect(flushes.count).toBe(1);
    } finally {
      gateway.gateway.httpServer.off('upgrade', onUpgrade);
      await client.dispose();
    }
  });
});
