import {
  SpanKind,
  SpanStatusCode,
  defaultTextMapSetter,
  trace,
  type Context,
  type Span,
  type TextMapPropagator,
  type Tracer,
} from '@opentelemetry/api';
import { endpointOf } from './endpoint.js';

/**
 * The trace of one operation (an HTTP request's, a WebSocket operation's, a subscription's), held
 * in its context's stats while tracing is on (tracing.ts starts it); undefined when tracing is off,
 * and then no hook below runs. This module needs the OpenTelemetry API alone, so that the REST
 * client can use it without the SDK.
 */
export interface OperationTrace {
  readonly tracer: Tracer;
  /** How the trace context travels upstream (W3C `traceparent`, unless the embedder gave another). */
  readonly propagator: TextMapPropagator;
  /** The operation's span; a subscription's covers its start, its events are traces of their own. */
  readonly span: Span;
  /** What REST calls are children of: the operation's span, or the subscription event running now. */
  current: Context;
}

/** Where the REST calls go, as the HTTP client conventions name it: `server.address` and `server.port`. */
export interface UpstreamServer {
  address: string;
  port: number;
}

/**
 * The span of one REST call (HTTP client semantic conventions) and the headers that carry its
 * context upstream: `http.request.method`, `url.template` (the endpoint template, never the raw
 * path, which may hold project paths), `http.response.status_code`, `server.address`/`server.port`,
 * `http.request.resend_count` for retries, and the call's wave (call-log.ts). Never a header
 * value: the credential stays out of every attribute.
 */
export class RestCallSpan {
  private readonly span: Span;
  private resends = 0;
  /** `traceparent` (and `tracestate`) for the upstream request. */
  readonly headers: Record<string, string> = {};

  constructor(operation: OperationTrace, method: string, path: string, server: UpstreamServer, wave: number | undefined) {
    const template = endpointOf(path);
    this.span = operation.tracer.startSpan(
      `${method} ${template}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'http.request.method': method,
          'url.template': template,
          'server.address': server.address,
          'server.port': server.port,
          ...(wave === undefined ? {} : { 'gateway.rest.wave': wave }),
        },
      },
      operation.current,
    );
    operation.propagator.inject(trace.setSpan(operation.current, this.span), this.headers, defaultTextMapSetter);
  }

  /** The call is sent again (a read that met a passing fault). */
  retried(): void {
    this.resends += 1;
  }

  /** The call's outcome: its final status (0: no answer), and the kind of failure when it failed. */
  end(status: number, failure: string | undefined): void {
    if (status > 0) this.span.setAttribute('http.response.status_code', status);
    if (this.resends > 0) this.span.setAttribute('http.request.resend_count', this.resends);
    if (status >= 400 || status === 0) {
      this.span.setAttribute('error.type', failure ?? (status === 0 ? 'no_answer' : String(status)));
      this.span.setStatus({ code: SpanStatusCode.ERROR });
    }
    this.span.end();
  }
}
