import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';
import { logCollector, postGraphQL } from './support.js';

const FLEET = `query Fleet { ownedRunners(first: 3) { nodes { id tagList } } }`;
const levels = { debug: 20, info: 30, warn: 40 };

describe('structured logs', () => {
  const logs = logCollector('debug');
  const harness = gatewayOverSimulator({ logger: logs.logger, upstreamRetryAttempts: 1, circuitBreaker: false });
  beforeEach(() => logs.clear());

  it('writes one JSON line per request: method, path, status, duration, operation, request id and its REST call count', async () => {
    const response = await postGraphQL(harness.gateway.url, { query: FLEET }, { 'private-token': DEMO_TOKENS.maintainer });
    expect(response.body.errors).toBeUndefined();

    const lines = logs.lines().filter((line) => line.msg === 'request');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: levels.info,
      service: 'gitlab-graphql-gateway',
      requestId: response.headers.get('x-request-id'),
      method: 'POST',
      path: '/graphql',
      status: 200,
      operationName: 'Fleet',
      operationType: 'query',
      // The list, then one detail per runner for tagList: counted by the upstream itself.
      restCalls: restCalls(harness.simulator).length,
    });
    expect(restCalls(harness.simulator)).toHaveLength(4);
    expect(lines[0]!.durationMs).toEqual(expect.any(Number));
    expect(typeof lines[0]!.time).toBe('number');
  });

  it('logs probes at debug level, so that info is one line per real request', async () => {
    await fetch(new URL('/healthz', harness.gateway.url));
    expect(logs.lines()).toEqual([expect.objectContaining({ level: levels.debug, path: '/healthz', status: 200 })]);
  });

  it('writes one warn line per upstream error, with the endpoint template rather than the raw path, and the request id', async () => {
    harness.simulator.faults.add({ method: 'GET', path: '/runners/16', kind: 'status', status: 502, times: 1 });
    const response = await postGraphQL(
      harness.gateway.url,
      { query: '{ runner(id: "gid://gitlab/Ci::Runner/16") { id } }' },
      { 'private-token': DEMO_TOKENS.maintainer },
    );
    expect(response.body.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });

    const warnings = logs.lines().filter((line) => line.level === levels.warn);
    expect(warnings).toEqual([
      expect.objectContaining({
        msg: 'upstream error',
        requestId: response.headers.get('x-request-id'),
        endpoint: 'GET /runners/:id',
        status: 502,
        kind: 'server_error',
      }),
    ]);
  });

  it('never writes a token: not the caller’s, not one an upstream error echoes back', async () => {
    const echoed = { message: `401 Unauthorized: token ${DEMO_TOKENS.maintainer} was revoked` };
    harness.simulator.faults.add({ method: 'GET', path: '/runners/17', kind: 'status', status: 500, body: echoed, times: 1 });
    await postGraphQL(
      harness.gateway.url,
      { query: '{ runner(id: "gid://gitlab/Ci::Runner/17") { id } }' },
      { authorization: `Bearer ${DEMO_TOKENS.maintainer}` },
    );
    await postGraphQL(harness.gateway.url, { query: FLEET }, { 'private-token': DEMO_TOKENS.admin, 'x-request-id': 'no-secrets-here' });
    // A logged object that carries credential headers (as an embedder's own line may) is redacted by key.
    logs.logger.info({ headers: { 'private-token': 'opaque-token-without-prefix', authorization: 'Bearer opaque' } }, 'embedder line');

    const text = logs.text();
    expect(logs.lines().filter((line) => line.msg === 'request')).toHaveLength(2);
    expect(text).not.toMatch(/glpat-/);
    expect(text).not.toContain('opaque');
    expect(text).toContain('[REDACTED]');
  });
});
