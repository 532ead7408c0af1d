import { createHash, randomBytes } from 'node:crypto';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const CHUNK = 64 * 1024;

/**
 * An upstream whose artifact downloads the test paces: it sends the archive chunk by chunk,
 * honouring backpressure, and can hold back the rest until told to go on. With it, the tests see
 * what the gateway does with a body still on the wire.
 */
class PacedUpstream {
  /** Random bytes, for the byte-for-byte check. */
  readonly archive = randomBytes(4 * 1024 * 1024);
  /** Far more than any socket buffers hold, for the backpressure check; its bytes do not matter. */
  readonly large = Buffer.alloc(48 * 1024 * 1024, 0x5a);
  private body = this.archive;
  bytesWritten = 0;
  finished = false;
  abortedEarly = false;
  requestHeaders: IncomingMessage['headers'] = {};
  private holdAfterFirstChunk = false;
  private release: (() => void) | undefined;
  private readonly server = createServer((req, res) => void this.answer(req, res));
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/v4`;
  }

  reset(options: { hold: boolean; large?: boolean }): void {
    this.body = options.large ? this.large : this.archive;
    this.bytesWritten = 0;
    this.finished = false;
    this.abortedEarly = false;
    this.holdAfterFirstChunk = options.hold;
  }

  goOn(): void {
    this.release?.();
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.requestHeaders = req.headers;
    if (req.url === '/api/v4/projects/group%2Fproject') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 1, path_with_namespace: 'group/project', name: 'project', path: 'project' }));
      return;
    }
    if (req.url?.includes('/refused/')) {
      // What GitLab answers for a path Gitlab::Ci::Build::Artifacts::Path finds invalid.
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: '400 Bad request' }));
      return;
    }
    if (req.url?.includes('/redirected/')) {
      res.writeHead(302, { location: 'https://objects.example.com/artifacts.zip?X-Amz-Signature=abc' });
      res.end();
      return;
    }
    res.on('close', () => {
      if (!res.writableFinished) this.abortedEarly = true;
    });
    res.writeHead(200, {
      'content-type': 'application/zip',
      'content-length': String(this.body.length),
      'content-disposition': 'attachment; filename="artifacts.zip"',
    });
    for (let offset = 0; offset < this.body.length && !res.destroyed; offset += CHUNK) {
      res.write(this.body.subarray(offset, offset + CHUNK));
      this.bytesWritten = offset + CHUNK;
      if (offset === 0 && this.holdAfterFirstChunk) await new Promise<void>((resolve) => (this.release = resolve));
      if (res.writableNeedDrain && !res.destroyed) await drained(res);
    }
    if (!res.destroyed) {
      res.end();
      this.finished = true;
    }
  }
}

/** Resolves when the response can take more, or is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

/** A download through the gateway with node:http, so the test decides when the body is read. */
function openDownload(gateway: TestGateway, path: string): Promise<IncomingMessage> {
  const url = new URL(gateway.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, headers: { 'private-token': 'glpat-streaming' } }, resolve);
    req.on('error', reject);
    req.end();
  });
}

const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([
    promise,
    new Promise<T>((_resolve, reject) => setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms)),
  ]);

describe('artifact downloads stream through the gateway', () => {
  const upstream = new PacedUpstream();
  let gateway: TestGateway;

  beforeAll(async () => {
    await upstream.start();
    gateway = await startTestGateway(upstream.url);
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream.close();
  });

  it('passes the first bytes on before the upstream has sent the rest', async () => {
    upstream.reset({ hold: true });
    const response = await openDownload(gateway, '/artifacts/projects/1/jobs/9/artifacts');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-length']).toBe(String(upstream.archive.length));
    const first = await within(new Promise<Buffer>((resolve) => response.once('data', resolve)), 5_000, 'the first chunk');
    // Had the gateway buffered the body, nothing would have arrived: the upstream is still waiting.
    expect(upstream.finished).toBe(false);
    expect(first.equals(upstream.archive.subarray(0, first.length))).toBe(true);

    const hash = createHash('sha256').update(first);
    let size = first.length;
    response.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      size += chunk.length;
    });
    const ended = new Promise((resolve) => response.once('end', resolve));
    upstream.goOn();
    await within(ended, 10_000, 'the end of the body');
    expect(size).toBe(upstream.archive.length);
    expect(hash.digest('hex')).toBe(createHash('sha256').update(upstream.archive).digest('hex'));
    expect(upstream.requestHeaders['private-token']).toBe('glpat-streaming');
  });

  it('holds no more than a few socket buffers when the client stops reading', async () => {
    upstream.reset({ hold: false, large: true });
    const response = await openDownload(gateway, '/artifacts/projects/1/jobs/9/artifacts');
    response.pause();
    // Wait for the state, not a time: the upstream has stopped writing (two samples 200 ms apart agree).
    let stalledAt = -1;
    await within(
      (async () => {
        while (stalledAt !== upstream.bytesWritten) {
          stalledAt = upstream.bytesWritten;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      })(),
      10_000,
      'the upstream to stall',
    );
    // Backpressure reached the upstream: it stalled after what the loopback sockets' buffers hold
    // (four socket ends, which Linux autotunes to a few MiB each: 8 to 19 MiB measured), well short
    // of the 48 MiB archive, and wrote nothing more.
    expect(upstream.finished).toBe(false);
    expect(stalledAt).toBeLessThan(24 * 1024 * 1024);
    response.destroy();
    await within(
      new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (upstream.abortedEarly) {
            clearInterval(poll);
            resolve();
          }
        }, 10);
      }),
      5_000,
      'the upstream request being aborted',
    );
  });

  it('passes a redirect to object storage on to the client', async () => {
    const response = await openDownload(gateway, '/artifacts/projects/1/jobs/9/artifacts/redirected/file.txt');
    response.resume();
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('https://objects.example.com/artifacts.zip?X-Amz-Signature=abc');
  });

  it("maps REST's 400 for an artifact path to a clear BAD_USER_INPUT, on the route and in GraphQL", async () => {
    const response = await openDownload(gateway, '/artifacts/projects/1/jobs/9/artifacts/refused/file.txt');
    const body = await new Promise<string>((resolve) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString())).on('end', () => resolve(text));
    });
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(body)).toEqual({
      errors: [
        {
          message: 'REST refused "refused/file.txt" as an artifact path of job 9 of project 1.',
          extensions: { code: 'BAD_USER_INPUT', restStatus: 400, restMessage: '400 Bad request', requestId: expect.any(String) as unknown },
        },
      ],
    });
    const result = await gateway.query<{ project: { jobArtifacts: { textFile: null } } }>(
      `{ project(fullPath: "group/project") { jobArtifacts(jobId: "gid://gitlab/Ci::Build/9") { textFile(path: "refused/file.txt") { size } } } }`,
      {},
      'glpat-streaming',
    );
    expect(result.data!.project.jobArtifacts.textFile).toBeNull();
    expect(result.errors?.[0]).toMatchObject({
      message: 'REST refused "refused/file.txt" as an artifact path of job 9 of project 1.',
      extensions: { code: 'BAD_USER_INPUT', restStatus: 400 },
    });
  });
});
