// Transport hardening (issue 15, items 6-8): what HTTP and WebSocket must agree on. A subscription
// sent over HTTP ran as a query (a TypeError, INTERNAL_SERVER_ERROR and an error in the log);
// INTROSPECTION=off held over HTTP only, and validation errors still suggested the schema's names;
// with the response cache on, variables nested 10,000 deep overflowed the stack of its key builder
// (HTTP 500), and a mutation over WebSocket left the cache as it was.
import { describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';
import type { GraphQLResponse } from '../support/gateway.js';
import { logCollector, postGraphQL } from '../ops/support.js';

const SUBSCRIPTION = 'subscription { ciRunnerStatusUpdated(runnerId: "gid://gitlab/Ci::Runner/16") { id status } }';
const RUNNER = 'query Runner($id: CiRunnerID!) { runner(id: $id) { id paused } }';
const PAUSE = 'mutation Pause($id: CiRunnerID!, $paused: Boolean!) { runnerUpdate(input: { id: $id, paused: $paused }) { runner { paused } } }';
const gid = (id: number) => `gid://gitlab/Ci::Runner/${id}`;
/** The REST call each WebSocket connection makes first: its `connection_init` credential is checked. */
const CONNECTION_CHECK = 'GET /user';

/** One operation over graphql-ws on a connection of its own: its result, or the errors it was refused with. */
async function overWebSocket(wsUrl: string, query: string, variables?: Record<string, unknown>): Promise<GraphQLResponse> {
  const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: { 'PRIVATE-TOKEN': DEMO_TOKENS.maintainer } });
  try {
    return await new Promise<GraphQLResponse>((resolve, reject) => {
      let result: GraphQLResponse = {};
      client.subscribe(
        { query, ...(variables ? { variables } : {}) },
        {
          next: (value) => (result = value as GraphQLResponse),
          // graphql-ws hands the errors of a refused operation (its `error` message) as an array.
          error: (error) => (Array.isArray(error) ? resolve({ errors: error as GraphQLResponse['errors'] }) : reject(error as Error)),
          complete: () => resolve(result),
        },
      );
    });
  } finally {
    await client.dispose();
  }
}

const post = (url: string, query: string, variables?: Record<string, unknown>) =>
  postGraphQL(url, { query, ...(variables ? { variables } : {}) }, { 'private-token': DEMO_TOKENS.maintainer });

describe('a subscription sent over HTTP', () => {
  const logs = logCollector('error');
  const harness = gatewayOverSimulator({ logger: logs.logger });

  it('is refused as the caller’s mistake (400 BAD_REQUEST, saying to use WebSocket), before any REST call, with nothing logged', async () => {
    logs.clear();
    const { status, body } = await post(harness.gateway.url, SUBSCRIPTION);

    expect(status).toBe(400);
    expect(body).toEqual({ errors: [{ message: expect.stringMatching(/over WebSocket \(the graphql-transport-ws protocol\), not over HTTP/) as unknown, extensions: { code: 'BAD_REQUEST' } }] });
    expect(restCalls(harness.simulator)).toEqual([]);
    expect(harness.gateway.gateway.pollers.activeSubscriptions).toBe(0);
    // The caller's mistake, not a gateway fault: no "Unexpected error" line.
    expect(logs.text()).toBe('');
  });
});

/** Mistyped names, each of which graphql-js answers with a "Did you mean" naming the schema. */
const MISTYPED = [
  { mistake: 'a field', query: '{ currentUsr { username } }', suggestion: 'currentUser' },
  { mistake: 'an argument', query: '{ issues(stat: opened) { nodes { id } } }', suggestion: 'state' },
  { mistake: 'an enum value', query: '{ issues(state: open) { nodes { id } } }', suggestion: 'opened' },
  { mistake: 'a type', query: 'query($s: IssuableStat) { issues(state: $s) { nodes { id } } }', suggestion: 'IssuableState' },
  { mistake: 'a subselection', query: '{ currentUser }', suggestion: 'currentUser { ... }' },
];

describe('introspection off', () => {
  const harness = gatewayOverSimulator({ introspection: false });

  it.each(['{ __schema { types { name } } }', '{ __type(name: "CiRunner") { fields { name } } }'])(
    'refuses %s over WebSocket as over HTTP (GRAPHQL_VALIDATION_FAILED), with no data',
    async (query) => {
      const http = await post(harness.gateway.url, query);
      const ws = await overWebSocket(harness.gateway.wsUrl, query);

      expect(http.status).toBe(400);
      for (const answer of [http.body, ws]) {
        expect(answer.data).toBeUndefined();
        expect(answer.errors?.length).toBeGreaterThan(0);
        for (const error of answer.errors ?? []) {
          expect(error.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED' });
          expect(error.message).toMatch(/introspection/i);
        }
      }
      expect(restCalls(harness.simulator)).toEqual([CONNECTION_CHECK]);
    },
  );

  it.each(MISTYPED)('answers $mistake mistyped without suggesting a name, over HTTP and WebSocket', async ({ query, suggestion }) => {
    const http = await post(harness.gateway.url, query);
    const ws = await overWebSocket(harness.gateway.wsUrl, query);

    expect(http.status).toBe(400);
    for (const answer of [http.body, ws]) {
      expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED' });
      expect(answer.errors?.map((error) => error.message).join('\n')).not.toMatch(/Did you mean/);
      expect(JSON.stringify(answer)).not.toContain(suggestion);
    }
  });

  it('answers a mistyped enum value in variables without suggesting one, over HTTP and WebSocket', async () => {
    const query = 'query($s: IssuableState) { issues(state: $s) { nodes { id } } }';
    const http = await post(harness.gateway.url, query, { s: 'OPEN' });
    const ws = await overWebSocket(harness.gateway.wsUrl, query, { s: 'OPEN' });

    expect(http.status).toBe(400);
    for (const answer of [http.body, ws]) {
      expect(answer.errors?.[0]?.message).toMatch(/^Variable "\$s" got invalid value "OPEN"; Value "OPEN" does not exist in "IssuableState" enum\.$/);
    }
    expect(restCalls(harness.simulator)).toEqual([CONNECTION_CHECK]);
  });
});

describe('introspection on (the default)', () => {
  const harness = gatewayOverSimulator();

  it('still suggests names, and answers introspection over WebSocket', async () => {
    const http = await post(harness.gateway.url, MISTYPED[0]!.query);
    expect(http.body.errors?.[0]?.message).toMatch(/Did you mean "currentUser"\?$/);
    const ws = await overWebSocket(harness.gateway.wsUrl, '{ __type(name: "CiRunner") { name } }');
    expect(ws).toEqual({ data: { __type: { name: 'CiRunner' } } });
  });
});

describe('the response cache, on', () => {
  const harness = gatewayOverSimulator({ responseCache: { ttlMs: 60_000, maxEntries: 100 } });
  const withoutCache = gatewayOverSimulator();

  it('answers variables nested 10,000 deep with the clean 400 of a bad variable, as without the cache', async () => {
    const depth = 10_000;
    // A 20 KB body: JSON.stringify itself would overflow on such a value, so it is written out.
    const body = `{"query":"query Deep($v: [String!]) { issues(labelName: $v) { nodes { id } } }","variables":{"v":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    const send = async (url: string) => {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'private-token': DEMO_TOKENS.maintainer }, body });
      return { status: response.status, answer: (await response.json()) as GraphQLResponse };
    };

    const cached = await send(harness.gateway.url);
    expect(cached.status).toBe(400);
    expect(cached.answer.errors).toHaveLength(1);
    expect(cached.answer.errors?.[0]?.extensions).toEqual({ code: 'BAD_USER_INPUT' });
    expect(cached.answer.errors?.[0]?.message).toMatch(/^Variable "\$v" got invalid value/);
    expect(restCalls(harness.simulator)).toEqual([]);
    expect(await send(withoutCache.gateway.url)).toEqual(cached);
  });

  it('is emptied by a mutation sent over WebSocket, so the caller reads its write over HTTP', async () => {
    const before = await post(harness.gateway.url, RUNNER, { id: gid(19) });
    await post(harness.gateway.url, RUNNER, { id: gid(19) });
    expect(restCalls(harness.simulator)).toEqual(['GET /runners/19']); // the second was a hit
    const paused = !(before.body.data as { runner: { paused: boolean } }).runner.paused;
    harness.simulator.resetRequests();

    const mutation = await overWebSocket(harness.gateway.wsUrl, PAUSE, { id: gid(19), paused });
    expect(mutation).toEqual({ data: { runnerUpdate: { runner: { paused } } } });
    const after = await post(harness.gateway.url, RUNNER, { id: gid(19) });

    expect(after.body).toEqual({ data: { runner: { id: gid(19), paused } } });
    expect(restCalls(harness.simulator)).toEqual([CONNECTION_CHECK, 'PUT /runners/19', 'GET /runners/19']);
  });
});
