// The REST client reads JSON answers whole through undici's dispatch handler (whole-answer.ts), not
// through a body stream: what a stream gave for free (1xx answers skipped, a body that dies after
// its headers, a deadline that cuts a body half read) is held here over real HTTP on loopback. A
// dispatcher of the embedder's own is asked through `request` (exchangeByRequest), which any
// interceptor serves; its deadlines are held the same way.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RestClient, RestSession } from '../../src/datasources/rest-client.js';
import { RestError } from '../../src/datasources/rest-error.js';

type Route = (req: IncomingMessage, res: ServerResponse) => void;

const routes: Record<string, Route> = {
  // 103 Early Hints before the answer: an informational answer is not the answer.
  '/api/v4/hinted': (_req, res) => {
    res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'upstream-hinted' });
    res.end('{"id":1}');
  },
  // Headers, half a body, then the connection drops.
  '/api/v4/dropped': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'upstream-dropped' });
    res.write('{"id":');
    setTimeout(() => res.socket?.destroy(), 20);
  },
  // Headers and half a body, then nothing more: only a deadline ends it.
  '/api/v4/stalled': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"id":');
  },
  // A body in many chunks, read whole.
  '/api/v4/chunked': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const items = Array.from({ length: 2_000 }, (_, id) => ({ id, name: `runner ${id}` }));
    const text = JSON.stringify(items);
    for (let at = 0; at < text.length; at += 1_000) res.write(text.slice(at, at + 1_000));
    res.end();
  },
};

describe('a REST answer read whole, without a body stream', () => {
  let server: Server;
  let client: RestClient;
  const calls: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      calls.push(req.url ?? '');
      (routes[req.url ?? ''] ?? ((_, answer) => answer.writeHead(404).end()))(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    client = new RestClient({ baseUrl: `http://127.0.0.1:${port}/api/v4`, retry: { attempts: 1 } });
  });
  afterAll(async () => {
    await client.close(0);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('skips a 103 Early Hints answer and reads the answer after it', async () => {
    const session = new RestSession(client, null, 'req-hinted');
    expect(await session.get('/hinted')).toEqual({ id: 1 });
  });

  it('reads a body that arrives in many chunks whole', async () => {
    const session = new RestSession(client, null, 'req-chunked');
    const items = await session.getList<{ id: number; name: string }>('/chunked');
    expect(items).toHaveLength(2_000);
    expect(items[1_999]).toEqual({ id: 1_999, name: 'runner 1999' });
  });

  it('reports a body that dies after its headers as a connection failure, with the answer\'s request id', async () => {
    const session = new RestSession(client, null, 'req-dropped');
    const error = await session.get('/dropped').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RestError);
    expect(error).toMatchObject({ status: 0, failure: 'connection', requestId: 'upstream-dropped' });
  });

  it('cuts a body half read at the session\'s deadline', async () => {
    const session = new RestSession(client, null, 'req-stalled', { deadline: Date.now() + 200 });
    const started = Date.now();
    const error = await session.get('/stalled').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 0, failure: 'deadline' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  // One connection: the first call holds it, the second waits in undici's queue, where no handler
  // has started yet. The gateway's own pool (read through its dispatch handler) and an embedder's
  // (read through `request`) alike.
  const oneConnection: Array<[string, (origin: string) => { client: RestClient; close: () => Promise<void> }]> = [
    [
      "the gateway's own pool",
      (origin) => {
        const own = new RestClient({ baseUrl: `${origin}/api/v4`, connections: 1, maxInFlight: 2, retry: { attempts: 1 } });
        let closed: Promise<void> | undefined;
        return { client: own, close: () => (closed ??= own.close(0)) };
      },
    ],
    [
      "an embedder's pool",
      (origin) => {
        const pool = new Pool(origin, { connections: 1 });
        return { client: new RestClient({ baseUrl: `${origin}/api/v4`, dispatcher: pool, retry: { attempts: 1 } }), close: () => pool.destroy() };
      },
    ],
  ];
  it.each(oneConnection)('fails a call still queued in %s when its deadline passes', async (_name, make) => {
    const { port } = server.address() as AddressInfo;
    const { client: narrow, close } = make(`http://127.0.0.1:${port}`);
    try {
      const holding = new RestSession(narrow, null, 'req-holding', { deadline: Date.now() + 10_000 }).get('/stalled').catch((caught: unknown) => caught);
      const started = Date.now();
      const queued = await new RestSession(narrow, null, 'req-queued', { deadline: Date.now() + 200 }).get('/hinted').catch((caught: unknown) => caught);
      expect(queued).toMatchObject({ status: 0, failure: 'deadline' });
      // Not when the connection frees: the first call holds it for 10 s.
      expect(Date.now() - started).toBeLessThan(5_000);
      await close();
      expect(await holding).toBeInstanceOf(RestError);
    } finally {
      await close();
    }
  });

  it("answers through an embedder's interceptor written for undici's older handler API", async () => {
    // It passes on onHeaders/onData/onComplete only: a handler that speaks only the newer API
    // (onResponseStart, ...) got nothing, and its call waited for its deadline.
    const { port } = server.address() as AddressInfo;
    const agent = new Agent();
    const legacy = agent.compose(
      (dispatch) => (options, handler) =>
        dispatch(options, {
          onConnect: (abort) => handler.onConnect?.(abort),
          onHeaders: (status, headers, resume, text) => handler.onHeaders?.(status, headers, resume, text) ?? true,
          onData: (chunk) => handler.onData?.(chunk) ?? true,
          onComplete: (trailers) => handler.onComplete?.(trailers),
          onError: (error) => handler.onError?.(error),
        }),
    );
    const embedded = new RestClient({ baseUrl: `http://127.0.0.1:${port}/api/v4`, dispatcher: legacy, retry: { attempts: 1 } });
    try {
      const answer = await new RestSession(embedded, null, 'req-legacy', { deadline: Date.now() + 5_000 }).get<{ id: number }>('/hinted');
      expect(answer).toEqual({ id: 1 });
      const many = await new RestSession(embedded, null, 'req-legacy-2', { deadline: Date.now() + 5_000 }).getList<{ id: number }>('/chunked');
      expect(many).toHaveLength(2_000);
      expect(many[1_999]).toMatchObject({ id: 1_999 });
    } finally {
      await agent.close();
    }
  });

  it('sends nothing once the deadline has passed', async () => {
    const before = calls.length;
    const session = new RestSession(client, null, 'req-late', { deadline: Date.now() - 1 });
    const error = await session.get('/hinted').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 0, failure: 'deadline' });
    expect(calls.length).toBe(before);
  });
});
