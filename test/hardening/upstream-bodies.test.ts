// Bodies that are not the JSON a REST endpoint answers (issue 15, item 3): a sign-in page or captive
// portal in front of GitLab answers 200 with HTML. Before the fix a list read it as an empty list with
// no error, and a record crashed a resolver (INTERNAL_SERVER_ERROR and a stack trace in the log).
// Every such body, and JSON of the wrong kind, is the upstream's fault: UPSTREAM_ERROR on its fields.
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS, type FaultSpec } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';
import { logCollector } from '../ops/support.js';

const admin = DEMO_TOKENS.admin;
const SIGN_IN_PAGE = '<!DOCTYPE html><html><head><title>Sign in</title></head><body><form action="/sso/login"></form></body></html>';

/** A 200 whose body is this text, sent as the content type given. */
const answer200 = (method: string, path: string, text: string, contentType = 'text/html; charset=utf-8'): FaultSpec => ({
  method,
  path,
  kind: 'status',
  status: 200,
  body: text,
  headers: { 'Content-Type': contentType },
});
const json = (value: unknown) => [JSON.stringify(value), 'application/json'] as const;

describe('a 200 whose body is not the JSON the endpoint sends', () => {
  const logs = logCollector('warn');
  const harness = gatewayOverSimulator({ circuitBreaker: false, upstreamRetryAttempts: 1, logger: logs.logger });

  const ALL_RUNNERS = '{ runners { count nodes { id } } }';
  const RUNNER = '{ runner(id: "gid://gitlab/Ci::Runner/1") { id description } }';
  it.each<[string, string, string, readonly [string, string?], string[]]>([
    ['a page of a list, as HTML', ALL_RUNNERS, '/runners/all', [SIGN_IN_PAGE], ['runners']],
    ['a page of a list, as HTML claiming to be JSON', ALL_RUNNERS, '/runners/all', [SIGN_IN_PAGE, 'application/json'], ['runners']],
    ['a page of a list, as a JSON object', ALL_RUNNERS, '/runners/all', json({ message: 'ok' }), ['runners']],
    ['a record, as HTML', RUNNER, '/runners/1', [SIGN_IN_PAGE], ['runner']],
    ['a record, as plain text', RUNNER, '/runners/1', ['Welcome to the guest network', 'text/plain'], ['runner']],
    ['a record, as a JSON array', RUNNER, '/runners/1', json([{ id: 1 }]), ['runner']],
    ['a record, as a JSON string', RUNNER, '/runners/1', json('runner'), ['runner']],
    ['a record, as JSON null', RUNNER, '/runners/1', json(null), ['runner']],
    [
      'an unpaginated list, as a JSON object',
      '{ project(fullPath: "gitlab-org/gitlab") { wikiPages { nodes { slug } } } }',
      '/projects/1/wikis',
      json({ pages: [] }),
      ['project', 'wikiPages'],
    ],
  ])('is UPSTREAM_ERROR on its fields for %s, and is not retried', async (_case, query, path, [text, contentType], errorPath) => {
    logs.clear();
    harness.simulator.faults.add(answer200('GET', path, text, contentType));
    const result = await harness.gateway.query(query, {}, admin);
    harness.simulator.faults.clear();
    expect(result.errors).toHaveLength(1);
    expect(result.errors?.[0]).toMatchObject({ path: errorPath, extensions: { code: 'UPSTREAM_ERROR', restStatus: 200 } });
    expect(result.errors?.[0]?.message).toMatch(/not valid JSON, or not the JSON this endpoint sends/);
    expect(restCalls(harness.simulator).filter((call) => call === `GET ${path}`)).toHaveLength(1);
    // An upstream fault, logged as one; never an unexpected error of the gateway with its stack.
    expect(logs.lines().map((line) => line.msg)).not.toContain(expect.stringMatching(/Unexpected error/));
    expect(logs.lines()).toContainEqual(expect.objectContaining({ msg: 'upstream error', kind: 'malformed_body' }));
  });

  it('is UPSTREAM_ERROR for a write answered with HTML, which the caller must not take for done', async () => {
    harness.simulator.faults.add(answer200('PUT', '/runners/6', SIGN_IN_PAGE));
    const result = await harness.gateway.query(
      'mutation { runnerUpdate(input: { id: "gid://gitlab/Ci::Runner/6", description: "x" }) { runner { id } } }',
      {},
      admin,
    );
    harness.simulator.faults.clear();
    expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_ERROR', restStatus: 200 });
    expect(restCalls(harness.simulator)).toEqual(['PUT /runners/6']);
  });

  it('keeps the answers that have no JSON body working: a 204, a plain-text 429, a streamed artifact file', async () => {
    // 204 No Content on a DELETE.
    const deleted = await harness.gateway.query<{ runnerDelete: { errors: string[] } }>(
      'mutation { runnerDelete(input: { id: "gid://gitlab/Ci::Runner/7" }) { errors } }',
      {},
      admin,
    );
    expect(deleted).toEqual({ data: { runnerDelete: { errors: [] } } });

    // Rack::Attack's plain-text "Retry later" is still a rate limit, not a malformed body.
    harness.simulator.faults.add({
      method: 'GET',
      path: '/runners/1',
      kind: 'status',
      status: 429,
      body: 'Retry later',
      headers: { 'retry-after': '60' },
      times: 1,
    });
    const limited = await harness.gateway.query('{ runner(id: "gid://gitlab/Ci::Runner/1") { id } }', {}, admin);
    expect(limited.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', restMessage: 'Retry later' });

    // An artifacts archive is bytes to stream, never JSON to parse.
    const download = await fetch(new URL('/artifacts/projects/1/jobs/artifacts/main/download?job=build-docs', harness.gateway.url), {
      headers: { 'private-token': admin },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).not.toMatch(/json/);
    expect((await download.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });
});
