// Upstream answers too large to hold (security issue: a 300 MB JSON answer for `GET /runners/9` was
// read and parsed whole, RSS 110 MB -> 1.0-1.36 GB). The REST client reads at most
// `upstreamMaxResponseBytes` of one answer: a Content-Length past it is refused from the headers,
// a chunked body that grows past it is cut there, its connection closed. Either is UPSTREAM_ERROR
// on the fields it serves, naming the limit, and the rest of the answer stands.
//
// The upstream is a node:http server of the test's own: the simulator's faults cannot hold a body
// back, send one chunked, or tell whether it was read to its end.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { Agent, interceptors } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type GraphQLResponse, type TestGateway } from '../support/gateway.js';
import { metricSample } from '../ops/support.js';

/** The limit the gateways of this file read: small, so that the bodies past it stay cheap to send. */
const LIMIT = 1024 * 1024;
const LIMIT_TEXT = '1 MiB (1048576 bytes)';
const json = { 'content-type': 'application/json' };
const RUNNER_9 = '{ runner(id: "gid://gitlab/Ci::Runner/9") { id description } }';
const USER_AND_RUNNER_9 = '{ currentUser { username } runner(id: "gid://gitlab/Ci::Runner/9") { id description } }';
const HEAD = '{"id":9,"description":"';
const TAIL = '"}';

/** Runner 9's JSON, exactly `bytes` long, in pieces of at most 64 KiB: its description fills the rest. */
function* runnerBody(bytes: number): Generator<Buffer> {
  yield Buffer.from(HEAD);
  const piece = Buffer.alloc(64 * 1024, 'x');
  for (let left = bytes - HEAD.length - TAIL.length; left > 0; left -= piece.length)
    yield left >= piece.length ? piece : piece.subarray(0, left);
  yield Buffer.from(TAIL);
}

/** A promise and its resolve (Promise.withResolvers, which Node 20 lacks). */
function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** How much of its answer the upstream wrote, and whether it got to the end before the connection closed. */
interface Sent {
  written: number;
  completed: boolean;
}

/**
 * Writes `pieces` as the client reads them (waiting for `drain`), until the last or until the
 * connection closes; after `hold.afterBytes` it waits for `hold.until` first.
 */
async function sendBody(
  res: ServerResponse,
  pieces: Iterable<Buffer>,
  hold?: { afterBytes: number; until: Promise<unknown>; reached: () => void },
): Promise<Sent> {
  const closed = once(res, 'close');
  let open = true;
  void closed.then(() => (open = false));
  // A write after the gateway closed the connection fails; that failure is what the test expects.
  res.on('error', () => undefined);
  let written = 0;
  for (const piece of pieces) {
    if (hold && written >= hold.afterBytes) {
      hold.reached();
      await Promise.race([hold.until, closed]);
      hold = undefined;
    }
    if (!open) break;
    written += piece.length;
    if (!res.write(piece)) await Promise.race([once(res, 'drain'), closed]);
  }
  if (open) res.end();
  await closed;
  return { written, completed: res.writableFinished };
}

/**
 * An upstream whose `GET /user` answers the caller's token as its username, and whose runner 9
 * answers what the test sets. It notes each runner call's `Accept-Encoding`.
 */
class Upstream {
  readonly server: Server = createServer((req, res) => this.serve(req, res));
  runnerAnswer: (res: ServerResponse) => void = () => undefined;
  readonly runnerCalls: Array<{ acceptEncoding: string | undefined }> = [];
  /** Resolved when a `GET /user` with the token `probe` has been answered. */
  probeServed = deferred<void>();

  url = '';

  async start(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/v4`;
    return this.url;
  }

  reset(): void {
    this.runnerCalls.length = 0;
    this.probeServed = deferred<void>();
  }

  private serve(req: IncomingMessage, res: ServerResponse): void {
    if (req.url === '/api/v4/user') {
      const token = String(req.headers['private-token']);
      res.writeHead(200, json);
      res.end(JSON.stringify({ id: 1, username: token, name: token }));
      if (token === 'probe') this.probeServed.resolve();
    } else if (req.url === '/api/v4/runners/9') {
      this.runnerCalls.push({ acceptEncoding: req.headers['accept-encoding'] });
      this.runnerAnswer(res);
    } else {
      res.writeHead(404, json);
      res.end('{"message":"404 Not Found"}');
    }
  }
}

/** The one error of an answer whose runner failed for its size, and that it names the limit and nothing of the upstream's. */
function expectRefusedForSize(result: GraphQLResponse, upstreamUrl: string, status: number): void {
  expect(result.errors).toHaveLength(1);
  expect(result.errors?.[0]).toMatchObject({ path: ['runner'], extensions: { code: 'UPSTREAM_ERROR', restStatus: status } });
  expect(result.errors?.[0]?.message).toContain(`larger than the ${LIMIT_TEXT} the gateway reads of one REST answer`);
  expect(result.errors?.[0]?.message).toContain('UPSTREAM_MAX_RESPONSE_BYTES');
  // The username is the token here (see Upstream), so only the errors are searched for it.
  const text = JSON.stringify(result.errors);
  expect(text).not.toContain(upstreamUrl);
  expect(text).not.toContain(new URL(upstreamUrl).host);
  expect(text).not.toContain('attacker');
}

describe('an upstream answer larger than UPSTREAM_MAX_RESPONSE_BYTES', () => {
  const upstream = new Upstream();
  let url: string;
  let gateway: TestGateway;

  beforeAll(async () => {
    url = await upstream.start();
    // Retries and the breaker as shipped: a refused answer must be neither retried nor counted.
    gateway = await startTestGateway(url, { upstreamMaxResponseBytes: LIMIT });
  });
  afterEach(() => upstream.reset());
  afterAll(async () => {
    await gateway.close();
    upstream.server.closeAllConnections();
    upstream.server.close();
  });

  it.each([200, 500])(
    'is refused from a Content-Length past the limit with status %i: the upstream, holding its body back, sees the connection closed',
    async (status) => {
      const sent = deferred<Sent>();
      upstream.runnerAnswer = (res) => {
        res.writeHead(status, { ...json, 'content-length': String(5 * LIMIT) });
        res.flushHeaders();
        // Not a byte of the body follows, nor its end: only the headers can have made the gateway refuse it.
        void once(res, 'close').then(() => sent.resolve({ written: 0, completed: res.writableFinished }));
      };
      const result = await gateway.query(USER_AND_RUNNER_9, {}, 'attacker');
      expect(result.data).toEqual({ currentUser: { username: 'attacker' }, runner: null });
      expectRefusedForSize(result, url, status);
      expect(await sent.promise).toEqual({ written: 0, completed: false });
      expect(upstream.runnerCalls).toHaveLength(1);
    },
  );

  it('stops reading a chunked body where it passes the limit, closing the connection, while other callers are answered', async () => {
    const total = 64 * LIMIT;
    const streaming = deferred<void>();
    const sent = deferred<Sent>();
    upstream.runnerAnswer = (res) => {
      res.writeHead(200, json);
      // Half the limit goes out, then the body waits until the probe's REST call has been answered.
      const hold = { afterBytes: LIMIT / 2, until: upstream.probeServed.promise, reached: streaming.resolve };
      void sendBody(res, runnerBody(total), hold).then(sent.resolve);
    };
    const attack = gateway.query(USER_AND_RUNNER_9, {}, 'attacker');
    await streaming.promise;
    const [probe, health] = await Promise.all([
      gateway.query('{ currentUser { username } }', {}, 'probe'),
      fetch(new URL('/healthz', gateway.url)),
    ]);
    expect(probe).toEqual({ data: { currentUser: { username: 'probe' } } });
    expect(health.status).toBe(200);

    const result = await attack;
    expect(result.data).toEqual({ currentUser: { username: 'attacker' }, runner: null });
    expectRefusedForSize(result, url, 200);
    const { written, completed } = await sent.promise;
    // Written is what the sockets' buffers took on top of what the gateway read: far from all of it.
    expect(completed).toBe(false);
    expect(written).toBeLessThan(total / 2);
    expect(upstream.runnerCalls).toHaveLength(1);
  });

  it.each(['content-length', 'chunked'])('answers a body of exactly the limit (%s) whole', async (framing) => {
    upstream.runnerAnswer = (res) => {
      res.writeHead(200, framing === 'content-length' ? { ...json, 'content-length': String(LIMIT) } : json);
      void sendBody(res, runnerBody(LIMIT));
    };
    const result = await gateway.query<{ runner: { id: string; description: string } }>(RUNNER_9, {}, 'reader');
    expect(result.errors).toBeUndefined();
    expect(result.data?.runner.id).toBe('gid://gitlab/Ci::Runner/9');
    expect(result.data?.runner.description).toBe('x'.repeat(LIMIT - HEAD.length - TAIL.length));
  });

  it('asks for no encoding and inflates none: a gzip answer of 5 MiB of JSON, sent unasked, is not read as JSON', async () => {
    const compressed = gzipSync(Buffer.concat([...runnerBody(5 * LIMIT)]));
    upstream.runnerAnswer = (res) => {
      res.writeHead(200, { ...json, 'content-encoding': 'gzip', 'content-length': String(compressed.length) });
      res.end(compressed);
    };
    const result = await gateway.query(RUNNER_9, {}, 'reader');
    expect(upstream.runnerCalls).toEqual([{ acceptEncoding: undefined }]);
    expect(result.data).toEqual({ runner: null });
    expect(result.errors?.[0]).toMatchObject({ path: ['runner'], extensions: { code: 'UPSTREAM_ERROR' } });
    expect(result.errors?.[0]?.message).toMatch(/not valid JSON/);
  });
});

describe('the circuit breaker and the metrics, for answers refused for their size', () => {
  const upstream = new Upstream();
  let gateway: TestGateway;

  beforeAll(async () => {
    const url = await upstream.start();
    gateway = await startTestGateway(url, {
      upstreamMaxResponseBytes: LIMIT,
      circuitBreaker: { failureThreshold: 2, cooldownMs: 600_000 },
    });
  });
  afterAll(async () => {
    await gateway.close();
    upstream.server.closeAllConnections();
    upstream.server.close();
  });

  it('counts them as upstream errors of their own kind, but never opens the breaker for other callers', async () => {
    upstream.runnerAnswer = (res) => {
      res.writeHead(200, { ...json, 'content-length': String(2 * LIMIT) });
      void sendBody(res, runnerBody(2 * LIMIT));
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      const refused = await gateway.query(RUNNER_9, {}, 'attacker');
      expect(refused.errors?.map((error) => error.extensions?.['code'])).toEqual(['UPSTREAM_ERROR']);
    }
    upstream.runnerAnswer = (res) => {
      res.writeHead(200, json);
      res.end('{"id":9,"description":"small"}');
    };
    expect(await gateway.query(RUNNER_9, {}, 'reader')).toEqual({
      data: { runner: { id: 'gid://gitlab/Ci::Runner/9', description: 'small' } },
    });
    expect(upstream.runnerCalls).toHaveLength(4);
    const exposition = await (await fetch(new URL('/metrics', gateway.url))).text();
    expect(metricSample(exposition, 'gateway_upstream_errors_total', { kind: 'oversized_body' })).toBe(3);
  });
});

describe("an embedder's dispatcher that decompresses", () => {
  const upstream = new Upstream();
  const dispatcher = new Agent().compose(interceptors.decompress());
  let gateway: TestGateway;

  beforeAll(async () => {
    const url = await upstream.start();
    gateway = await startTestGateway(url, { upstreamMaxResponseBytes: LIMIT, dispatcher });
  });
  afterAll(async () => {
    await gateway.close();
    await dispatcher.close();
    upstream.server.closeAllConnections();
    upstream.server.close();
  });

  it('is held to the limit in decoded bytes: a gzip answer of a few KiB that inflates to 5 MiB is refused', async () => {
    const compressed = gzipSync(Buffer.concat([...runnerBody(5 * LIMIT)]));
    expect(compressed.length).toBeLessThan(LIMIT);
    upstream.runnerAnswer = (res) => {
      res.writeHead(200, { ...json, 'content-encoding': 'gzip', 'content-length': String(compressed.length) });
      res.end(compressed);
    };
    const result = await gateway.query(RUNNER_9, {}, 'reader');
    expect(result.data).toEqual({ runner: null });
    expectRefusedForSize(result, upstream.url, 200);
  });
});
