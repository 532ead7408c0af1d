import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { startTestGateway } from '../support/gateway.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';
import { until } from '../support/wait.js';
import { metricSample, postGraphQL } from './support.js';

const FLEET = 'query Fleet { ownedRunners(first: 5) { nodes { id tagList } } }';

async function scrape(graphqlUrl: string) {
  const response = await fetch(new URL('/metrics', graphqlUrl));
  return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
}

describe('GET /metrics', () => {
  const harness = gatewayOverSimulator({ runnerPollIntervalMs: 60_000, upstreamRetryAttempts: 1, circuitBreaker: false });
  const url = () => harness.gateway.url;

  it('serves the Prometheus text format', async () => {
    const { status, contentType, text } = await scrape(url());
    expect(status).toBe(200);
    expect(contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    for (const name of [
      'gateway_operation_duration_seconds',
      'gateway_rest_calls_total',
      'gateway_rest_call_duration_seconds',
      'gateway_upstream_errors_total',
      'gateway_loader_batch_size',
      'gateway_active_subscriptions',
      'gateway_active_pollers',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
  });

  it('counts REST calls by endpoint template and status, as many as the upstream saw; times the operation by name; sizes loader batches', async () => {
    const before = await scrape(url());
    const result = await postGraphQL(url(), { query: FLEET }, { 'private-token': DEMO_TOKENS.admin });
    expect(result.body.errors).toBeUndefined();
    const after = (await scrape(url())).text;

    const seen = restCalls(harness.simulator);
    const details = seen.filter((call) => /^GET \/runners\/\d+$/.test(call)).length;
    expect(details).toBe(5);
    const delta = (name: string, labels: Record<string, string>) =>
      (metricSample(after, name, labels) ?? 0) - (metricSample(before.text, name, labels) ?? 0);
    expect(delta('gateway_rest_calls_total', { endpoint: 'GET /runners', status: '200' })).toBe(seen.length - details);
    expect(delta('gateway_rest_calls_total', { endpoint: 'GET /runners/:id', status: '200' })).toBe(details);
    // Endpoint labels are templates: no runner id ever becomes a label value.
    expect(after).not.toMatch(/endpoint="[^"]*\/\d+/);

    expect(delta('gateway_operation_duration_seconds_count', { operation_name: 'Fleet', operation_type: 'query' })).toBe(1);
    // The five tagList fields ask the runner loader in one tick: one batch of five keys.
    expect(delta('gateway_loader_batch_size_count', { loader: 'runner' })).toBe(1);
    expect(delta('gateway_loader_batch_size_sum', { loader: 'runner' })).toBe(5);
  });

  it('counts upstream errors by kind', async () => {
    harness.simulator.faults.add({ method: 'GET', path: '/runners/3', kind: 'status', status: 503, times: 1 });
    harness.simulator.faults.add({ method: 'GET', path: '/runners/4', kind: 'malformed', times: 1 });
    const before = (await scrape(url())).text;
    const result = await postGraphQL(
      url(),
      { query: '{ a: runner(id: "gid://gitlab/Ci::Runner/3") { id } b: runner(id: "gid://gitlab/Ci::Runner/4") { id } }' },
      { 'private-token': DEMO_TOKENS.admin },
    );
    expect(result.body.errors).toHaveLength(2);
    const after = (await scrape(url())).text;
    const delta = (labels: Record<string, string>, name = 'gateway_upstream_errors_total') =>
      (metricSample(after, name, labels) ?? 0) - (metricSample(before, name, labels) ?? 0);
    expect(delta({ kind: 'server_error' })).toBe(1);
    expect(delta({ kind: 'malformed_body' })).toBe(1);
    expect(delta({ endpoint: 'GET /runners/:id', status: '503' }, 'gateway_rest_calls_total')).toBe(1);
  });

  it('shows active subscriptions and pollers while a client is subscribed, and none after', async () => {
    const client = createClient({
      url: harness.gateway.wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { 'PRIVATE-TOKEN': DEMO_TOKENS.admin },
      retryAttempts: 0,
    });
    const subscription = 'subscription { ciRunnerStatusUpdated(runnerId: "gid://gitlab/Ci::Runner/1") { id status } }';
    const stops = [1, 2].map(() => client.subscribe({ query: subscription }, { next: () => {}, error: () => {}, complete: () => {} }));
    try {
      await until(() => harness.gateway.gateway.pollers.activeSubscriptions === 2);
      const during = (await scrape(url())).text;
      expect(metricSample(during, 'gateway_active_subscriptions')).toBe(2);
      // Two subscribers of one runner with one credential share one poller.
      expect(metricSample(during, 'gateway_active_pollers')).toBe(1);
    } finally {
      stops.forEach((stop) => stop());
      await client.dispose();
    }
    await until(() => harness.gateway.gateway.pollers.activePollers === 0);
    const after = (await scrape(url())).text;
    expect(metricSample(after, 'gateway_active_subscriptions')).toBe(0);
    expect(metricSample(after, 'gateway_active_pollers')).toBe(0);
  });
});

describe('metrics of two gateways in one process', () => {
  const first = gatewayOverSimulator();
  const extra: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => Promise.all(extra.map((gateway) => gateway.close())));

  it('keep apart: each gateway has a registry of its own', async () => {
    const second = await startTestGateway(first.simulator.url);
    extra.push(second);
    await postGraphQL(first.gateway.url, { query: '{ currentUser { username } }' }, { 'private-token': DEMO_TOKENS.guest });

    const ofFirst = (await scrape(first.gateway.url)).text;
    const ofSecond = (await scrape(second.url)).text;
    expect(metricSample(ofFirst, 'gateway_rest_calls_total', { endpoint: 'GET /user', status: '200' })).toBe(1);
    expect(metricSample(ofSecond, 'gateway_rest_calls_total', { endpoint: 'GET /user', status: '200' })).toBeUndefined();
  });

  it('are not served when switched off', async () => {
    const off = await startTestGateway(first.simulator.url, { metrics: false });
    extra.push(off);
    expect((await scrape(off.url)).status).toBe(404);
    expect(off.gateway.metrics).toBeUndefined();
  });
});
