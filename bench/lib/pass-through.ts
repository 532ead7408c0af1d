// The raw pass-through: the least any HTTP hop in front of REST can do. It forwards each request
// to the upstream over an undici pool and streams the answer back, with no parsing and no GraphQL.
// The hot path holds the gateway against it: same process, same hop, same upstream pool size.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { upstreamPool } from './upstream.js';

export interface PassThrough {
  /** The upstream's base URL as seen through the pass-through, e.g. `http://127.0.0.1:PORT/api/v4`. */
  url: string;
  close(): Promise<void>;
}

/** `ca`: the upstream's certificate when it speaks h2 over TLS (--upstream-h2); its pool then multiplexes. */
export async function startPassThrough(upstreamUrl: string, connections: number, ca?: string): Promise<PassThrough> {
  const upstream = new URL(upstreamUrl);
  const tls = ca === undefined ? undefined : { origin: upstream.origin, ca };
  const pool = upstreamPool(upstream.origin, { connections, keepAliveTimeout: 30_000, headersTimeout: 10_000, bodyTimeout: 10_000 }, tls);
  const server = createServer((req, res) => {
    const token = req.headers['private-token'];
    pool
      .request({
        method: 'GET',
        path: req.url ?? '/',
        headers: { accept: 'application/json', ...(typeof token === 'string' ? { 'private-token': token } : {}) },
      })
      .then(({ statusCode, headers, body }) => {
        const type = headers['content-type'];
        res.writeHead(statusCode, typeof type === 'string' ? { 'content-type': type } : {});
        // pipe(), not stream.pipeline(): pipeline() aborts an AbortController per response, whose
        // DOMException costs more than the whole forwarding of a small body.
        body.pipe(res);
      })
      .catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: String(error) }));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname.replace(/\/+$/, '')}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.close();
    },
  };
}
