/**
 * What the Express and the Fastify examples share: the BFF's own part of the schema, how each
 * is started and stopped, and how it runs from the command line. The gateway is imported by the
 * package's name, as an application that installed it would.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import type { Gateway, GatewayContext, GatewayOptions, SchemaExtension } from 'gitlab-graphql-gateway';

export interface BffOptions {
  /** The GitLab REST API the gateway reads, with `/api/v4`. */
  upstreamUrl: string;
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Further gateway options (limits, poll interval, a service token, ...). */
  gateway?: Omit<GatewayOptions, 'upstreamUrl' | 'extend'>;
}

export interface RunningBff {
  /** `http://host:port`: the BFF's own routes live here (GET /api/hello). */
  origin: string;
  /** `http://host:port/graphql`: the gateway's graph plus the BFF's fields. */
  url: string;
  /** `ws://host:port/graphql`: subscriptions (graphql-ws), on the same server. */
  wsUrl: string;
  gateway: Gateway;
  close(): Promise<void>;
}

export const GRAPHQL_PATH = '/graphql';

/** What GET /api/hello answers: a route of the BFF's own, next to the gateway. */
export function hello(framework: string) {
  return { hello: 'world', from: `the ${framework} BFF` };
}

interface BffInfo {
  framework: string;
  viewer: Awaited<ReturnType<GatewayContext['api']['users']['current']>> | null;
}

/**
 * The BFF's own field, `bffInfo`, merged into the gateway's schema. Its resolver gets the
 * gateway's context: the caller's REST session and the request's DataLoaders, so the user it
 * fetches is the caller's, and `viewer` answers every field of the gateway's own `User` type.
 */
export function bffExtension(framework: string): SchemaExtension {
  return {
    typeDefs: /* GraphQL */ `
      "What this BFF adds to the gateway's graph."
      type BffInfo {
        "The web framework the BFF runs on."
        framework: String!
        "A greeting by the caller's GitLab display name; null without a credential."
        greeting: String
        "The caller, as the gateway's own User type; null without a credential."
        viewer: User
      }

      extend type Query {
        "About this BFF: a field of its own, resolved with the gateway's context."
        bffInfo: BffInfo!
      }
    `,
    resolvers: {
      Query: {
        async bffInfo(_parent: unknown, _args: unknown, { credential, api, loaders }: GatewayContext): Promise<BffInfo> {
          if (!credential) return { framework, viewer: null };
          const viewer = await api.users.current();
          // Any later `user` of this request (a job's, an issue's author) is then no further call.
          loaders.user.prime(viewer.id, viewer);
          return { framework, viewer };
        },
      },
      BffInfo: {
        greeting: ({ viewer }: BffInfo) => (viewer ? `Hello, ${viewer.name}!` : null),
      },
    },
  };
}

/** The URLs of a BFF listening on `server`. */
export function runningBff(server: Server, gateway: Gateway, close: () => Promise<void>): RunningBff {
  const { address, family, port } = server.address() as AddressInfo;
  const host = family === 'IPv6' ? `[${address}]` : address;
  return {
    origin: `http://${host}:${port}`,
    url: `http://${host}:${port}${GRAPHQL_PATH}`,
    wsUrl: `ws://${host}:${port}${GRAPHQL_PATH}`,
    gateway,
    close,
  };
}

/**
 * Runs `start` when the example is the program itself (`npx tsx examples/express/server.ts`), not
 * when a test imports it: V4_URL names the GitLab API, PORT the port (default 4100).
 */
export function runWhenMain(moduleUrl: string, framework: string, start: (options: BffOptions) => Promise<RunningBff>): void {
  const program = process.argv[1];
  if (!program || pathToFileURL(program).href !== moduleUrl) return;
  const upstreamUrl = process.env['V4_URL'];
  if (!upstreamUrl) {
    console.error('Set V4_URL to a GitLab REST API, e.g. V4_URL=http://127.0.0.1:4010/api/v4 (npm run simulator -- --port 4010).');
    process.exit(2);
  }
  void start({ upstreamUrl, port: Number(process.env['PORT'] ?? 4100) }).then((bff) => {
    console.log(`${framework} BFF: GraphQL at ${bff.url}, subscriptions at ${bff.wsUrl}, its own route at ${bff.origin}/api/hello`);
    const stop = () => void bff.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
