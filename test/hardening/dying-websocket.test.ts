// A WebSocket connection whose peer vanishes while the gateway pushes to it (a client that resets
// its socket, a network that drops): every write then fails. graphql-ws rejected each failed send
// into its message handler, which printed "Internal error occurred during message handling" with a
// stack to stderr once per subscription on the connection: a client holding many subscriptions,
// resetting at the moment a change fans out, could flood the log at will, and synchronous writes to
// stderr (a pipe, on Linux) stall every caller. The gateway now closes such a connection quietly,
// and its subscriptions end as for any other close.
import type { Duplex } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { connect, watch } from '../support/runner-watch.js';
import { until } from '../support/wait.js';

const token = DEMO_TOKENS.admin;
const SUBSCRIPTIONS = 20;
const gid = (id: number) => `gid://gitlab/Ci::Runner/${id}`;

describe('a WebSocket peer that vanishes during a push', () => {
  const harness = gatewayOverSimulator({ runnerPollIntervalMs: 50, maxSubscriptionsPerConnection: SUBSCRIPTIONS });

  let stderr: MockInstance<typeof console.error>;
  beforeEach(() => {
    stderr = vi.spyOn(console, 'error');
  });
  afterEach(() => stderr.mockRestore());

  it('closes the connection without a line on stderr, ends its subscriptions, and keeps serving others', async () => {
    const { gateway } = harness;
    // The gateway's end of each upgraded connection, to make its writes fail as the kernel's would.
    const serverSockets: Duplex[] = [];
    const onUpgrade = (_request: unknown, socket: Duplex) => serverSockets.push(socket);
    gateway.gateway.httpServer.on('upgrade', onUpgrade);
    const [runner] = await harness.oracle.all<{ id: number }>('/runners/all?per_page=1', token);
    const runnerId = runner!.id;
    let closeCode: number | undefined;
    const client = connect(gateway, { 'PRIVATE-TOKEN': token }, (code) => (closeCode = code));
    try {
      const watchers = Array.from({ length: SUBSCRIPTIONS }, () => watch(client, runnerId));
      await until(() => gateway.gateway.pollers.activeSubscriptions === SUBSCRIPTIONS);
      expect(serverSockets).toHaveLength(1);

      // From the next write on, the peer is gone: the write fails (EPIPE / ECONNRESET in production).
      const socket = serverSockets[0]!;
      const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
      let failedWrites = 0;
      socket.write = ((...args: unknown[]) => {
        failedWrites += 1;
        socket.destroy();
        return write(...args);
      }) as typeof socket.write;

      const before = (await gateway.query(`{ runner(id: "${gid(runnerId)}") { paused } }`, {}, token)) as { data: { runner: { paused: boolean } } };
      const flipped = await gateway.query(`mutation { runnerUpdate(input: { id: "${gid(runnerId)}", paused: ${!before.data.runner.paused} }) { runner { paused } } }`, {}, token);
      expect(flipped.errors).toBeUndefined();

      // The poll sees the change and pushes it to all 20 subscriptions at once; every write fails.
      await until(() => failedWrites > 0);
      await until(() => gateway.gateway.pollers.activeSubscriptions === 0);
      await until(() => gateway.gateway.pollers.activePollers === 0);
      await until(() => watchers.every((watcher) => watcher.completed));
      expect(closeCode).toBeDefined();
      expect(stderr.mock.calls.map((call) => String(call[0]))).toEqual([]);

      // Others are still served, over HTTP and over a new connection.
      const answer = await gateway.query(`{ runner(id: "${gid(runnerId)}") { paused } }`, {}, token);
      expect(answer.errors).toBeUndefined();
      const next = connect(gateway, { 'PRIVATE-TOKEN': token });
      try {
        const watcher = watch(next, runnerId);
        await until(() => gateway.gateway.pollers.activeSubscriptions === 1);
        const again = await gateway.query(`mutation { runnerUpdate(input: { id: "${gid(runnerId)}", paused: ${before.data.runner.paused} }) { runner { paused } } }`, {}, token);
        expect(again.errors).toBeUndefined();
        expect((await watcher.nextEvent()).data?.ciRunnerStatusUpdated.paused).toBe(before.data.runner.paused);
      } finally {
        await next.dispose();
      }
    } finally {
      gateway.gateway.httpServer.off('upgrade', onUpgrade);
      await client.dispose();
    }
  });
});
