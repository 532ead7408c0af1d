// The REST waterfall as a server: a scenario's own REST baseline function (the frontend's
// level-by-level waterfall, each level in parallel) run for each HTTP request by a plain node:http
// server, with no GraphQL, no schema and no per-call bookkeeping. It is the least any server process
// in front of REST can do for the page, so the nested-query scenarios measure it beside the gateway:
// the time it takes above the floor is what this machine charges for a process hop and the v4
// server's own work, and the gateway's time above it is what GraphQL and the gateway add.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RestBaseline, type BaselineFunction, type DriverTools } from './rest-baseline.js';
import { upstreamPool } from './upstream.js';

export interface RestWaterfallOptions {
  /** GitLab's REST API base, e.g. `http://127.0.0.1:PORT/api/v4`. */
  upstreamUrl: string;
  /** Keep-alive connections to GitLab at most: the gateway's pool size, as the other columns get. */
  connections: number;
  /** The upstream's CA when it speaks h2 over TLS (--upstream-h2). */
  ca?: string;
  /** The scenario's REST baseline: an exported BaselineFunction of its module, and its argument. */
  baseline: { module: string; name: string; args: unknown };
}

export interface RunningRestWaterfall {
  url: string;
  close(): Promise<void>;
}

export async function startRestWaterfall({ upstreamUrl, connections, ca, baseline }: RestWaterfallOptions): Promise<RunningRestWaterfall> {
  const exported = ((await import(baseline.module)) as Record<string, unknown>)[baseline.name];
  if (typeof exported !== 'function') throw new Error(`${baseline.module} exports no function ${baseline.name}`);
  const run = exported as BaselineFunction;
  const origin = new URL(upstreamUrl).origin;
  const pool = upstreamPool(origin, { connections, keepAliveTimeout: 30_000 }, ca === undefined ? undefined : { origin, ca });
  const tools: DriverTools = { rest: (token) => new RestBaseline(upstreamUrl, token, pool) };

  // Any request body is read and ignored: the page is the scenario's, as a BFF endpoint's would be.
  const server = createServer((req, res) => {
    req.resume();
    req.once('end', () => {
      run(tools, baseline.args).then(
        (data) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ data }));
        },
        (error: unknown) => {
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ errors: [{ message: error instanceof Error ? error.message : String(error) }] }));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.close();
    },
  };
}
