// An upstream that misbehaves in ways test/hardening/upstream-faults.test.ts and upstream-bodies.test.ts
// leave out (issue 15, an adversarial suite): error bodies nested or shaped to break the gateway,
// prototype keys, nonsense rate-limit and pagination headers, a body cut short of its length, a
// body that dribbles. Each costs the fields it serves with a code, and other callers nothing.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, type FaultSpec } from '../../simulator/index.js';
import { TOO_DEEP } from '../../src/errors/redact.js';
import { startTestGateway } from '../support/gateway.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { attackerCalls, codesOf, expectNothingLeaked, withBystander } from './hostile-support.js';

const admin = DEMO_TOKENS.admin;
const RUNNER = '{ runner(id: "gid://gitlab/Ci::Runner/1") { id description } }';
const json = { 'content-type': 'application/json' };

describe('an upstream whose answers are built to break the gateway', () => {
  /** What the gateway logs: its own faults at error (none of these is one), the upstream's at warn. */
  const logged: { error: string[]; warn: string[] } = { error: [], warn: [] };
  const harness = gatewayOverSimulator({
    circuitBreaker: false,
    upstreamRetryAttempts: 1,
    logger: { error: (message) => logged.error.push(message), warn: (_fields, message) => logged.warn.push(message) },
  });
  afterEach(() => {
    harness.simulator.faults.clear();
    logged.warn.length = 0;
    // Emptied first, so that a test that logs fails alone.
    expect(logged.error.splice(0)).toEqual([]);
  });
  const withFault = (fault: FaultSpec, query = RUNNER) => {
    harness.simulator.faults.add(fault);
    return withBystander(harness, () => harness.gateway.query(query, {}, admin));
  };

  // Fixed here: scrubbing the body for tokens recursed once per level and overflowed the stack,
  // so REST's 403 or 404 became INTERNAL_SERVER_ERROR with a stack trace in the log.
  it.each([
    ['objects', `{"message":${'{"a":'.repeat(50_000)}"x"${'}'.repeat(50_000)}}`],
    ['arrays', `{"message":{"base":${'['.repeat(50_000)}"x"${']'.repeat(50_000)}}}`],
  ])('maps an error body of 50,000 nested %s to its status code, cut short where it is too deep', async (_case, body) => {
    const result = await withFault({ method: 'GET', path: '/runners/1', kind: 'status', status: 403, body, headers: json });
    expect(result.data).toEqual({ runner: null });
    expect(codesOf(result)).toEqual(['FORBIDDEN']);
    expect(JSON.stringify(result)).toContain(TOO_DEEP);
    expect(JSON.stringify(result).length).toBeLessThan(5_000);
  });

  it('keeps the caller scrubbed of tokens inside a nested error body, at every depth it shows', async () => {
    const nested = (depth: number): unknown => (depth === 0 ? `leaked ${admin} glpat-someone-else` : { inner: nested(depth - 1) });
    const result = await withFault({
      method: 'GET',
      path: '/runners/1',
      kind: 'status',
      status: 400,
      body: JSON.stringify({ message: nested(10) }),
      headers: json,
    });
    expect(codesOf(result)).toEqual(['BAD_USER_INPUT']);
    expectNothingLeaked(harness, JSON.stringify(result), [admin]);
  });

  it('reads __proto__ and constructor keys of a REST body as plain data, Object.prototype untouched', async () => {
    const body = '{"id":1,"description":"shared-runner-1","__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}';
    const result = await withFault({ method: 'GET', path: '/runners/1', kind: 'status', status: 200, body, headers: json });
    expect(result).toEqual({ data: { runner: { id: 'gid://gitlab/Ci::Runner/1', description: 'shared-runner-1' } } });
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it.each([
    ['a negative number', '-5'],
    ['not a number', 'NaN'],
    ['a date in the past', 'Thu, 01 Jan 1970 00:00:00 GMT'],
    ['garbage', '"; drop table'],
  ])('reports a 429 whose Retry-After is %s as RATE_LIMITED, with no nonsense in its hint', async (_case, retryAfter) => {
    const result = await withFault({
      method: 'GET',
      path: '/runners/1',
      kind: 'status',
      status: 429,
      body: 'Retry later',
      headers: { 'retry-after': retryAfter },
    });
    expect(codesOf(result)).toEqual(['RATE_LIMITED']);
    const hint = result.errors?.[0]?.extensions?.['retryAfterSeconds'];
    if (hint !== undefined) expect(Number.isFinite(hint) && (hint as number) >= 0).toBe(true);
    expect(result.errors?.[0]?.message).not.toMatch(/NaN|-\d/);
    expect(attackerCalls(harness)).toEqual(['GET /runners/1']);
  });

  it('reports a Retry-After of 10^23 seconds as a whole number of seconds, at most a day', async () => {
    const result = await withFault({
      method: 'GET',
      path: '/runners/1',
      kind: 'status',
      status: 429,
      body: 'Retry later',
      headers: { 'retry-after': '99999999999999999999999' },
    });
    expect(codesOf(result)).toEqual(['RATE_LIMITED']);
    expect(result.errors?.[0]?.extensions?.['retryAfterSeconds']).toBe(86_400);
    // The name every RATE_LIMITED carries (the gateway's own refusals too), beside the earlier one.
    expect(result.errors?.[0]?.extensions?.['retryAfter']).toBe(86_400);
    expect(result.errors?.[0]?.message).not.toMatch(/e\+/);
  });

  // Before, the values below failed as INTERNAL_SERVER_ERROR (and the list's was logged as a
  // gateway fault), and a runner of id "one" got the ID gid://gitlab/Ci::Runner/one.
  it.each([
    ['an id that is not an integer', '{"id":"one","description":{"a":1}}', 'id', { runner: null }],
    ['no id at all', '{"description":"d"}', 'id', { runner: null }],
    ['an id with a fraction', '{"id":1.5,"description":"d"}', 'id', { runner: null }],
    ['a description that is an object', '{"id":1,"description":{"a":1}}', 'description', { runner: { id: 'gid://gitlab/Ci::Runner/1', description: null } }],
  ])('fails the field of a record with %s as UPSTREAM_ERROR, logged at warn', async (_case, body, field, data) => {
    const result = await withFault({ method: 'GET', path: '/runners/1', kind: 'status', status: 200, body, headers: json });
    expect(result.data).toEqual(data);
    // The field named fails; a sibling that fails too (the first case's description) may be told as
    // well: a compiled operation completes every field of the record before nulling it, where
    // graphql-js' interpreter stops at the first non-null field that fails.
    const paths = result.errors?.map((error) => error.path) ?? [];
    expect(paths).toContainEqual(['runner', field]);
    expect(paths.every((path) => path?.[0] === 'runner' && path.length === 2)).toBe(true);
    expect(new Set(codesOf(result))).toEqual(new Set(['UPSTREAM_ERROR']));
    for (const error of result.errors ?? []) expect(error.message).toMatch(/^The REST API sent a value of the wrong type for this field: /);
    expect(JSON.stringify(result)).not.toMatch(/Ci::Runner\/(one|undefined|1\.5)/);
    expect(logged.warn.filter((line) => line.includes('wrong type'))).toHaveLength(paths.length);
  });

  it('fails a list of items that are not records as UPSTREAM_ERROR, logged at warn, not as a gateway fault', async () => {
    const result = await withFault(
      { method: 'GET', path: '/runners/all', kind: 'status', status: 200, body: '[null,1,"x",[]]', headers: json },
      '{ runners { nodes { id } } }',
    );
    expect(result.data).toBeNull();
    expect(codesOf(result).length).toBeGreaterThan(0);
    expect(new Set(codesOf(result))).toEqual(new Set(['UPSTREAM_ERROR']));
    expect(logged.warn.some((line) => line.includes('wrong type'))).toBe(true);
  });

  it.each([
    ['a 500 whose message is 5,000,000 characters', 500, JSON.stringify({ message: 'x'.repeat(5_000_000) }), 'UPSTREAM_ERROR'],
    ['a 500 whose error and error_description are 1,000,000 characters', 500, JSON.stringify({ error: 'e'.repeat(1_000_000), error_description: 'd'.repeat(1_000_000) }), 'UPSTREAM_ERROR'],
    [
      'a 400 with 100,000 field errors',
      400,
      JSON.stringify({ message: Object.fromEntries(Array.from({ length: 100_000 }, (_, index) => [`field${index}`, ['is invalid']])) }),
      'BAD_USER_INPUT',
    ],
    ['a 400 with one field of 100,000 errors', 400, JSON.stringify({ message: { title: Array.from({ length: 100_000 }, () => 'is invalid') } }), 'BAD_USER_INPUT'],
  ])('cuts %s short in the error it becomes', async (_case, status, body, code) => {
    const result = await withFault({ method: 'GET', path: '/runners/1', kind: 'status', status, body, headers: json });
    expect(codesOf(result)).toEqual([code]);
    expect(JSON.stringify(result).length).toBeLessThan(8_000);
    expect(result.errors?.[0]?.message).toMatch(/…|; and \d+ more$/);
  });

  it('answers a list whose pagination headers are nonsense with what the page holds, and no error', async () => {
    const result = await withFault(
      {
        method: 'GET',
        path: '/runners/all',
        kind: 'status',
        status: 200,
        body: '[{"id":1,"description":"d"}]',
        headers: { ...json, 'x-total': '1e400', 'x-total-pages': '-1', 'x-next-page': 'abc', link: '<javascript:alert(1)>; rel="next"' },
      },
      '{ runners { nodes { id } pageInfo { hasNextPage } } }',
    );
    expect(result.errors).toBeUndefined();
    expect(result.data).toMatchObject({ runners: { nodes: [{ id: 'gid://gitlab/Ci::Runner/1' }] } });
    expect(JSON.stringify(result)).not.toContain('javascript:');
  });
});

describe('an upstream whose bodies do not arrive as announced', () => {
  let upstream: Server | undefined;
  afterEach(async () => {
    upstream?.closeAllConnections();
    await new Promise((resolve) => upstream?.close(resolve));
    upstream = undefined;
  });

  /** An upstream that answers /user normally and every other path with `answer`. */
  async function startUpstream(answer: (res: ServerResponse) => void): Promise<string> {
    upstream = createServer((req, res) => {
      if (req.url === '/api/v4/user') {
        res.writeHead(200, json);
        res.end(JSON.stringify({ id: 1, username: 'root', name: 'Administrator' }));
        return;
      }
      answer(res);
    });
    await new Promise<void>((resolve) => upstream!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/api/v4`;
  }

  it('costs the field a body cut short of its Content-Length, with UPSTREAM_UNAVAILABLE, and the rest stands', async () => {
    const url = await startUpstream((res) => {
      res.writeHead(200, { ...json, 'content-length': '5000' });
      res.write('{"id": 1, "description": "cut');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const gateway = await startTestGateway(url, { upstreamRetryAttempts: 1, circuitBreaker: false, upstreamTimeoutMs: 2_000 });
    try {
      const result = await gateway.query('{ currentUser { username } runner(id: "gid://gitlab/Ci::Runner/1") { id } }', {}, admin);
      expect(result.data).toEqual({ currentUser: { username: 'root' }, runner: null });
      expect(codesOf(result)).toEqual([expect.stringMatching(/^UPSTREAM_(UNAVAILABLE|ERROR)$/)]);
      expect(JSON.stringify(result)).not.toContain(url);
    } finally {
      await gateway.close();
    }
  });

  it('waits for a body that dribbles in, chunk by chunk within the timeout, and answers it whole', async () => {
    const body = JSON.stringify({ id: 1, description: 'slow but steady' });
    const url = await startUpstream((res) => {
      res.writeHead(200, json);
      let sent = 0;
      const timer = setInterval(() => {
        res.write(body.slice(sent, sent + 8));
        sent += 8;
        if (sent >= body.length) {
          clearInterval(timer);
          res.end();
        }
      }, 30);
    });
    const gateway = await startTestGateway(url, { upstreamRetryAttempts: 1, circuitBreaker: false, upstreamTimeoutMs: 500 });
    try {
      const result = await gateway.query(RUNNER, {}, admin);
      expect(result).toEqual({ data: { runner: { id: 'gid://gitlab/Ci::Runner/1', description: 'slow but steady' } } });
    } finally {
      await gateway.close();
    }
  });
});
