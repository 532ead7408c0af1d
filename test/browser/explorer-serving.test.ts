import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureExplorerBuilt } from '../../explorer/build.js';
import { createExplorerHandler, EXPLORER_BUNDLE_DIRECTORY, EXPLORER_CONTENT_SECURITY_POLICY } from '../../src/transport/explorer.js';
import { startTestGateway } from '../support/gateway.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * One request with node:http, exactly as written: fetch would resolve `..` in the path and
 * decompress gzip bodies, the two things some of these tests look at.
 */
function rawRequest(origin: string, path: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The asset paths the served page names, in the order script, stylesheet. */
function assetPaths(html: string): { script: string; stylesheet: string } {
  const script = /<script[^>]*\ssrc="([^"]+)"/.exec(html)?.[1];
  const stylesheet = /<link[^>]*\shref="([^"]+\.css)"/.exec(html)?.[1];
  if (!script || !stylesheet) throw new Error(`the explorer page names no script or stylesheet:\n${html}`);
  return { script, stylesheet };
}

describe('serving the offline explorer', () => {
  const harness = gatewayOverSimulator({ landingPage: false });
  let origin: string;

  beforeAll(async () => {
    await ensureExplorerBuilt();
    origin = new URL(harness.gateway.url).origin;
  }, 60_000);

  it('redirects / to it when Sandbox is off, and serves the page under a strict Content-Security-Policy', async () => {
    const root = await rawRequest(origin, '/');
    expect(root.status).toBe(302);
    expect(root.headers.location).toBe('/explorer');

    const page = await rawRequest(origin, '/explorer');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const csp = page.headers['content-security-policy'];
    expect(csp).toBe(EXPLORER_CONTENT_SECURITY_POLICY);
    for (const directive of ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "font-src 'self' data:", "frame-ancestors 'none'"]) {
      expect(csp).toContain(directive);
    }
    expect(page.body.toString('utf8')).toBe(await readFile(join(EXPLORER_BUNDLE_DIRECTORY, 'index.html'), 'utf8'));
    expect(restCalls(harness.simulator)).toEqual([]);
  });

  it('serves the hashed script and stylesheet with their types, cacheable for good, gzipped to clients that accept it', async () => {
    const page = await rawRequest(origin, '/explorer');
    const { script, stylesheet } = assetPaths(page.body.toString('utf8'));
    for (const [path, type] of [
      [script, 'text/javascript; charset=utf-8'],
      [stylesheet, 'text/css; charset=utf-8'],
    ] as const) {
      const onDisk = await readFile(join(EXPLORER_BUNDLE_DIRECTORY, path.replace('/explorer/', '')));
      const plain = await rawRequest(origin, path);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-type']).toBe(type);
      expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.equals(onDisk)).toBe(true);

      const gzipped = await rawRequest(origin, path, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      expect(gzipped.headers.vary).toBe('accept-encoding');
      expect(gzipped.body.length).toBeLessThan(onDisk.length);
      expect(gunzipSync(gzipped.body).equals(onDisk)).toBe(true);

      const head = await rawRequest(origin, path, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(Number(head.headers['content-length'])).toBe(onDisk.length);
      expect(head.body.length).toBe(0);
    }
  });

  it.each([
    '/explorer/assets/../index.html',
    '/explorer/assets/..%2F..%2F..%2Fpackage.json',
    '/explorer/assets/%2e%2e/%2e%2e/%2e%2e/package.json',
    '/explorer/assets/..\\..\\..\\package.json',
    '/explorer/assets/index.html',
    '/explorer/assets/',
    '/explorer/assets/explorer-NOSUCHHASH.js',
    '/explorer/index.html.gz',
  ])('answers 404 to %s and reads nothing outside the assets', async (path) => {
    const response = await rawRequest(origin, path);
    expect(response.status).toBe(404);
    expect(response.body.toString('utf8')).not.toContain('"name"');
    expect(response.body.toString('utf8')).not.toContain('<script');
  });

  it('answers other methods with 405 and the ones it allows', async () => {
    const response = await rawRequest(origin, '/explorer', { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
  });

  it('answers 503 with the build command when the bundle is missing', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'explorer-missing-'));
    const handle = createExplorerHandler(join(empty, 'explorer'));
    const server: Server = createServer((req, res) => void handle(req, res, new URL(req.url ?? '/', 'http://explorer.invalid').pathname));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const response = await rawRequest(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, '/explorer');
      expect(response.status).toBe(503);
      expect(response.body.toString('utf8')).toContain('run `npm run build:explorer`');
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('is not served when turned off, and / then leads to /graphql', async () => {
    const gateway = await startTestGateway(harness.simulator.url, { explorer: false, landingPage: false });
    try {
      const gatewayOrigin = new URL(gateway.url).origin;
      expect((await rawRequest(gatewayOrigin, '/explorer')).status).toBe(404);
      const root = await rawRequest(gatewayOrigin, '/');
      expect(root.status).toBe(302);
      expect(root.headers.location).toBe('/graphql');
    } finally {
      await gateway.close();
    }
  });
});
