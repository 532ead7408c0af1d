import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The REST documentation's example bodies, copied into the repository (test/fixtures/gitlab-docs;
 * INDEX.md there gives each file's source) so a clone tests itself with nothing beside it.
 */
export const FIXTURES_DIR = new URL('../fixtures/gitlab-docs/', import.meta.url);

export function readFixture(relativePath: string): unknown {
  return JSON.parse(readFileSync(new URL(relativePath, FIXTURES_DIR), 'utf8')) as unknown;
}

export interface StubRoute {
  method: string;
  /** The raw path after /api/v4, without query. */
  path: string;
  /** When given, the route answers only this raw query string (without `?`). */
  query?: string;
  status?: number;
  body: unknown;
  /** The body exactly as sent, instead of `body` serialised: for numbers JSON.stringify would round. */
  rawBody?: string;
  headers?: Record<string, string>;
}

/**
 * A REST upstream that answers fixed routes with fixed bodies: for contract tests that check the
 * gateway maps the documentation's real example bodies. It records what it was asked.
 */
export async function startStubUpstream(routes: StubRoute[]) {
  const requests: Array<{ method: string; path: string; rawUrl: string; headers: IncomingMessage['headers'] }> = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub.invalid');
    const path = url.pathname.replace(/^\/api\/v4/, '');
    requests.push({ method: req.method ?? 'GET', path, rawUrl: req.url ?? '/', headers: req.headers });
    req.resume();
    const query = url.search.slice(1);
    const route = routes.find((candidate) => candidate.method === req.method && candidate.path === path && (candidate.query === undefined || candidate.query === query));
    if (!route) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: '404 Not Found' }));
      return;
    }
    const body = route.rawBody ?? JSON.stringify(route.body);
    const isList = Array.isArray(route.body);
    res.writeHead(route.status ?? 200, {
      'content-type': 'application/json',
      ...(isList
        ? { 'x-page': '1', 'x-per-page': '20', 'x-next-page': '', 'x-prev-page': '', 'x-total': String((route.body as unknown[]).length), 'x-total-pages': '1' }
        : {}),
      ...route.headers,
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v4`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
