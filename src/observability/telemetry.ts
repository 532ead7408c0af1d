import type { ServerResponse } from 'node:http';
import type { ApolloServerPlugin } from '@apollo/server';
import type { GatewayContext } from '../server/context.js';
import type { RestCallEvent, UpstreamRedirect } from '../datasources/rest-client.js';
import { endpointOf } from './endpoint.js';
import type { GatewayLogger, LogFields } from './logger.js';
import { upstreamErrorKind, type GatewayMetrics } from './metrics.js';

/** Paths probed by orchestrators and scrapers every few seconds: logged at debug, not info. */
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

const elapsedMs = (startedAt: number) => Math.round((performance.now() - startedAt) * 10) / 10;

/** What an operation's context tells its log line. */
function operationFields(context: GatewayContext | undefined): LogFields {
  if (!context) return {};
  const { stats } = context;
  return {
    operationName: stats.operationName ?? null,
    ...(stats.operationType ? { operationType: stats.operationType } : {}),
    restCalls: stats.restCalls,
    ...(stats.cached ? { cached: true } : {}),
  };
}

/**
 * What the operator needs to fix a redirecting upstream: where it pointed and, when the whole API
 * moved (a `V4_URL` of http:// in front of an https-only GitLab), the URL to configure instead.
 * Callers never see this: their errors are scrubbed of the upstream's URLs.
 */
function redirectFields(redirect: UpstreamRedirect): LogFields {
  const fix = redirect.movedBaseUrl
    ? `the upstream redirects the REST API to ${redirect.movedBaseUrl}: set V4_URL (upstreamUrl) to it; redirects are never followed`
    : 'redirects are never followed: if the REST API has moved, change V4_URL (upstreamUrl) to where it is now';
  return { location: redirect.location ?? null, ...(redirect.movedBaseUrl ? { movedBaseUrl: redirect.movedBaseUrl } : {}), fix };
}

/**
 * The gateway's logs and metrics in one place, fed by small hooks: the REST client's `onResponse`,
 * the loaders' `onBatch`, an Apollo plugin, the HTTP handler at the end of each request and the
 * WebSocket server at the end of each operation. One log line per HTTP request and per WebSocket
 * operation (with its request id and REST call count), one per upstream error; never a token
 * (the logger scrubs them, and no header or query string is logged).
 */
export class Telemetry {
  constructor(
    readonly logger: GatewayLogger,
    readonly metrics: GatewayMetrics | undefined,
  ) {}

  /** RestClient's onResponse: every exchange with the upstream. */
  readonly restCall = (event: RestCallEvent): void => {
    this.metrics?.restCall(event);
    const kind = upstreamErrorKind(event);
    if (!kind) return;
    this.logger.warn?.(
      {
        requestId: event.requestId,
        endpoint: `${event.method} ${endpointOf(event.path)}`,
        status: event.status,
        kind,
        durationMs: Math.round(event.durationMs * 10) / 10,
        ...(event.redirect ? redirectFields(event.redirect) : {}),
      },
      'upstream error',
    );
  };

  /** The loaders' onBatch; undefined when metrics are off, so the loaders skip the call. */
  get loaderBatch(): ((loader: string, size: number) => void) | undefined {
    const metrics = this.metrics;
    return metrics ? (loader, size) => metrics.loaderBatch(loader, size) : undefined;
  }

  /** Names the operation in its context (for the request's log line) and times queries and mutations. */
  apolloPlugin(): ApolloServerPlugin<GatewayContext> {
    const metrics = this.metrics;
    return {
      requestDidStart() {
        const startedAt = performance.now();
        return Promise.resolve({
          didResolveOperation({ operation, operationName, contextValue }) {
            contextValue.stats.operationName = operationName;
            if (operation) contextValue.stats.operationType = operation.operation;
            return Promise.resolve();
          },
          willSendResponse({ operation, operationName }) {
            if (operation) metrics?.operation(operationName, operation.operation, (performance.now() - startedAt) / 1000);
            return Promise.resolve();
          },
        });
      },
    };
  }

  /** The log line of one HTTP request, when its response is done (or its connection dropped). */
  httpRequestEnded(
    request: { method: string | undefined; path: string; requestId: string; startedAt: number },
    res: ServerResponse,
    context: GatewayContext | undefined,
  ): void {
    const probe = PROBE_PATHS.has(request.path);
    if (!this.logs(probe ? 'debug' : 'info')) return;
    const fields: LogFields = {
      requestId: request.requestId,
      method: request.method,
      path: request.path,
      status: res.statusCode,
      durationMs: elapsedMs(request.startedAt),
      ...operationFields(context),
      ...(res.writableFinished ? {} : { aborted: true }),
    };
    if (probe) this.logger.debug?.(fields, 'request');
    else this.logger.info?.(fields, 'request');
  }

  /** The log line of one WebSocket operation, when it completes; queries and mutations are timed too. */
  webSocketOperationEnded(context: GatewayContext, startedAt: number): void {
    const { stats } = context;
    if (stats.operationType && stats.operationType !== 'subscription') {
      this.metrics?.operation(stats.operationName, stats.operationType, (performance.now() - startedAt) / 1000);
    }
    if (!this.logs('info')) return;
    this.logger.info?.(
      { requestId: context.requestId, transport: 'websocket', durationMs: elapsedMs(startedAt), ...operationFields(context) },
      'operation',
    );
  }

  /**
   * Whether request lines are written at all: when not, the HTTP handler does not even listen for
   * a response's end (a listener per request shows on the hot path's CPU profile).
   */
  get logsRequests(): boolean {
    return this.logs('info') || this.logs('debug');
  }

  /** Whether a line of this level would be written: building it costs CPU on every request. */
  private logs(level: 'debug' | 'info'): boolean {
    return this.logger[level] !== undefined && (this.logger.isLevelEnabled?.(level) ?? true);
  }
}
