// The public shapes of the library: what createGateway takes and what it gives back.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { ApolloServer } from '@apollo/server';
import type { Dispatcher } from 'undici';
import type { GatewayContext } from './context.js';
import type { Credential, CredentialReader } from '../datasources/credentials.js';
import type { NextHandler } from '../transport/http-handler.js';
import type { QueryLimits } from '../policy/limits.js';
import type { CallerIdentity, CallerLimitOptions } from '../policy/caller-limits.js';
import type { createExecutableSchema, resolvers, SchemaExtension } from '../schema/executable.js';
import type { RecordPollers } from '../subscriptions/record-pollers.js';
import type { GatewayLogger } from '../observability/logger.js';
import type { GatewayMetrics } from '../observability/metrics.js';
import type { ResponseCacheOptions } from '../shared-state/response-store.js';
import type { RedisSharingOptions } from '../shared-state/replicas.js';
import type { CorsOptions } from '../transport/cors.js';
import type { TracingOptions } from '../observability/tracing.js';

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
  /** An undici dispatcher of your own for the REST calls (asked through `request`, so any interceptor serves); default a bounded Pool per upstream. */
  dispatcher?: Dispatcher;
  upstreamTimeoutMs?: number;
  /**
   * The most bytes of one REST answer the gateway reads (default 32 MiB); a larger one is refused
   * unread past that point, `UPSTREAM_ERROR` on the fields it serves. Artifact downloads are streamed
   * through and not held to it.
   */
  upstreamMaxResponseBytes?: number;
  /**
   * Connections kept to the upstream (default 128). Over HTTP/2, which the default pool offers to an
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
  /** Milliseconds between two polls of a watched runner or issue (default 5000). */
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
   * Runs a document sent again as a compiled function (graphql-jit) instead of interpreting it
   * each time (default true); server/compiled-execution.ts says when a document is compiled.
   */
  compiledOperations?: boolean;
  /**
   * A ceiling on the REST calls one operation may have in flight at once. Default none: the
   * upstream connections are shared fairly among the operations that want them, and an operation
   * alone may use them all.
   */
  maxConcurrentRestCalls?: number;
  /** Milliseconds an operation may spend on REST in all, from its start (default 30 s). */
  requestDeadlineMs?: number;
  /** Limits on operations: query length, tokens, depth, aliases, directives, and the REST calls they may need (`maxRestCalls`, an estimate, default 5,000; `maxRestCallsMade`, counted as it runs, default 500). */
  limits?: Partial<QueryLimits>;
  /**
   * Limits on each caller (default none): operations per second and REST calls per minute, per
   * credential digest, and per address for callers without a credential of their own; past one, an
   * operation is refused RATE_LIMITED with `retryAfter` before any REST call. With `redis`, one
   * bucket per caller for all replicas.
   */
  callerLimits?: CallerLimitOptions;
  /**
   * GitLab's rate limits respected (default true): the `RateLimit-*` headers of every REST answer are
   * followed per credential digest (one `anonymous` entry for calls without a credential: GitLab
   * counts those per IP); an operation whose estimate the calls left would not cover before the
   * reset is refused RATE_LIMITED with `retryAfter` (HTTP 429, `Retry-After`), a call with none left
   * is not sent, and pollers of that credential wait longer. With `redis`, replicas share the figures.
   * GitLab sends no such header while its throttles are off, and then nothing is refused.
   */
  upstreamRateLimits?: boolean;
  /** Most subscriptions one WebSocket connection may hold at once (default 100). */
  maxSubscriptionsPerConnection?: number;
  /** How long a WebSocket may wait before its `connection_init` message; then it is closed with 4408 (default 10 s). */
  connectionInitWaitTimeoutMs?: number;
  /**
   * Bytes a WebSocket connection may hold waiting to be sent, past what the operating system
   * buffers, before it is closed (default 4 MiB): a client that reads too slowly, or not at all,
   * would otherwise keep every message pushed to it in the gateway's memory.
   */
  maxUnsentWebSocketBytes?: number;
  /**
   * Messages a WebSocket client may send per second on average, after a burst of one second of
   * messages plus twice `maxSubscriptionsPerConnection` (default 100): a faster one is closed with 1008 Policy Violation.
   */
  maxWebSocketMessagesPerSecond?: number;
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
  /**
   * Trusted documents (default false: any document may be sent): only the documents of the manifest
   * at `path` run, a JSON object of id (SHA-256 of the text, bare or `sha256:<hex>`) to text, as
   * GraphQL Code Generator's client preset writes it (`persistedDocuments: true`). Callers send the
   * id (`documentId`, or `extensions.persistedQuery.sha256Hash`); anything else is refused before
   * parsing (PERSISTED_QUERY_NOT_IN_LIST, PERSISTED_QUERY_ID_REQUIRED). The file is polled and read
   * again when it changes. A manifest that cannot be read or checked stops createGateway.
   */
  trustedDocuments?: TrustedDocumentsOptions | false;
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
  /**
   * OpenTelemetry traces (default off: no tracer, no hook, nothing sent): `{ otlp: { url } }` exports
   * with the gateway's own SDK over OTLP/HTTP (what the OTEL_* settings give), `{ tracerProvider }`
   * uses the embedder's own. A span per operation, child of the caller's `traceparent`, a child span
   * per REST call, whose `traceparent` goes to GitLab; never a token in a span.
   */
  tracing?: TracingOptions | false;
}

export interface TrustedDocumentsOptions {
  /** The manifest file (persisted-documents.json). */
  path: string;
  /**
   * Refuse free-form query text even when it is a document of the list (Apollo Router's
   * `safelist.require_id`); default false: such text runs as its id would.
   */
  requireId?: boolean;
  /** How often the file is checked for a change, in milliseconds (default 5000). */
  pollIntervalMs?: number;
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
  createContext(credential: Credential | null, requestId?: string, options?: { longLived?: boolean; caller?: CallerIdentity }): GatewayContext;
  apollo: ApolloServer<GatewayContext>;
  httpServer: Server;
  pollers: RecordPollers;
  /** The gateway's metrics and their registry (what GET /metrics serves); undefined when `metrics` is false. */
  metrics: GatewayMetrics | undefined;
  /**
   * The context of one HTTP request to a BFF that mounts `apollo` itself (with
   * `@as-integrations/express5`, `@as-integrations/fastify`, ...): the caller's credential as
   * `credentials` reads it, or the service token, and the request's `X-Request-Id` (or a new one).
   */
  contextFromRequest: (request: Pick<IncomingMessage, 'headers'> & Partial<Pick<IncomingMessage, 'socket'>>) => GatewayContext;
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
