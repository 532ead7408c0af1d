import type { IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  defaultTextMapGetter,
  trace,
  type Attributes,
  type Context,
  type Span,
  type TextMapGetter,
  type TextMapPropagator,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import type { ApolloServerPlugin } from '@apollo/server';
import type * as OtelCore from '@opentelemetry/core';
import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as OtlpProto from '@opentelemetry/exporter-trace-otlp-proto';
import type * as OtelResources from '@opentelemetry/resources';
import type * as SdkTraceBase from '@opentelemetry/sdk-trace-base';
import { RestCallLog } from '../datasources/call-log.js';
import type { GatewayContext, RequestStats } from '../server/context.js';
import type { OperationTrace } from './trace-context.js';

/** The samplers of OTEL_TRACES_SAMPLER that the gateway's own SDK takes. */
export const TRACE_SAMPLERS = [
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
  'always_on',
  'always_off',
  'traceidratio',
] as const;
export type TraceSamplerName = (typeof TRACE_SAMPLERS)[number];

export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

export const DEFAULT_SERVICE_NAME = 'gitlab-graphql-gateway';

/**
 * Traces sent by the gateway's own OpenTelemetry SDK to an OTLP/HTTP receiver (a Collector, Jaeger,
 * Tempo...): what the OTEL_* settings give. The exporter reads what is not said here from the
 * standard variables itself (OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT, _COMPRESSION; OTEL_BSP_* for the
 * batches; OTEL_RESOURCE_ATTRIBUTES for the resource).
 */
export interface OtlpTracingOptions {
  /** The URL spans are POSTed to, as is: `http://collector:4318/v1/traces`. */
  url: string;
  /** Default `http/protobuf`, the OTLP default. */
  protocol?: OtlpProtocol;
  /** `service.name` (default `gitlab-graphql-gateway`). */
  serviceName?: string;
  /** Default `parentbased_always_on`; `arg` is the ratio of the `*traceidratio` samplers (default 1). */
  sampler?: { name: TraceSamplerName; arg?: number };
  /** Milliseconds between two exports of the spans batched meanwhile (default the SDK's: 5000, or OTEL_BSP_SCHEDULE_DELAY). */
  exportDelayMs?: number;
}

/**
 * GatewayOptions.tracing: off unless given. `otlp`: the gateway's own SDK, exporting over OTLP/HTTP
 * (flushed and stopped by `close()`). `tracerProvider`: the embedder's own, which the gateway
 * neither registers nor stops. `propagator`: how the trace context is read from callers and sent
 * to GitLab (default W3C `traceparent`/`tracestate`).
 */
export type TracingOptions =
  | { otlp: OtlpTracingOptions; tracerProvider?: undefined; propagator?: TextMapPropagator }
  | { tracerProvider: TracerProvider; otlp?: undefined; propagator?: TextMapPropagator };

/** What the gateway traces with, when tracing is on; services.ts makes one per gateway. */
export interface GatewayTracing {
  readonly tracer: Tracer;
  readonly propagator: TextMapPropagator;
  /** Exports what is still batched and stops the gateway's own SDK; nothing for an embedder's provider. */
  shutdown(): Promise<void>;
}

const TRACER_NAME = 'gitlab-graphql-gateway';

/**
 * The SDK's packages (CommonJS), loaded when tracing is on and not before: a gateway that does not
 * trace never loads them (the exporters bring protobuf and the metrics and logs SDKs: memory at
 * start, docs/performance.md). Only `@opentelemetry/api` is loaded with the gateway.
 */
const loadCommonJs = createRequire(import.meta.url);

/** undefined (no tracer, no hook anywhere) unless tracing is asked for. */
export function createTracing(options: TracingOptions | false | undefined): GatewayTracing | undefined {
  if (!options) return undefined;
  const propagator = options.propagator ?? new (loadCommonJs('@opentelemetry/core') as typeof OtelCore).W3CTraceContextPropagator();
  if (options.tracerProvider) {
    return { tracer: options.tracerProvider.getTracer(TRACER_NAME), propagator, shutdown: () => Promise.resolve() };
  }
  const { otlp } = options;
  const sdk = loadCommonJs('@opentelemetry/sdk-trace-base') as typeof SdkTraceBase;
  const resources = loadCommonJs('@opentelemetry/resources') as typeof OtelResources;
  const exporter =
    otlp.protocol === 'http/json'
      ? new (loadCommonJs('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpHttp).OTLPTraceExporter({ url: otlp.url })
      : new (loadCommonJs('@opentelemetry/exporter-trace-otlp-proto') as typeof OtlpProto).OTLPTraceExporter({ url: otlp.url });
  const provider = new sdk.BasicTracerProvider({
    resource: resources
      .defaultResource()
      .merge(resources.detectResources({ detectors: [resources.envDetector] }))
      .merge(resources.resourceFromAttributes({ 'service.name': otlp.serviceName ?? DEFAULT_SERVICE_NAME })),
    sampler: samplerOf(sdk, otlp.sampler),
    spanProcessors: [
      new sdk.BatchSpanProcessor(exporter, otlp.exportDelayMs === undefined ? {} : { scheduledDelayMillis: otlp.exportDelayMs }),
    ],
  });
  return { tracer: provider.getTracer(TRACER_NAME), propagator, shutdown: () => provider.shutdown() };
}

function samplerOf(sdk: typeof SdkTraceBase, setting: OtlpTracingOptions['sampler']): SdkTraceBase.Sampler {
  const { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler } = sdk;
  const ratio = () => new TraceIdRatioBasedSampler(setting?.arg ?? 1);
  switch (setting?.name ?? 'parentbased_always_on') {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio();
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio() });
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/** Apollo's HeaderMap (a Map of lower-case names) as the propagator reads a carrier. */
const headerMapGetter: TextMapGetter<Map<string, string>> = {
  get: (carrier, key) => carrier.get(key),
  keys: (carrier) => [...carrier.keys()],
};

/** Starts an operation's trace in its stats: its span, child of `parent`, and the call log that numbers its REST waves. */
function startOperation(tracing: GatewayTracing, stats: RequestStats, parent: Context, attributes: Attributes): OperationTrace {
  const span = tracing.tracer.startSpan('GraphQL Operation', { kind: SpanKind.SERVER, attributes }, parent);
  const operation: OperationTrace = { tracer: tracing.tracer, propagator: tracing.propagator, span, current: trace.setSpan(parent, span) };
  stats.trace = operation;
  stats.restCallLog ??= new RestCallLog();
  return operation;
}

/** Names the span as the GraphQL conventions do (`query Fleet`) once the operation is known. */
function nameOperation(span: Span, type: string, name: string | null | undefined): void {
  span.updateName(name ? `${type} ${name}` : type);
  span.setAttribute('graphql.operation.type', type);
  if (name) span.setAttribute('graphql.operation.name', name);
}

/** The gateway's own attributes, and the span's end: the estimate, the REST calls made, a cache hit. */
function endOperation(span: Span, stats: RequestStats, restCallsBefore = 0): void {
  if (stats.estimate !== undefined) span.setAttribute('gateway.cost.estimate', stats.estimate);
  span.setAttribute('gateway.rest_calls', stats.restCalls - restCallsBefore);
  span.setAttribute('gateway.response_cache.hit', stats.cached === true);
  span.end();
}

/** Marks a span failed with the first error's code (never its message, which may quote the caller's input). */
function failed(span: Span, errors: ReadonlyArray<{ extensions?: Record<string, unknown> | undefined }>): void {
  const code = errors[0]?.extensions?.['code'];
  span.setAttribute('error.type', typeof code === 'string' ? code : 'GRAPHQL_ERROR');
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/** A child span of the operation for a phase Apollo tells the start and end of (parse, validate). */
function phase(operation: OperationTrace, name: string): (errors?: unknown) => Promise<void> {
  const span = operation.tracer.startSpan(name, { kind: SpanKind.INTERNAL }, operation.current);
  return (errors) => {
    if (errors && (!Array.isArray(errors) || errors.length > 0)) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
    return Promise.resolve();
  };
}

/**
 * One span per operation over HTTP (GraphQL conventions: `graphql.operation.name`, `.type`; and
 * the gateway's estimate, REST calls and cache hit), child of the caller's `traceparent`; spans
 * for parsing and validation when Apollo does them (a document it has cached is not parsed again).
 * Never the document or the variables: they may hold tokens (a runner's, in `runnerVerify`).
 */
export function tracingPlugin(tracing: GatewayTracing): ApolloServerPlugin<GatewayContext> {
  return {
    requestDidStart({ request, contextValue }) {
      const headers = request.http?.headers;
      const parent = headers ? tracing.propagator.extract(ROOT_CONTEXT, headers, headerMapGetter) : ROOT_CONTEXT;
      const operation = startOperation(tracing, contextValue.stats, parent, { 'graphql.transport': 'http' });
      return Promise.resolve({
        parsingDidStart: () => Promise.resolve(phase(operation, 'graphql.parse')),
        validationDidStart: () => Promise.resolve(phase(operation, 'graphql.validate')),
        didResolveOperation({ operation: definition, operationName }) {
          if (definition) nameOperation(operation.span, definition.operation, operationName);
          return Promise.resolve();
        },
        didEncounterErrors({ errors }) {
          failed(operation.span, errors);
          return Promise.resolve();
        },
        willSendResponse({ contextValue: context }) {
          endOperation(operation.span, context.stats);
          return Promise.resolve();
        },
      });
    },
  };
}

/**
 * The trace context a WebSocket operation continues: `traceparent` in the `connection_init`
 * payload (browsers cannot set headers on an upgrade), else in the upgrade request's headers.
 */
function webSocketParent(
  tracing: GatewayTracing,
  connectionParams: Readonly<Record<string, unknown>> | undefined,
  headers: IncomingHttpHeaders,
): Context {
  const fromPayload = connectionParams?.['traceparent'];
  if (typeof fromPayload === 'string') {
    const carrier: Record<string, string> = { traceparent: fromPayload };
    const state = connectionParams?.['tracestate'];
    if (typeof state === 'string') carrier['tracestate'] = state;
    return tracing.propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
  }
  return tracing.propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
}

/**
 * A WebSocket operation's span, from its admission: a query's or mutation's lasts until it
 * completes (webSocketOperationEnded); a subscription's until its event stream is set up
 * (subscriptionStarted), each of its events then a trace of its own (traceEvent).
 */
export function startWebSocketOperation(
  tracing: GatewayTracing,
  stats: RequestStats,
  connection: { connectionParams: Readonly<Record<string, unknown>> | undefined; headers: IncomingHttpHeaders },
): void {
  const operation = startOperation(tracing, stats, webSocketParent(tracing, connection.connectionParams, connection.headers), {
    'graphql.transport': 'websocket',
  });
  if (stats.operationType) nameOperation(operation.span, stats.operationType, stats.operationName);
}

/** A WebSocket query or mutation completed (a subscription's span ended at its start). */
export function webSocketOperationEnded(stats: RequestStats): void {
  if (stats.trace && stats.operationType !== 'subscription') endOperation(stats.trace.span, stats);
}

/** A WebSocket query or mutation answered with errors (a subscription's events are failed on their own spans). */
export function webSocketOperationFailed(stats: RequestStats, errors: ReadonlyArray<{ extensions?: Record<string, unknown> | undefined }>): void {
  if (stats.trace && stats.operationType !== 'subscription') failed(stats.trace.span, errors);
}

/** A subscription's event stream is set up (or refused, with `errors`): its span ends here. */
export function subscriptionStarted(
  stats: RequestStats | undefined,
  errors: ReadonlyArray<{ extensions?: Record<string, unknown> | undefined }> | undefined,
): void {
  const operation = stats?.trace;
  if (!operation || !stats) return;
  if (errors?.length) failed(operation.span, errors);
  endOperation(operation.span, stats);
}

/**
 * One event of a subscription executed: a root span of a trace of its own (a subscription lives for
 * hours; one trace would never end), linked to the subscription's span; its REST calls are its
 * children. Nothing when the subscription is not traced.
 */
export function traceEvent<R>(stats: RequestStats | undefined, run: () => R | Promise<R>): R | Promise<R> {
  const operation = stats?.trace;
  if (!operation || !stats) return run();
  const subscription = operation.span;
  const span = operation.tracer.startSpan(
    'graphql.subscription.event',
    {
      root: true,
      kind: SpanKind.INTERNAL,
      links: [{ context: subscription.spanContext() }],
      attributes: { 'graphql.operation.type': 'subscription' },
    },
    ROOT_CONTEXT,
  );
  if (stats.operationName) span.setAttribute('graphql.operation.name', stats.operationName);
  const subscriptionContext = operation.current;
  const callsBefore = stats.restCalls;
  operation.current = trace.setSpan(ROOT_CONTEXT, span);
  // Waves are counted per event; a log kept for the subscription's life would grow with every event.
  stats.restCallLog = new RestCallLog();
  const end = (result: unknown) => {
    operation.current = subscriptionContext;
    const errors = (result as { errors?: ReadonlyArray<{ extensions?: Record<string, unknown> }> } | undefined)?.errors;
    if (errors?.length) failed(span, errors);
    span.setAttribute('gateway.rest_calls', stats.restCalls - callsBefore);
    span.end();
    return result as R;
  };
  try {
    const result = run();
    if (result instanceof Promise)
      return result.then(end, (error: unknown) => {
        span.setStatus({ code: SpanStatusCode.ERROR });
        end(undefined);
        throw error;
      });
    return end(result);
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR });
    end(undefined);
    throw error;
  }
}
