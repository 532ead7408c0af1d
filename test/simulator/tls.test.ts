import { X509Certificate } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { connect, type ClientHttp2Session } from 'node:http2';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, GITLAB_KEEP_ALIVE_MS, startSimulator, type Simulator } from '../../simulator/index.js';

// The TLS mode of the embedded server: HTTP/2 and HTTP/1.1 on one port, a certificate made at start.

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({ tls: true });
});

afterAll(async () => {
  await sim.close();
});

beforeEach(() => sim.resetRequests());

/** One request on an HTTP/2 session: status and body; status 0 when the stream ended with no answer. */
function h2Get(session: ClientHttp2Session, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':path': `/api/v4${path}`, 'private-token': DEMO_TOKENS.admin, ...headers });
    let status = 0;
    let body = '';
    stream.on('response', (responseHeaders) => (status = Number(responseHeaders[':status'])));
    stream.on('data', (chunk: Buffer) => (body += chunk.toString()));
    stream.on('end', () => resolve({ status, body }));
    stream.on('error', reject);
    stream.end();
  });
}

function openSession(): ClientHttp2Session {
  return connect(sim.origin, { ca: sim.ca! });
}

describe('the embedded server over TLS', () => {
  it('has an https URL and a self-signed certificate for the loopback names', () => {
    expect(sim.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/api\/v4$/);
    const certificate = new X509Certificate(sim.ca!);
    expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(certificate.checkHost('localhost')).toBe('localhost');
    expect(certificate.verify(certificate.publicKey)).toBe(true);
  });

  it('answers HTTP/2, every request of a session over one connection', async () => {
    const session = openSession();
    try {
      const [project, runner] = await Promise.all([h2Get(session, '/projects/1'), h2Get(session, '/runners/1', { 'x-request-id': 'h2' })]);
      expect(project.status).toBe(200);
      expect(JSON.parse(project.body)).toMatchObject({ id: 1 });
      expect(runner.status).toBe(200);
    } finally {
      session.close();
    }
    expect(sim.requests.map((request) => request.path).sort()).toEqual(['/projects/1', '/runners/1']);
    const arrivals = sim.traffic.filter((event) => event.event === 'arrived');
    expect(arrivals.map((event) => event.httpVersion)).toEqual(['2.0', '2.0']);
    expect(new Set(arrivals.map((event) => event.connection)).size).toBe(1);
    expect(arrivals.find((event) => event.path === '/runners/1')?.requestId).toBe('h2');
  });

  it('answers HTTP/1.1 on the same port, keeping its connection as over plain HTTP', async () => {
    const answer = await new Promise<{ status: number; version: string; keepAlive: string | string[] | undefined }>((resolve, reject) => {
      const url = new URL(`${sim.url}/projects/1`);
      const req = httpsRequest(url, { ca: sim.ca!, headers: { 'private-token': DEMO_TOKENS.admin } }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, version: res.httpVersion, keepAlive: res.headers['keep-alive'] }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer).toEqual({ status: 200, version: '1.1', keepAlive: `timeout=${GITLAB_KEEP_ALIVE_MS / 1000}` });
    expect(sim.traffic.map((event) => event.httpVersion)).toEqual(['1.1', '1.1']);
  });

  it('resets only the faulted stream on a `close` fault, not the connection', async () => {
    const id = sim.faults.add({ path: '/runners/2', kind: 'close', times: 1 });
    const session = openSession();
    try {
      expect(await h2Get(session, '/runners/2')).toEqual({ status: 0, body: '' });
      expect((await h2Get(session, '/runners/1')).status).toBe(200);
      expect(new Set(sim.traffic.map((event) => event.connection)).size).toBe(1);
    } finally {
      session.close();
      sim.faults.remove(id);
    }
  });

  it('closes with an HTTP/2 session still open and a request held by a `timeout` fault', async () => {
    const held = await startSimulator({ tls: true });
    held.faults.add({ path: '/runners/1', kind: 'timeout' });
    const session = connect(held.origin, { ca: held.ca! });
    session.on('error', () => undefined);
    const pending = h2Get(session, '/runners/1').then(
      (answer) => answer.status,
      () => 0,
    );
    while (held.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    await held.close();
    expect(await pending).toBe(0);
  });
});
