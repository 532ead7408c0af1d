// A running operation keeps its parsed document, about 110 bytes per character of query text at
// worst: a connection holding 100 operations near the length limit held some 100 MB. The text a
// connection's operations hold at once is bounded by ten times the query length limit (1,000
// characters here, so 10,000); past it a subscribe is refused with LIMIT_EXCEEDED
// (`limit: "operationText"`) before it is parsed, and closing one makes room again.
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { until } from '../support/wait.js';

const MAX_QUERY_LENGTH = 1_000;
const TEXT_LENGTH = 900;

describe('the query text a WebSocket connection holds', () => {
  const harness = gatewayOverSimulator({ limits: { maxQueryLength: MAX_QUERY_LENGTH }, runnerPollIntervalMs: 60_000 });

  it('is bounded by ten times the query length limit', async () => {
    const { gateway } = harness;
    const [runner] = await harness.oracle.all<{ id: number }>('/runners/all?per_page=1', DEMO_TOKENS.admin);
    const query = (n: number) => {
      const text = `subscription { ciRunnerStatusUpdated(runnerId: "gid://gitlab/Ci::Runner/${runner!.id}") { status } } # ${n} `;
      return text.padEnd(TEXT_LENGTH, '.');
    };
    const socket = new WebSocket(gateway.wsUrl, 'graphql-transport-ws');
    const messages: Array<{ id?: string; type: string; payload?: unknown }> = [];
    socket.on('message', (data) => messages.push(JSON.parse((data as Buffer).toString()) as (typeof messages)[number]));
    try {
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      socket.send(JSON.stringify({ type: 'connection_init', payload: { 'PRIVATE-TOKEN': DEMO_TOKENS.admin } }));
      await until(() => messages.some((message) => message.type === 'connection_ack'));
      const subscribe = (n: number) => socket.send(JSON.stringify({ id: String(n), type: 'subscribe', payload: { query: query(n) } }));

      const fits = Math.floor((MAX_QUERY_LENGTH * 10) / TEXT_LENGTH); // 11
      for (let n = 0; n < fits; n++) subscribe(n);
      await until(() => gateway.gateway.pollers.activeSubscriptions === fits);

      subscribe(fits);
      await until(() => messages.some((message) => message.id === String(fits)));
      const refused = messages.find((message) => message.id === String(fits));
      expect(refused?.type).toBe('error');
      const errors = refused?.payload as Array<{ extensions?: Record<string, unknown> }>;
      expect(errors.map((error) => [error.extensions?.['code'], error.extensions?.['limit']])).toEqual([['LIMIT_EXCEEDED', 'operationText']]);
      expect(gateway.gateway.pollers.activeSubscriptions).toBe(fits);

      // Closing one makes room for another.
      socket.send(JSON.stringify({ id: '0', type: 'complete' }));
      await until(() => gateway.gateway.pollers.activeSubscriptions === fits - 1);
      subscribe(fits + 1);
      await until(() => gateway.gateway.pollers.activeSubscriptions === fits);
      expect(messages.filter((message) => message.type === 'error')).toHaveLength(1);
    } finally {
      socket.terminate();
    }
  });
});
