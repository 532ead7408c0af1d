import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { startStubUpstream } from '../support/stub-upstream.js';
import { logCollector, postGraphQL } from './support.js';

const TOKEN = 'glpat-request-id-test';
const QUERY = 'query OneRunner { runner(id: "gid://gitlab/Ci::Runner/7") { id status } }';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The request id over real HTTP and WebSocket. The upstream here is the stub (test/support), as it
 * records the headers of every request it receives: what the gateway sent upstream, not what it
 * meant to send.
 */
describe('request ids', () => {
  let stub: Awaited<ReturnType<typeof startStubUpstream>>;
  let gateway: TestGateway;
  const logs = logCollector('info');

  beforeAll(async () => {
    stub = await startStubUpstream([
      { method: 'GET', path: '/user', body: { id: 1, username: 'alice' } },
      { method: 'GET', path: '/runners/7', body: { id: 7, description: 'seven', status: 'online', paused: false } },
    ]);
    gateway = await startTestGateway(stub.url, { logger: logs.logger });
  });
  afterAll(async () => {
    await gateway?.close();
    await stub?.close();
  });
  beforeEach(() => {
    stub.requests.splice(0);
    logs.clear();
  });

  const upstreamIds = () => stub.requests.map((request) => request.headers['x-request-id']);

  it("takes the caller's X-Request-Id, returns it, sends it upstream, and logs it", async () => {
    const response = await postGraphQL(gateway.url, { query: QUERY }, { 'private-token': TOKEN, 'x-request-id': 'trace-4f2.a:1' });

    expect(response.body).toEqual({ data: { runner: { id: 'gid://gitlab/Ci::Runner/7', status: 'ONLINE' } } });
    expect(response.headers.get('x-request-id')).toBe('trace-4f2.a:1');
    expect(upstreamIds()).toEqual(['trace-4f2.a:1']);
    const line = logs.lines().find((entry) => entry.msg === 'request');
    expect(line).toMatchObject({
      requestId: 'trace-4f2.a:1',
      method: 'POST',
      path: '/graphql',
      status: 200,
      operationName: 'OneRunner',
      restCalls: 1,
    });
  });

  it('makes one when the caller sends none, or one that is not a plain token, and uses it the same way', async () => {
    const made = await postGraphQL(gateway.url, { query: QUERY }, { 'private-token': TOKEN });
    const replaced = await postGraphQL(
      gateway.url,
      { query: QUERY },
      { 'private-token': TOKEN, 'x-request-id': `a${'b'.repeat(200)} <script>` },
    );

    const ids = [made.headers.get('x-request-id'), replaced.headers.get('x-request-id')];
    expect(ids[0]).toMatch(UUID);
    expect(ids[1]).toMatch(UUID);
    expect(ids[0]).not.toBe(ids[1]);
    expect(upstreamIds()).toEqual(ids);
    expect(logs.lines().map((entry) => entry.requestId)).toEqual(ids);
  });

  it("over WebSocket: returns the upgrade request's id in the 101 answer and sends it upstream with every operation's REST calls", async () => {
    let upgradeId: string | undefined;
    // A client that sets a header on its upgrade request, as a server-side client (a BFF) can.
    class TracedWebSocket extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers: { 'x-request-id': 'ws-trace-9' } });
        this.once('upgrade', (response: IncomingMessage) => (upgradeId = response.headers['x-request-id'] as string));
      }
    }
    const client = createClient({
      url: gateway.wsUrl,
      webSocketImpl: TracedWebSocket,
      connectionParams: { 'PRIVATE-TOKEN': TOKEN },
      retryAttempts: 0,
    });
    try {
      const result = await new Promise<unknown>((resolve, reject) => {
        let data: unknown;
        client.subscribe({ query: QUERY }, { next: (value) => (data = value), error: reject, complete: () => resolve(data) });
      });
      expect(result).toEqual({ data: { runner: { id: 'gid://gitlab/Ci::Runner/7', status: 'ONLINE' } } });
    } finally {
      await client.dispose();
    }

    expect(upgradeId).toBe('ws-trace-9');
    // The credential check of connection_init (GET /user), then the query (GET /runners/7).
    expect(stub.requests.map((request) => `${request.method} ${request.path} ${String(request.headers['x-request-id'])}`)).toEqual([
      'GET /user ws-trace-9',
      'GET /runners/7 ws-trace-9',
    ]);
    expect(logs.lines().find((entry) => entry.msg === 'operation')).toMatchObject({
      requestId: 'ws-trace-9',
      transport: 'websocket',
      operationName: 'OneRunner',
      operationType: 'query',
      restCalls: 1,
    });
    expect(logs.text()).not.toContain(TOKEN);
  });
});
