import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApolloServer } from './apollo.js';
import { withDefaults } from './defaults.js';
import { createServices, type GatewayServices } from './services.js';
import { createHttpHandler, GRAPHQL_PATH, requestIdOf, type HttpHandlerOptions, type RouteHandler } from '../transport/http-handler.js';
import { createExplorerHandler, EXPLORER_PATH } from '../transport/explorer.js';
import { resolvers, typeDefs } from '../schema/executable.js';
import { attachWebSocketServer } from '../transport/websocket.js';
import type { GatewayMetrics } from '../observability/metrics.js';
import { createResponseCache } from '../caching/response-cache.js';
import { MemoryResponseStore, responseStoreBounds } from '../shared-state/response-store.js';
import { createCorsPolicy } from '../transport/cors.js';
import type { Gateway, GatewayOptions, WebSocketAttachment } from './options.js';

/**
 * Builds the gateway: its services (services.ts: REST transport, pollers, contexts, schema,
 * admission), the WebSocket side, Apollo Server (apollo.ts) and the HTTP handler on top, and what
 * starts and stops them in order.
 */
export function createGateway(gatewayOptions: GatewayOptions): Gateway {
  const services = createServices(withDefaults(gatewayOptions));
  const { options, restClient, sharing, metrics, readiness, pollers, contextFor, credentials, schema } = services;
  // Off unless asked for (response-cache.ts). Its plugin serves HTTP; mutations over WebSocket empty it too.
  // With Redis, one store for every replica: a mutation on any of them empties it for all.
  const responseStore = options.responseCache
    ? (sharing?.responseStore(responseStoreBounds(options.responseCache)) ?? new MemoryResponseStore(responseStoreBounds(options.responseCache)))
    : undefined;
  const responseCache = responseStore ? createResponseCache(responseStore, metrics && ((hit) => metrics.responseCacheLookup(hit))) : undefined;
  const httpServer = createServer();
  const webSockets = webSocketAttacher(services, responseCache?.mutationRan);
  webSockets.attach(httpServer, { path: GRAPHQL_PATH });
  const drainSubscriptions = async () => {
    await pollers.close();
    await webSockets.closeAll();
  };
  const apollo = createApolloServer(services, { httpServer, responseCache, drainSubscriptions });
  const httpOptions = httpHandlerOptions(services);
  const handle = createHttpHandler(apollo, contextFor, httpOptions);
  httpServer.on('request', (req, res) => void handle(req, res));

  let starting: Promise<void> | undefined;
  let closing: Promise<void> | undefined;
  /** What gateway.close() does, once however often it is called. */
  async function shutDown(): Promise<void> {
    const deadline = Date.now() + options.shutdownTimeoutMs;
    // /readyz answers 503 from now on, and responses close their connections.
    readiness.startDraining();
    services.trustedDocuments?.close();
    // Subscriptions first, with 1001 Going Away: open sockets would hold the HTTP drain open.
    // Their leases are released first, so that other replicas take over their runners at once.
    await drainSubscriptions();
    // Stops accepting and lets in-flight requests finish, for up to shutdownTimeoutMs.
    if (starting) await apollo.stop();
    // Upstream calls still in flight (a poll) get what is left of that time.
    await restClient.close(Math.max(0, deadline - Date.now()));
    await sharing?.close();
    // The spans still batched are exported (the gateway's own SDK; an embedder's provider is its own).
    await services.tracing?.shutdown();
  }
  // Redis is connected before Apollo starts (a first attempt that fails starts the gateway degraded).
  const start = () => (starting ??= (sharing ? sharing.connect() : Promise.resolve()).then(() => apollo.start()));
  return {
    schema,
    typeDefs,
    resolvers,
    createContext: contextFor,
    contextFromRequest: (request) => {
      const own = credentials.ofHttpRequest(request);
      return contextFor(own ?? credentials.fallback, requestIdOf(request), { caller: { credential: own, address: request.socket?.remoteAddress } });
    },
    start,
    attachWebSocket: webSockets.attach,
    // For a BFF that serves GraphQL through `apollo` on its own server: the other routes only.
    httpHandler: createHttpHandler(apollo, contextFor, { ...httpOptions, graphql: false }),
    apollo,
    httpServer,
    pollers,
    metrics,
    listen: async (address) => {
      await start();
      return listenOn(httpServer, address);
    },
    close: () => (closing ??= shutDown()),
  };
}

/** graphql-ws on any HTTP server and path (the gateway's own, and a BFF's), and a way to close them all. */
function webSocketAttacher(services: GatewayServices, onMutation: (() => void) | undefined) {
  const { options } = services;
  const attachments = new Set<WebSocketAttachment>();
  const attach = (server: Server, { path }: { path: string }): WebSocketAttachment => {
    const attached = attachWebSocketServer(server, services.schema, services.contextFor, {
      admission: services.admission,
      maxSubscriptionsPerConnection: options.maxSubscriptionsPerConnection,
      connectionInitWaitTimeoutMs: options.connectionInitWaitTimeoutMs,
      maxUnsentBytes: options.maxUnsentWebSocketBytes,
      maxMessagesPerSecond: options.maxWebSocketMessagesPerSecond,
      path,
      credentials: services.credentials,
      formatError: services.formatErrorForCaller,
      telemetry: services.telemetry,
      introspection: options.introspection,
      onMutation,
      tracing: services.tracing,
    });
    const attachment = {
      async close() {
        attachments.delete(attachment);
        await attached.close();
      },
    };
    attachments.add(attachment);
    return attachment;
  };
  return { attach, closeAll: async () => void (await Promise.all([...attachments].map((attachment) => attachment.close()))) };
}

/** The HTTP handler's routes and settings: /readyz, /metrics, the explorer, CORS, uploads, batching. */
function httpHandlerOptions(services: GatewayServices): HttpHandlerOptions {
  const { options, metrics, readiness } = services;
  const routes = new Map<string, RouteHandler>([['/readyz', (_req, res, requestId) => readiness.serve(res, requestId)]]);
  if (metrics) routes.set('/metrics', (_req, res) => serveMetrics(metrics, res));
  const explorer = options.explorer === false ? undefined : createExplorerHandler();
  return {
    maxUploadBytes: options.maxUploadBytes,
    admission: services.admission,
    credentials: services.credentials,
    explorer,
    // A browser opening / gets a page that works: Sandbox when it is on (it needs Apollo's CDN),
    // else the offline explorer.
    rootRedirect: explorer && options.landingPage === false ? EXPLORER_PATH : GRAPHQL_PATH,
    telemetry: services.telemetry,
    routes,
    draining: () => readiness.isDraining,
    ...(options.cors ? { cors: createCorsPolicy(options.cors) } : {}),
    allowBatchedHttpRequests: options.allowBatchedHttpRequests,
  };
}

/** Listens on `port` and `host` (default loopback) and says where GraphQL is served. */
async function listenOn(httpServer: Server, { port, host = '127.0.0.1' }: { port: number; host?: string }) {
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
}

async function serveMetrics(metrics: GatewayMetrics, res: ServerResponse): Promise<void> {
  const { contentType, body } = await metrics.render();
  res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
  res.end(body);
}
