import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import type { Dispatcher } from 'undici';
import { createContext, type GatewayContext } from './context.js';
import type { Credential } from './datasources/credentials.js';
import { RestClient } from './datasources/rest-client.js';
import { formatError, isUnexpectedError } from './errors.js';
import { redact } from './redact.js';
import { createHttpHandler, GRAPHQL_PATH } from './http-handler.js';
import { checkOperationShape, DEFAULT_QUERY_LIMITS, type QueryLimits } from './limits.js';
import { DEFAULT_MAX_UPLOAD_BYTES } from './uploads.js';
import { createExecutableSchema, resolvers, typeDefs } from './schema/executable.js';
import { RunnerStatusPollers } from './subscriptions/runner-status.js';
import { attachWebSocketServer } from './websocket.js';

export type { GatewayContext } from './context.js';
export type { Credential } from './datasources/credentials.js';
export { loadConfig, ConfigError, type GatewayConfig } from './config.js';

export interface GatewayOptions {
  /** Base URL of the REST API, with `/api/v4`. */
  upstreamUrl: string;
  /** An undici dispatcher of your own for the REST calls; default a bounded Pool per upstream. */
  dispatcher?: Dispatcher;
  upstreamTimeoutMs?: number;
  upstreamConnections?: number;
  /** Attempts for a REST read that meets a passing fault, the first included (default 3; 1 = no retry). */
  upstreamRetryAttempts?: number;
  /** Consecutive upstream faults that open the circuit, and how long it stays open (default 5 and 5 s); false = no breaker. */
  circuitBreaker?: { failureThreshold: number; cooldownMs: number } | false;
  /** Milliseconds between two polls of a watched runner (default 5000). */
  runnerPollIntervalMs?: number;
  /** DataLoader batching and per-request caching (default true). */
  batching?: boolean;
  /** Apollo Sandbox landing page on GET /graphql (default true). */
  landingPage?: boolean;
  /** Schema introspection (default true). */
  introspection?: boolean;
  /** REST calls one operation may have in flight at once (default 16). */
  maxConcurrentRestCalls?: number;
  /** Milliseconds an operation may spend on REST in all, from its start (default 30 s). */
  requestDeadlineMs?: number;
  /** Limits on the shape of operations (query length, tokens, depth, aliases, directives). */
  limits?: Partial<QueryLimits>;
  /** Most subscriptions one WebSocket connection may hold at once (default 100). */
  maxSubscriptionsPerConnection?: number;
  /** Largest upload accepted in one multipart request, in bytes (default 10 MiB). */
  maxUploadBytes?: number;
  /** Where the gateway reports its own faults (default: console.error). Messages are token-free. */
  logger?: GatewayLogger;
}

export interface GatewayLogger {
  error(message: string): void;
}

export interface ListeningGateway {
  /** `http://host:port/graphql`. */
  url: string;
  /** `ws://host:port/graphql`. */
  wsUrl: string;
  port: number;
}

export interface Gateway {
  schema: ReturnType<typeof createExecutableSchema>;
  typeDefs: string;
  resolvers: typeof resolvers;
  /** A context for one operation of a caller; the same one HTTP and WebSocket use. */
  createContext(credential: Credential | null, requestId?: string, options?: { longLived?: boolean }): GatewayContext;
  apollo: ApolloServer<GatewayContext>;
  httpServer: Server;
  pollers: RunnerStatusPollers;
  /** Starts Apollo and listens for HTTP and WebSocket on one port. */
  listen(options: { port: number; host?: string }): Promise<ListeningGateway>;
  /** Stops accepting, drains requests, ends subscriptions and pollers, closes upstream connections. */
  close(): Promise<void>;
}

/** Builds the gateway: schema, REST transport, poller registry, Apollo Server and the WebSocket side. */
export function createGateway(options: GatewayOptions): Gateway {
  const restClient = new RestClient({
    baseUrl: options.upstreamUrl,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    ...(options.upstreamTimeoutMs ? { timeoutMs: options.upstreamTimeoutMs } : {}),
    ...(options.upstreamConnections ? { connections: options.upstreamConnections } : {}),
    ...(options.upstreamRetryAttempts ? { retry: { attempts: options.upstreamRetryAttempts } } : {}),
    ...(options.circuitBreaker !== undefined ? { circuitBreaker: options.circuitBreaker } : {}),
  });
  const pollers = new RunnerStatusPollers({ restClient, intervalMs: options.runnerPollIntervalMs ?? 5_000 });
  const dependencies = {
    restClient,
    pollers,
    batching: options.batching ?? true,
    maxConcurrentRestCalls: options.maxConcurrentRestCalls ?? 16,
    requestDeadlineMs: options.requestDeadlineMs ?? 30_000,
  };
  const contextFor = (credential: Credential | null, requestId?: string, contextOptions?: { longLived?: boolean }) =>
    createContext(dependencies, credential, requestId, contextOptions);

  const logger = options.logger ?? { error: (message: string) => console.error(message) };
  const limits: QueryLimits = { ...DEFAULT_QUERY_LIMITS, ...options.limits };
  const schema = createExecutableSchema();
  const httpServer = createServer();
  const webSocket = attachWebSocketServer(httpServer, schema, contextFor, {
    limits,
    maxSubscriptionsPerConnection: options.maxSubscriptionsPerConnection ?? 100,
  });
  const apollo = new ApolloServer<GatewayContext>({
    schema,
    formatError,
    introspection: options.introspection ?? true,
    includeStacktraceInErrorResponses: false,
    // Signals belong to the process's owner (main.ts, or the BFF embedding the gateway); Apollo's
    // own handlers would race a second stop() against theirs and hang the shutdown.
    stopOnTerminationSignals: false,
    parseOptions: { maxTokens: limits.maxTokens },
    plugins: [
      // Neither is used (no cache hints, no Apollo Studio traces); both cost CPU on every request (bench: hot-path).
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      {
        // Shape limits, after parsing and validation, before any resolver (so before any REST call).
        requestDidStart: () =>
          Promise.resolve({
            didResolveOperation: ({ document, operationName, contextValue }) => {
              checkOperationShape(document, operationName, contextValue.credential !== null, limits);
              return Promise.resolve();
            },
          }),
      },
      ApolloServerPluginDrainHttpServer({ httpServer }),
      {
        // Callers get "Internal error in the gateway"; the details of such bugs are logged here.
        requestDidStart: () =>
          Promise.resolve({
            didEncounterErrors: ({ errors }) => {
              for (const error of errors) {
                if (isUnexpectedError(error)) logger.error(redact(`Unexpected error: ${errorDetails(error)}`));
              }
              return Promise.resolve();
            },
          }),
      },
      {
        serverWillStart() {
          return Promise.resolve({
            async drainServer() {
              pollers.close();
              await webSocket.close();
            },
          });
        },
      },
      options.landingPage === false
        ? ApolloServerPluginLandingPageDisabled()
        : ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false }),
    ],
  });
  const handle = createHttpHandler(apollo, contextFor, { maxUploadBytes: options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES, limits });
  httpServer.on('request', (req, res) => void handle(req, res));

  let started = false;
  return {
    schema,
    typeDefs,
    resolvers,
    createContext: contextFor,
    apollo,
    httpServer,
    pollers,
    async listen({ port, host = '127.0.0.1' }) {
      await apollo.start();
      started = true;
      await new Promise<void>((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => {
          httpServer.off('error', reject);
          resolve();
        });
      });
      const address = httpServer.address() as AddressInfo;
      const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return {
        url: `http://${hostForUrl}:${address.port}${GRAPHQL_PATH}`,
        wsUrl: `ws://${hostForUrl}:${address.port}${GRAPHQL_PATH}`,
        port: address.port,
      };
    },
    async close() {
      if (started) await apollo.stop();
      else {
        pollers.close();
        await webSocket.close();
      }
      await restClient.close();
    },
  };
}

function errorDetails(error: Error): string {
  const cause = (error as { originalError?: unknown }).originalError;
  return cause instanceof Error ? `${cause.stack ?? cause.message}` : (error.stack ?? error.message);
}
