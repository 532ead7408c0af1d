// The naive BFF: Apollo Server 5 with @apollo/datasource-rest and hand-written resolvers, served by
// startStandaloneServer on loopback. The bench runs it in a process of its own
// (../server-process/), the test in the test's process.
import { Agent } from 'node:http';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
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
}

export interface RunningNaiveBff {
  url: string;
  close(): Promise<void>;
}

export async function startNaiveBff({ upstreamUrl, connections }: NaiveBffOptions): Promise<RunningNaiveBff> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
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
          agent,
          cache: server.cache,
        }),
      });
    },
  });
  return {
    url,
    async close() {
      await server.stop();
      agent.destroy();
    },
  };
}
