import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { ApolloServerErrorCode } from '@apollo/server/errors';
import { GraphQLError, OperationTypeNode, type GraphQLFormattedError } from 'graphql';
import type { Dispatcher } from 'undici';
import { createContext, type GatewayContext } from './context.js';
import { credentialPolicy, type Credential, type CredentialReader } from './datasources/credentials.js';
import { RestClient } from './datasources/rest-client.js';
import { restBaseUrl } from './datasources/upstream-url.js';
import { explainRestCallsPlugin } from './observability/explain.js';
import { formatError, isUnexpectedError, isWrongShapeFromUpstream } from './errors.js';
import { redact, redactDeep } from './redact.js';
import { createHttpHandler, GRAPHQL_PATH, requestIdOf, type HttpHandlerOptions, type NextHandler, type RouteHandler } from './http-handler.js';
import { createExplorerHandler, EXPLORER_PATH } from './explorer.js';
import { checkOperation, checkQueryLength, DEFAULT_QUERY_LIMITS, type QueryLimits } from './limits.js';
import { DEFAULT_MAX_UPLOAD_BYTES } from './uploads.js';
import { createExecutableSchema, resolvers, typeDefs, type SchemaExtension } from './schema/executable.js';
import { RunnerStatusPollers } from './subscriptions/runner-status.js';
import { attachWebSocketServer } from './websocket.js';
import { createLogger, type GatewayLogger } from './observability/logger.js';
import { GatewayMetrics } from './observability/metrics.js';
import { ReadinessProbe } from './observability/readiness.js';
import { Telemetry } from './observability/telemetry.js';
import { persistedQueryStore, PERSISTED_QUERY_ENTRIES, createResponseCache, type ResponseCacheOptions } from './response-cache.js';
import { ReplicaSharing, type RedisSharingOptions } from './shared-state/replicas.js';
import { MemoryResponseStore, responseStoreBounds } from './shared-state/response-store.js';
import { createCorsPolicy, type CorsOptions } from './cors.js';

export type { GatewayContext } from './context.js';
export type { Credential, CredentialReader, CredentialRequest } from './datasources/credentials.js';
export type { SchemaExtension } from './schema/executable.js';
export { loadConfig, ConfigError, type GatewayConfig } from './config.js';
export { createLogger, type GatewayLogger, type LogFields, type LogLevel } from './observability/logger.js';
export type { GatewayMetrics } from './observability/metrics.js';
export type { ResponseCacheOptions } from './response-cache.js';
export type { CorsOptions } from './cors.js';
export type { QueryLimits } from './limits.js';
export type { RedisSharingOptions } from './shared-state/replicas.js';

export interface GatewayOptions {
  /**
   * The GitLab instance URL (`https://gitlab.example.com`, `/api/v4` is added) or its REST API URL
   * (`https://gitlab.example.com/api/v4`); other forms are refused when the gateway is created.
   */
  upstreamUrl: string;
  /**
   * Reads the caller's credential from a request: an HTTP request, or a WebSocket's upgrade
   * request with its `connection_init` payload as `connectionParams`. Default: the
   * `PRIVATE-TOKEN`, `Authorization: Bearer` or `JOB-TOKEN` header over HTTP, the same names in
   * the `connection_init` payload over WebSocket.
   */
  credentials?: CredentialReader;
  /**
   * A token (sent upstream as `PRIVATE-TOKEN`) for requests that carry no credential of their own.
   * Every such caller then sees what this token sees. It is scrubbed from errors and log lines.
   */
  serviceToken?: string;
  /** Types and resolvers of the embedder's own, merged into the gateway's executable schema. */
  extend?: SchemaExtension;
  /** An undici dispatcher of your own for the REST calls; default a bounded Pool per upstream. */
  dispatcher?: Dispatcher;
  upstreamTimeoutMs?: number;
  /**
   * Connections kept to the upstream (default 64). Over HTTP/2, which the default pool offers to an
   * https upstream, each carries up to 100 calls at once, and a wave of calls shares one.
   */
  upstreamConnections?: number;
  /**
   * PEM of the CA certificate(s) the upstream's TLS certificate must chain to (a GitLab behind a
   * private CA), replacing Node's bundled roots for the REST calls; not used with `dispatcher`.
   */
  upstreamCa?: string | Buffer;
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
  /** The offline explorer (GraphiQL bundled from npm, no CDN) on GET /explorer (default true); built by `npm run build:explorer`. */
  explorer?: boolean;
  /** Schema introspection (default true). */
  introspection?: boolean;
  /**
   * Lets a caller ask, with `"extensions": {"explainRestCalls": true}` in its request, for the REST
   * calls its operation made, in the response's `extensions.restCalls` (default false).
   */
  explainRestCalls?: boolean;
  /**
   * A ceiling on the REST calls one operation may have in flight at once. Default none: the
   * upstream connections are shared fairly among the operations that want them, and an operation
   * alone may use them all.
   */
  maxConcurrentRestCalls?: number;
  /** Milliseconds an operation may spend on REST in all, from its start (default 30 s). */
  requestDeadlineMs?: number;
  /** Limits on operations: query length, tokens, depth, aliases, directives, and the REST calls they may need (`maxRestCalls`, default 100). */
  limits?: Partial<QueryLimits>;
  /** Most subscriptions one WebSocket connection may hold at once (default 100). */
  maxSubscriptionsPerConnection?: number;
  /** How long a WebSocket may wait before its `connection_init` message; then it is closed with 4408 (default 10 s). */
  connectionInitWaitTimeoutMs?: number;
  /** Several operations in one HTTP request as a JSON array (default false: refused). */
  allowBatchedHttpRequests?: boolean;
  /** CORS for browsers on other origins (default: none, no CORS headers at all). */
  cors?: CorsOptions;
  /** Largest upload accepted in one multipart request, in bytes (default 10 MiB). */
  maxUploadBytes?: number;
  /**
   * Where log lines go: a pino logger, or anything with its `info`/`warn`/`debug` `(fields, message)`
   * and `error(message)` (default: pino on stdout at level `error`, the gateway's own faults only;
   * the command line logs at `LOG_LEVEL`). One line per request and WebSocket operation at info,
   * per upstream error at warn; never a token.
   */
  logger?: GatewayLogger;
  /** Prometheus metrics on GET /metrics, in a registry of the gateway's own (default true). */
  metrics?: boolean;
  /** Automatic persisted queries, in a store of at most 1000 queries (default true). */
  persistedQueries?: boolean;
  /** Reuses query responses per credential, query and variables (default false: off). */
  responseCache?: ResponseCacheOptions | false;
  /** How long GET /readyz waits for the upstream (default 2000 ms). */
  readinessTimeoutMs?: number;
  /** How long close() lets in-flight HTTP requests finish before closing their connections (default 10 s). */
  shutdownTimeoutMs?: number;
  /**
   * Several replicas behind one load balancer share state through this Redis: one poller per
   * watched runner and credential across all of them, persisted queries, the response cache.
   * Default none: everything stays in this process. Redis trouble degrades to that, never fails.
   */
  redis?: RedisSharingOptions;
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
  /** The gateway's metrics and their registry (what GET /metrics serves); undefined when `metrics` is false. */
  metrics: GatewayMetrics | undefined;
  /**
   * The context of one HTTP request to a BFF that mounts `apollo` itself (with
   * `@as-integrations/express5`, `@as-integrations/fastify`, ...): the caller's credential as
   * `credentials` reads it, or the service token, and the request's `X-Request-Id` (or a new one).
   */
  contextFromRequest: (request: Pick<IncomingMessage, 'headers'>) => GatewayContext;
  /** Starts Apollo without listening, for a BFF that serves `apollo` on its own server. Idempotent. */
  start: () => Promise<void>;
  /**
   * Serves graphql-ws on a server of the BFF's own, on `path` only, with the gateway's limits and
   * credentials. Closed by `close()`, or earlier by the returned handle.
   */
  attachWebSocket: (server: Server, options: { path: string }) => WebSocketAttachment;
  /**
   * The gateway's HTTP routes other than GraphQL itself (job artifact downloads under
   * `/artifacts/`, /healthz, /readyz, /metrics, the explorer), connect-style: a request that is
   * not one of them goes to `next`
   * (Express's, or a 404 without one). Node's `(req, res)` suits Express as `app.use(...)` and
   * Fastify as `reply.hijack()` then `(request.raw, reply.raw)`.
   */
  httpHandler: (req: IncomingMessage, res: ServerResponse, next?: NextHandler) => Promise<void>;
  /** Starts Apollo and listens for HTTP and WebSocket on one port. */
  listen(options: { port: number; host?: string }): Promise<ListeningGateway>;
  /** Stops accepting, drains requests, ends subscriptions and pollers, closes upstream connections. */
  close(): Promise<void>;
}

export interface WebSocketAttachment {
  close(): Promise<void>;
}

/** Builds the gateway: schema, REST transport, poller registry, Apollo Server and the WebSocket side. */
export function createGateway(options: GatewayOptions): Gateway {
  const upstream = restBaseUrl(options.upstreamUrl);
  if (!('url' in upstream)) throw new TypeError(`upstreamUrl must be ${upstream.expected}.`);
  const restClient = new RestClient({
    baseUrl: upstream.url,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    ...(options.upstreamTimeoutMs ? { timeoutMs: options.upstreamTimeoutMs } : {}),
    ...(options.upstreamConnections ? { connections: options.upstreamConnections } : {}),
    ...(options.upstreamCa ? { ca: options.upstreamCa } : {}),
    ...(options.upstreamRetryAttempts ? { retry: { attempts: options.upstreamRetryAttempts } } : {}),
    ...(options.circuitBreaker !== undefined ? { circuitBreaker: options.circuitBreaker } : {}),
    onResponse: (event) => telemetry.restCall(event),
  });
  const logger = options.logger ?? createLogger({ level: 'error' });
  // Fallbacks to memory are counted from the first request on, when metrics exist.
  const sharing = options.redis ? new ReplicaSharing(options.redis, logger, (store) => metrics?.redisFallback(store)) : undefined;
  const metrics: GatewayMetrics | undefined =
    options.metrics === false
      ? undefined
      : new GatewayMetrics({
          activeSubscriptions: () => pollers.activeSubscriptions,
          activePollers: () => pollers.activePollers,
          pollingPollers: () => pollers.pollingPollers,
          ...(sharing ? { redisUp: () => (sharing.link.isUp ? 1 : 0) } : {}),
        });
  const runnerPollIntervalMs = options.runnerPollIntervalMs ?? 5_000;
  const pollers = new RunnerStatusPollers({
    restClient,
    intervalMs: runnerPollIntervalMs,
    ...(sharing ? { credentialDigest: sharing.credentialDigest, coordination: sharing.pollerCoordination(runnerPollIntervalMs) } : {}),
  });
  const telemetry = new Telemetry(logger, metrics);
  const readiness = new ReadinessProbe({
    restClient,
    timeoutMs: options.readinessTimeoutMs ?? 2_000,
    ...(sharing ? { details: sharing.readinessDetails } : {}),
  });
  const dependencies = {
    restClient,
    pollers,
    batching: options.batching ?? true,
    maxConcurrentRestCalls: options.maxConcurrentRestCalls,
    requestDeadlineMs: options.requestDeadlineMs ?? 30_000,
    maxRestCallsMade: options.limits?.maxRestCallsMade ?? DEFAULT_QUERY_LIMITS.maxRestCallsMade,
    onLoaderBatch: telemetry.loaderBatch,
  };
  const contextFor = (credential: Credential | null, requestId?: string, contextOptions?: { longLived?: boolean }) =>
    createContext(dependencies, credential, requestId, contextOptions);

  const limits: QueryLimits = { ...DEFAULT_QUERY_LIMITS, ...options.limits };
  const credentials = credentialPolicy(options);
  const introspection = options.introspection ?? true;
  // What callers see of an error, over HTTP and WebSocket alike: codes from the table, tokens and
  // the gateway's own secrets scrubbed; with introspection off, no suggestions naming the schema.
  const formatErrorForCaller: typeof formatError = (formatted, error) => {
    const scrubbed =
      credentials.secrets.length === 0 ? formatError(formatted, error) : (redactDeep(formatError(formatted, error), credentials.secrets) as GraphQLFormattedError);
    return introspection ? scrubbed : withoutSuggestions(scrubbed);
  };
  // Off unless asked for (response-cache.ts). Its plugin serves HTTP; mutations over WebSocket empty it too.
  // With Redis, one store for every replica: a mutation on any of them empties it for all.
  const responseStore = options.responseCache
    ? (sharing?.responseStore(responseStoreBounds(options.responseCache)) ?? new MemoryResponseStore(responseStoreBounds(options.responseCache)))
    : undefined;
  const responseCache = responseStore ? createResponseCache(responseStore, metrics && ((hit) => metrics.responseCacheLookup(hit))) : undefined;
  const schema = createExecutableSchema(options.extend);
  const httpServer = createServer();
  const webSockets = new Set<WebSocketAttachment>();
  const attachWebSocket = (server: Server, { path }: { path: string }): WebSocketAttachment => {
    const attached = attachWebSocketServer(server, schema, contextFor, {
      limits,
      maxSubscriptionsPerConnection: options.maxSubscriptionsPerConnection ?? 100,
      batching: dependencies.batching,
      connectionInitWaitTimeoutMs: options.connectionInitWaitTimeoutMs ?? 10_000,
      path,
      credentials,
      formatError: formatErrorForCaller,
      telemetry,
      introspection,
      onMutation: responseCache?.mutationRan,
    });
    const attachment = {
      async close() {
        webSockets.delete(attachment);
        await attached.close();
      },
    };
    webSockets.add(attachment);
    return attachment;
  };
  const closeWebSockets = () => Promise.all([...webSockets].map((attachment) => attachment.close()));
  attachWebSocket(httpServer, { path: GRAPHQL_PATH });
  const apollo = new ApolloServer<GatewayContext>({
    schema,
    formatError: formatErrorForCaller,
    introspection,
    allowBatchedHttpRequests: options.allowBatchedHttpRequests ?? false,
    includeStacktraceInErrorResponses: false,
    // Signals belong to the process's owner (main.ts, or the BFF embedding the gateway); Apollo's
    // own handlers would race a second stop() against theirs and hang the shutdown.
    stopOnTerminationSignals: false,
    parseOptions: { maxTokens: limits.maxTokens },
    // Apollo's default store is bounded by bytes (about 30 MB); a count is easier to reason about:
    // each query is at most MAX_QUERY_LENGTH characters, and limits apply to it on every use.
    // With Redis, one store for every replica: a query registered on one is found on the others.
    persistedQueries:
      options.persistedQueries === false
        ? false
        : { cache: sharing ? sharing.persistedQueryStore(PERSISTED_QUERY_ENTRIES) : persistedQueryStore() },
    plugins: [
      // Names the operation for the request's log line and times it; first, so it sees what the limits refuse.
      telemetry.apolloPlugin(),
      // Neither is used (no cache hints, no Apollo Studio traces); both cost CPU on every request (bench: hot-path).
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      {
        // Shape and REST-call cost limits, after parsing and validation, before any resolver (so before any REST call).
        requestDidStart: () =>
          Promise.resolve({
            didResolveOperation: ({ source, document, operation, operationName, contextValue, request }) => {
              if (operation?.operation === OperationTypeNode.SUBSCRIPTION) throw subscriptionOverHttp();
              // The gateway's own HTTP handler refuses long text before parsing it; this covers a
              // BFF's mount of `apollo` (where maxTokens has bounded the parse) and persisted queries.
              checkQueryLength(source, limits);
              const estimate = checkOperation(schema, { document, operationName, variables: request.variables }, { authenticated: contextValue.credential !== null, batching: dependencies.batching }, limits);
              contextValue.stats.estimate = estimate;
              return Promise.resolve();
            },
          }),
      },
      // The REST calls an operation made, in its response, for a caller who asks (off unless enabled).
      ...(options.explainRestCalls ? [explainRestCallsPlugin(limits)] : []),
      ApolloServerPluginDrainHttpServer({ httpServer, stopGracePeriodMillis: options.shutdownTimeoutMs ?? 10_000 }),
      // It answers after the limits, which a cached answer passes too.
      ...(responseCache ? [responseCache.plugin] : []),
      {
        // Callers get "Internal error in the gateway"; the details of such bugs are logged here.
        requestDidStart: () =>
          Promise.resolve({
            didEncounterErrors: ({ errors }) => {
              for (const error of errors) {
                if (isUnexpectedError(error)) logger.error(redact(`Unexpected error: ${errorDetails(error)}`, credentials.secrets));
                // REST data of a shape the schema cannot carry: the upstream's fault, told to the caller as
                // UPSTREAM_ERROR, logged at warn with the field, so a gateway bug reading REST stays visible.
                else if (isWrongShapeFromUpstream(error))
                  logger.warn?.({ path: error.path?.join('.') ?? null }, redact(`upstream value of the wrong type: ${error.message}`, credentials.secrets).slice(0, 500));
              }
              return Promise.resolve();
            },
          }),
      },
      {
        serverWillStart() {
          return Promise.resolve({
            async drainServer() {
              await pollers.close();
              await closeWebSockets();
            },
          });
        },
      },
      options.landingPage === false
        ? ApolloServerPluginLandingPageDisabled()
        : ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false }),
    ],
  });
  const routes = new Map<string, RouteHandler>([['/readyz', (_req, res, requestId) => readiness.serve(res, requestId)]]);
  if (metrics) routes.set('/metrics', (_req, res) => serveMetrics(metrics, res));
  const explorer = options.explorer === false ? undefined : createExplorerHandler();
  const httpOptions: HttpHandlerOptions = {
    maxUploadBytes: options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
    limits,
    credentials,
    explorer,
    // A browser opening / gets a page that works: Sandbox when it is on (it needs Apollo's CDN),
    // else the offline explorer.
    rootRedirect: explorer && options.landingPage === false ? EXPLORER_PATH : GRAPHQL_PATH,
    telemetry,
    routes,
    draining: () => readiness.isDraining,
    ...(options.cors ? { cors: createCorsPolicy(options.cors) } : {}),
    allowBatchedHttpRequests: options.allowBatchedHttpRequests ?? false,
  };
  const handle = createHttpHandler(apollo, contextFor, httpOptions);
  httpServer.on('request', (req, res) => void handle(req, res));
  // For a BFF that serves GraphQL through `apollo` on its own server: the other routes only.
  const handleOtherRoutes = createHttpHandler(apollo, contextFor, { ...httpOptions, graphql: false });

  let starting: Promise<void> | undefined;
  let closing: Promise<void> | undefined;
  /** What gateway.close() does, once however often it is called. */
  async function shutDown(): Promise<void> {
    const deadline = Date.now() + (options.shutdownTimeoutMs ?? 10_000);
    // /readyz answers 503 from now on, and responses close their connections.
    readiness.startDraining();
    // Subscriptions first, with 1001 Going Away: open sockets would hold the HTTP drain open.
    // Their leases are released first, so that other replicas take over their runners at once.
    await pollers.close();
    await closeWebSockets();
    // Stops accepting and lets in-flight requests finish, for up to shutdownTimeoutMs.
    if (starting) await apollo.stop();
    // Upstream calls still in flight (a poll) get what is left of that time.
    await restClient.close(Math.max(0, deadline - Date.now()));
    await sharing?.close();
  }

  // Redis is connected before Apollo starts (a first attempt that fails starts the gateway degraded).
  const start = () => (starting ??= (sharing ? sharing.connect() : Promise.resolve()).then(() => apollo.start()));
  return {
    schema,
    typeDefs,
    resolvers,
    createContext: contextFor,
    contextFromRequest: (request) => contextFor(credentials.ofHttpRequest(request) ?? credentials.fallback, requestIdOf(request)),
    start,
    attachWebSocket,
    httpHandler: handleOtherRoutes,
    apollo,
    httpServer,
    pollers,
    metrics,
    async listen({ port, host = '127.0.0.1' }) {
      await start();
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
    close: () => (closing ??= shutDown()),
  };
}

async function serveMetrics(metrics: GatewayMetrics, res: ServerResponse): Promise<void> {
  const { contentType, body } = await metrics.render();
  res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
  res.end(body);
}

/**
 * A subscription sent over HTTP. Apollo Server would execute it as a query, with no event for its
 * resolver (a TypeError, answered INTERNAL_SERVER_ERROR); it is the caller's mistake, so it is
 * refused before the limits and any REST call, saying where subscriptions are served. BAD_REQUEST
 * and 400, as Apollo refuses a mutation over GET, but not 405: POST is the right method for this
 * URL, and no method would carry a subscription (a 405 owes an Allow header naming one that does).
 */
function subscriptionOverHttp(): GraphQLError {
  return new GraphQLError(
    'Subscriptions are served over WebSocket (the graphql-transport-ws protocol), not over HTTP: send this operation through a WebSocket client.',
    { extensions: { code: ApolloServerErrorCode.BAD_REQUEST, http: { status: 400 } } },
  );
}

/**
 * The error without graphql-js's "Did you mean …?" ending (didYouMean, and ScalarLeafsRule's
 * `Did you mean "field { ... }"?`), which names the schema's fields, arguments, types and enum
 * values: with introspection off, validation and variable coercion errors must not teach the
 * schema one guess at a time. Apollo's `hideSchemaDetailsFromClientErrors` strips the same text
 * (with this pattern), but from validation errors over HTTP only: this formatter serves both
 * transports and every phase.
 */
function withoutSuggestions(error: GraphQLFormattedError): GraphQLFormattedError {
  return { ...error, message: error.message.replace(/ ?Did you mean(.+?)\?$/, '') };
}

function errorDetails(error: Error): string {
  const cause = (error as { originalError?: unknown }).originalError;
  return cause instanceof Error ? `${cause.stack ?? cause.message}` : (error.stack ?? error.message);
}
