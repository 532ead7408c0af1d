import { createServer, type Server, type ServerResponse } from 'node:http';
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
import { createContext, type GatewayContext } from './context.js';
import { credentialPolicy, type Credential } from '../datasources/credentials.js';
import { RestClient } from '../datasources/rest-client.js';
import { restBaseUrl } from '../datasources/upstream-url.js';
import { explainRestCallsPlugin } from '../observability/explain.js';
import { formatError, isUnexpectedError, isWrongShapeFromUpstream } from '../errors/graphql-errors.js';
import { redact, redactDeep } from '../errors/redact.js';
import { createHttpHandler, GRAPHQL_PATH, requestIdOf, type HttpHandlerOptions, type RouteHandler } from '../transport/http-handler.js';
import { createExplorerHandler, EXPLORER_PATH } from '../transport/explorer.js';
import { DEFAULT_QUERY_LIMITS, type QueryLimits } from '../policy/limits.js';
import { createAdmission } from '../policy/admission.js';
import { DEFAULT_MAX_UPLOAD_BYTES } from '../transport/uploads.js';
import { createExecutableSchema, resolvers, typeDefs } from '../schema/executable.js';
import { DEFAULT_ISSUE_REFERENCE_BOUNDS, ISSUE_REFERENCES, IssueReferences } from '../subscriptions/issue-references.js';
import { BoardLocator } from '../datasources/board-locator.js';
import { DEFAULT_SERVED_DISCUSSION_BOUNDS, DISCUSSION_REFERENCES, ServedDiscussions, type ServedDiscussion } from '../resolvers/discussions/served-discussions.js';
import type { IssueKey } from '../datasources/issues.js';
import { RecordPollers } from '../subscriptions/record-pollers.js';
import { attachWebSocketServer, DEFAULT_MAX_UNSENT_WEBSOCKET_BYTES, DEFAULT_WEBSOCKET_MESSAGES_PER_SECOND } from '../transport/websocket.js';
import { createLogger } from '../observability/logger.js';
import { GatewayMetrics } from '../observability/metrics.js';
import { ReadinessProbe } from '../observability/readiness.js';
import { Telemetry } from '../observability/telemetry.js';
import { persistedQueryStore, PERSISTED_QUERY_ENTRIES, createResponseCache } from '../caching/response-cache.js';
import { ReplicaSharing } from '../shared-state/replicas.js';
import { MemoryResponseStore, responseStoreBounds } from '../shared-state/response-store.js';
import { createCorsPolicy } from '../transport/cors.js';
import type { Gateway, GatewayOptions, WebSocketAttachment } from './options.js';

/** Builds the gateway: schema, REST transport, poller registry, Apollo Server and the WebSocket side. */
export function createGateway(options: GatewayOptions): Gateway {
  const upstream = restBaseUrl(options.upstreamUrl);
  if (!('url' in upstream)) throw new TypeError(`upstreamUrl must be ${upstream.expected}.`);
  const restClient = new RestClient({
    baseUrl: upstream.url,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    ...(options.upstreamTimeoutMs ? { timeoutMs: options.upstreamTimeoutMs } : {}),
    ...(options.upstreamMaxResponseBytes ? { maxResponseBytes: options.upstreamMaxResponseBytes } : {}),
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
  const pollers = new RecordPollers({
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
    issueReferences: new IssueReferences(
      pollers.credentialDigest,
      sharing?.servedReferenceStore<number, IssueKey>(ISSUE_REFERENCES, DEFAULT_ISSUE_REFERENCE_BOUNDS.perCredential),
    ),
    servedDiscussions: new ServedDiscussions(
      pollers.credentialDigest,
      sharing?.servedReferenceStore<string, ServedDiscussion>(DISCUSSION_REFERENCES, DEFAULT_SERVED_DISCUSSION_BOUNDS.perCredential),
    ),
    // One per gateway, shared by the replicas through Redis when there is one.
    boardLocator: new BoardLocator(sharing?.boardPlaceStore()),
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
  const admission = createAdmission(schema, limits, { batching: dependencies.batching });
  const httpServer = createServer();
  const webSockets = new Set<WebSocketAttachment>();
  const attachWebSocket = (server: Server, { path }: { path: string }): WebSocketAttachment => {
    const attached = attachWebSocketServer(server, schema, contextFor, {
      admission,
      maxSubscriptionsPerConnection: options.maxSubscriptionsPerConnection ?? 100,
      connectionInitWaitTimeoutMs: options.connectionInitWaitTimeoutMs ?? 10_000,
      maxUnsentBytes: options.maxUnsentWebSocketBytes ?? DEFAULT_MAX_UNSENT_WEBSOCKET_BYTES,
      maxMessagesPerSecond: options.maxWebSocketMessagesPerSecond ?? DEFAULT_WEBSOCKET_MESSAGES_PER_SECOND,
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
              contextValue.stats.estimate = admission.beforeExecution({ source, document, operationName, variables: request.variables, authenticated: contextValue.credential !== null });
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
    admission,
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
