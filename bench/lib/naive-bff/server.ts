// The naive BFF: Apollo Server 5 with @apollo/datasource-rest and hand-written resolvers, served by
// startStandaloneServer on loopback. The bench runs it in a process of its own
// (../server-process/), the test in the test's process.
import { Agent } from 'node:http';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import type { DataSourceConfig } from '@apollo/datasource-rest';
import { fetch as undiciFetch, type Pool } from 'undici';
import { upstreamPool } from '../upstream.js';
import { createDataSources } from './datasources.js';
import { resolvers, type Context } from './resolvers.js';
import { typeDefs } from './schema.js';

export interface NaiveBffOptions {
  /** GitLab's REST API base, e.g. `http://127.0.0.1:PORT/api/v4`. */
  upstreamUrl: string;
  /**
   * Keep-alive connections to GitLab at most: the bench gives it the gateway's pool size, as it
   * gives the REST client, so that the columns compare the servers' work, not their pools.
   */
  connections: number;
  /**
   * The upstream's CA when it speaks h2 over TLS (--upstream-h2). RESTDataSource's default fetch,
   * node-fetch over node:https, speaks HTTP/1.1 only; it takes any `fetch`, so the BFF is given
   * undici's with an h2 Pool of `connections` connections, as a team wanting h2 would write it.
   */
  ca?: string;
}

export interface RunningNaiveBff {
  url: string;
  close(): Promise<void>;
}

type Fetcher = NonNullable<DataSourceConfig['fetch']>;

/** undici's fetch over an h2 pool, as RESTDataSource's `fetch`. */
function h2Fetch(pool: Pool): Fetcher {
  return (url, init) => undiciFetch(url, { ...init, dispatcher: pool });
}

export async function startNaiveBff({ upstreamUrl, connections, ca }: NaiveBffOptions): Promise<RunningNaiveBff> {
  const origin = new URL(upstreamUrl).origin;
  const pool = ca === undefined ? undefined : upstreamPool(origin, { connections, keepAliveTimeout: 30_000 }, { origin, ca });
  const agent = pool ? undefined : new Agent({ keepAlive: true, maxSockets: connections });
  const http = pool ? { fetch: h2Fetch(pool) } : { agent: agent! };
  const server = new ApolloServer<Context>({ typeDefs, resolvers });
  const { url } = await startStandaloneServer(server, {
    listen: { port: 0, host: '127.0.0.1' },
    // As Apollo's documentation shows: new data sources per request, sharing the server's cache.
    context: ({ req }) => {
      const token = req.headers['private-token'];
      return Promise.resolve({
        dataSources: createDataSources({
          baseURL: upstreamUrl,
          token: typeof token === 'string' ? token : undefined,
          ...http,
          cache: server.cache,
        }),
      });
    },
  });
  return {
    url,
    async close() {
      await server.stop();
      agent?.destroy();
      await pool?.close();
    },
  };
}
