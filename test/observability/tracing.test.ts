import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { SpanKind } from '@opentelemetry/api';
import { ConfigError, createGateway, loadConfig, type Gateway } from '../../src/index.js';
import { gatewayOptions } from '../../src/server/config.js';
import { connect, SUBSCRIPTION } from '../support/runner-watch.js';
import { until } from '../support/wait.js';
import { postGraphQL } from '../ops/support.js';
import { attribute, recordHeadersReceivedOn, SPAN_KIND, startOtlpReceiver } from './otlp-receiver.js';

const TOKEN = DEMO_TOKENS.maintainer;
const FLEET = 'query Fleet { currentUser { username } ownedRunners(first: 3) { nodes { id tagList } } }';

/** A caller's W3C trace context: a fresh trace id and span id, sampled. */
function callerTrace() {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

/**
 * OpenTelemetry traces over real HTTP: the gateway configured as an operator configures it (the
 * OTEL_* settings, through loadConfig and gatewayOptions, as the command line does) over the
 * embedded v4 server, exporting with the SDK's OTLP/HTTP exporter to a receiver in the test that
 * decodes what it is sent. Spans are exported when the gateway closes (it flushes its SDK), so
 * nothing waits on the exporter's batch delay.
 */
describe('OpenTelemetry traces', () => {
  let simulator: Simulator;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let upstream: ReturnType<typeof recordHeadersReceivedOn>;
  const gateways: Gateway[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    simulator = await startSimulator();
    receiver = await startOtlpReceiver();
    upstream = recordHeadersReceivedOn(() => Number(new URL(simulator.origin).port));
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.dispose();
    for (const gateway of gateways.splice(0)) await gateway.close();
    receiver.received.splice(0);
    upstream.headers.splice(0);
    simulator.resetRequests();
  });
  afterAll(async () => {
    upstream?.stop();
    await receiver?.close();
    await simulator?.close();
  });

  /** A gateway from these settings, as `npm start` would build it, listening on a free port. */
  async function gatewayWith(env: Record<string, string>) {
    const gateway = createGateway({ ...gatewayOptions(loadConfig(env), simulator.url), landingPage: false });
    gateways.push(gateway);
    const listening = await gateway.listen({ port: 0 });
    simulator.resetRequests();
    upstream.headers.splice(0);
    return { gateway, ...listening };
  }

  it('exports one span per operation in the caller’s trace, a child span per REST call, and sends each call’s traceparent to GitLab (http/json)', async () => {
    const { gateway, url } = await gatewayWith({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'gateway-under-test',
    });
    const caller = callerTrace();
    const answer = await postGraphQL(url, { query: FLEET }, { 'private-token': TOKEN, traceparent: caller.traceparent });
    expect(answer.body.errors).toBeUndefined();
    const restCalls = simulator.requests.length;
    expect(restCalls).toBeGreaterThanOrEqual(3);
    await gateway.close();

    expect(receiver.received.every((request) => request.path === '/v1/traces' && request.contentType === 'application/json')).toBe(true);
    expect(receiver.serviceNames()).toContain('gateway-under-test');
    const spans = receiver.spans();
    expect(spans.every((span) => span.traceId === caller.traceId)).toBe(true);

    const [operation, ...others] = spans.filter((span) => span.kind === SPAN_KIND.SERVER);
    expect(others).toEqual([]);
    expect(operation).toMatchObject({ name: 'query Fleet', parentSpanId: caller.spanId });
    expect(attribute(operation!, 'graphql.operation.name')).toBe('Fleet');
    expect(attribute(operation!, 'graphql.operation.type')).toBe('query');
    expect(attribute(operation!, 'gateway.rest_calls')).toBe(restCalls);
    expect(attribute(operation!, 'gateway.cost.estimate')).toBeGreaterThanOrEqual(restCalls);
    expect(attribute(operation!, 'gateway.response_cache.hit')).toBe(false);

    const phases = spans.filter((span) => span.kind === SPAN_KIND.INTERNAL).map((span) => [span.name, span.parentSpanId]);
    expect(phases).toEqual(
      expect.arrayContaining([
        ['graphql.parse', operation!.spanId],
        ['graphql.validate', operation!.spanId],
      ]),
    );

    const calls = spans.filter((span) => span.kind === SPAN_KIND.CLIENT);
    expect(calls).toHaveLength(restCalls);
    const port = Number(new URL(simulator.origin).port);
    for (const call of calls) {
      expect(call.parentSpanId).toBe(operation!.spanId);
      expect(call.name).toBe(`${String(attribute(call, 'http.request.method'))} ${String(attribute(call, 'url.template'))}`);
      expect(attribute(call, 'url.template')).toMatch(/^\/[a-z_/:]+$/);
      expect(attribute(call, 'http.response.status_code')).toBe(200);
      expect(attribute(call, 'server.address')).toBe('127.0.0.1');
      expect(attribute(call, 'server.port')).toBe(port);
    }
    expect(new Set(calls.map((call) => attribute(call, 'url.template')))).toEqual(new Set(['/user', '/runners', '/runners/:id']));
    // The runners' page is one wave, their details the next.
    expect(new Set(calls.map((call) => attribute(call, 'gateway.rest.wave')))).toEqual(new Set([1, 2]));

    // What the embedded v4 server received: each call with its own span as parent, in the caller's trace.
    expect(upstream.headers).toHaveLength(restCalls);
    const sentParents = upstream.headers.map((headers) => /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(headers['traceparent'])));
    expect(sentParents.every((match) => match?.[1] === caller.traceId)).toBe(true);
    expect(new Set(sentParents.map((match) => match?.[2]))).toEqual(new Set(calls.map((call) => call.spanId)));

    // No token in anything exported.
    const exported = receiver.received.map((request) => request.body.toString('utf8')).join('\n');
    for (const token of Object.values(DEMO_TOKENS)) expect(exported).not.toContain(token);
    expect(exported).not.toContain('glpat-');
  });

  it('sends http/protobuf by default', async () => {
    const { gateway, url } = await gatewayWith({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/custom/traces` });
    const caller = callerTrace();
    const answer = await postGraphQL(url, { query: FLEET }, { 'private-token': TOKEN, traceparent: caller.traceparent });
    expect(answer.body.errors).toBeUndefined();
    await gateway.close();
    expect(receiver.received.length).toBeGreaterThan(0);
    expect(
      receiver.received.every((request) => request.path === '/custom/traces' && request.contentType === 'application/x-protobuf'),
    ).toBe(true);
    // The exporter package offers no decoder of requests: the caller's trace id is in the bytes, and no token is.
    const body = Buffer.concat(receiver.received.map((request) => request.body));
    expect(body.includes(Buffer.from(caller.traceId, 'hex'))).toBe(true);
    for (const token of Object.values(DEMO_TOKENS)) expect(body.includes(Buffer.from(token))).toBe(false);
  });

  it('is off unless configured: no export and no traceparent upstream, whatever the caller sends', async () => {
    const { gateway, url } = await gatewayWith({});
    const answer = await postGraphQL(url, { query: FLEET }, { 'private-token': TOKEN, traceparent: callerTrace().traceparent });
    expect(answer.body.errors).toBeUndefined();
    await gateway.close();
    expect(upstream.headers.length).toBe(simulator.requests.length);
    expect(upstream.headers.length).toBeGreaterThan(0);
    expect(upstream.headers.filter((headers) => 'traceparent' in headers || 'tracestate' in headers)).toEqual([]);
    expect(receiver.received).toEqual([]);
  });

  it('traces a subscription from the connection_init traceparent, and each event as a trace of its own linked to it', async () => {
    const { gateway, url, wsUrl } = await gatewayWith({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      RUNNER_POLL_INTERVAL_MS: '40',
    });
    const caller = callerTrace();
    const client = connect({ wsUrl }, { 'PRIVATE-TOKEN': DEMO_TOKENS.admin, traceparent: caller.traceparent });
    clients.push(client);
    const events: unknown[] = [];
    client.subscribe(
      { query: SUBSCRIPTION, variables: { id: 'gid://gitlab/Ci::Runner/12' } },
      { next: (event) => void events.push(event), error: () => undefined, complete: () => undefined },
    );
    await until(() => gateway.pollers.activeSubscriptions === 1);
    const paused = await postGraphQL(
      url,
      { query: 'mutation { runnerUpdate(input: { id: "gid://gitlab/Ci::Runner/12", paused: true }) { runner { paused } } }' },
      { 'private-token': DEMO_TOKENS.admin },
    );
    expect(paused.body.errors).toBeUndefined();
    await until(() => events.length >= 1);
    await client.dispose();
    clients.splice(0);
    await gateway.close();

    const spans = receiver.spans();
    const subscription = spans.find((span) => span.name.startsWith('subscription'));
    expect(subscription).toMatchObject({ traceId: caller.traceId, parentSpanId: caller.spanId, kind: SPAN_KIND.SERVER });
    expect(attribute(subscription!, 'graphql.operation.type')).toBe('subscription');
    expect(attribute(subscription!, 'graphql.transport')).toBe('websocket');
    const eventSpans = spans.filter((span) => span.name === 'graphql.subscription.event');
    expect(eventSpans.length).toBeGreaterThanOrEqual(1);
    for (const event of eventSpans) {
      expect(event.traceId).not.toBe(caller.traceId);
      expect(event.parentSpanId ?? '').toBe('');
      expect(event.links).toEqual([expect.objectContaining({ traceId: caller.traceId, spanId: subscription!.spanId })]);
    }
    const exported = receiver.received.map((request) => request.body.toString('utf8')).join('\n');
    expect(exported).not.toContain('glpat-');
  });

  it('takes the embedder’s own tracer provider, and counts a retried call’s resends', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const gateway = createGateway({ upstreamUrl: simulator.url, landingPage: false, tracing: { tracerProvider: provider } });
    gateways.push(gateway);
    const { url } = await gateway.listen({ port: 0 });
    simulator.faults.add({ method: 'GET', path: '/user', kind: 'status', status: 503, times: 1 });
    const caller = callerTrace();
    const answer = await postGraphQL(
      url,
      { query: 'query Me { currentUser { username } }' },
      { 'private-token': TOKEN, traceparent: caller.traceparent },
    );
    expect(answer.body.errors).toBeUndefined();
    const spans = exporter.getFinishedSpans();
    const operation = spans.find((span) => span.kind === SpanKind.SERVER);
    expect(operation?.name).toBe('query Me');
    expect(operation?.spanContext().traceId).toBe(caller.traceId);
    const [call, ...more] = spans.filter((span) => span.kind === SpanKind.CLIENT);
    expect(more).toEqual([]);
    expect(call?.attributes).toMatchObject({ 'url.template': '/user', 'http.response.status_code': 200, 'http.request.resend_count': 1 });
    await gateway.close();
    // The embedder's provider is the embedder's: the gateway does not shut it down.
    expect(() => provider.getTracer('still-open').startSpan('after').end()).not.toThrow();
    expect(exporter.getFinishedSpans().some((span) => span.name === 'after')).toBe(true);
    await provider.shutdown();
  });

  it('checks the OTEL_* settings at start, as every other setting', () => {
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(ConfigError);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT must be an http/);
    expect(() => loadConfig({ OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(/OTEL_TRACES_SAMPLER must be one of/);
    expect(() => loadConfig({ OTEL_TRACES_SAMPLER_ARG: '1.5' })).toThrow(/OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1/);
    expect(gatewayOptions(loadConfig({}), simulator.url).tracing).toBeUndefined();
    expect(gatewayOptions(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318', OTEL_SDK_DISABLED: 'true' }), simulator.url).tracing).toBeUndefined();
    expect(
      gatewayOptions(
        loadConfig({
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318/',
          OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
          OTEL_TRACES_SAMPLER_ARG: '0.25',
        }),
        simulator.url,
      ).tracing,
    ).toEqual({
      otlp: {
        url: 'http://otel:4318/v1/traces',
        protocol: 'http/protobuf',
        serviceName: 'gitlab-graphql-gateway',
        sampler: { name: 'parentbased_traceidratio', arg: 0.25 },
      },
    });
  });

  it('continues the upgrade request’s traceparent for a query over WebSocket', async () => {
    const { gateway, wsUrl } = await gatewayWith({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    const caller = callerTrace();
    // A server-side client (a BFF) can set headers on its upgrade request; a browser puts traceparent in connection_init.
    class TracedWebSocket extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers: { traceparent: caller.traceparent } });
      }
    }
    const client = createClient({
      url: wsUrl,
      webSocketImpl: TracedWebSocket,
      connectionParams: { 'PRIVATE-TOKEN': TOKEN },
      retryAttempts: 0,
    });
    clients.push(client);
    const result = await new Promise<unknown>((resolve, reject) => {
      let data: unknown;
      client.subscribe({ query: FLEET }, { next: (value) => (data = value), error: reject, complete: () => resolve(data) });
    });
    expect(result).toMatchObject({ data: { currentUser: {} } });
    expect((result as { errors?: unknown }).errors).toBeUndefined();
    const restCalls = simulator.requests.length;
    await client.dispose();
    clients.splice(0);
    await gateway.close();

    const spans = receiver.spans().filter((span) => span.traceId === caller.traceId);
    const operation = spans.find((span) => span.kind === SPAN_KIND.SERVER);
    expect(operation).toMatchObject({ name: 'query Fleet', parentSpanId: caller.spanId });
    expect(attribute(operation!, 'graphql.transport')).toBe('websocket');
    // The connection's credential check (GET /user at connection_init) belongs to no operation: untraced.
    expect(attribute(operation!, 'gateway.rest_calls')).toBe(restCalls - 1);
    expect(spans.filter((span) => span.kind === SPAN_KIND.CLIENT && span.parentSpanId === operation!.spanId)).toHaveLength(restCalls - 1);
  });
});
