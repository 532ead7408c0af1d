import { describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';
import { until } from '../support/wait.js';

/** `group { parent { parent { ... { id } } } }`: a valid query `depth` fields deep. */
function nestedQuery(depth: number): string {
  return `{ group(fullPath: "gitlab-org/frontend") { ${'parent { '.repeat(depth - 2)}id${' }'.repeat(depth - 2)} } }`;
}

/** A runner page with a detail field of each runner (one GET /runners/:id each) and the caller: at most 102 REST calls. */
const EXPENSIVE = '{ currentUser { username } ownedRunners(first: 100) { nodes { id tagList } } }';

describe('limits on the shape of operations', () => {
  // A ceiling on the estimate of 100 (the default is far higher) keeps the expensive query small.
  const harness = gatewayOverSimulator({ maxSubscriptionsPerConnection: 2, runnerPollIntervalMs: 60_000, limits: { maxRestCalls: 100 } });

  it('refuses query text over 10,000 characters before parsing it', async () => {
    const query = `{ __typename ${' '.repeat(10_000)}}`;
    const response = await fetch(harness.gateway.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ errors: [{ extensions: { code: 'LIMIT_EXCEEDED', limit: 'length' } }] });
  });

  it('allows 15 levels without a credential and 20 with one, refusing deeper before any REST call', async () => {
    const anonymous = await harness.gateway.query(nestedQuery(16));
    expect(anonymous.errors?.[0]).toMatchObject({ extensions: { code: 'LIMIT_EXCEEDED', limit: 'depth' } });
    expect(anonymous.errors?.[0]?.message).toContain('without a credential');
    expect(restCalls(harness.simulator)).toEqual([]);

    expect((await harness.gateway.query(nestedQuery(15))).errors).toBeUndefined();
    expect((await harness.gateway.query(nestedQuery(20), {}, DEMO_TOKENS.maintainer)).errors).toBeUndefined();
    harness.simulator.resetRequests();
    const deep = await harness.gateway.query(nestedQuery(21), {}, DEMO_TOKENS.maintainer);
    expect(deep.errors?.[0]?.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'depth' });
    expect(restCalls(harness.simulator)).toEqual([]);
  });

  it('holds a document that passed with a credential to the anonymous limit when it comes without one, every time', async () => {
    // The shape checks are remembered per document once passed (policy/limits.ts, PassedShapes):
    // what passed with a credential must not pass without one, and a refusal is never remembered.
    const query = nestedQuery(18);
    for (let round = 0; round < 2; round++) {
      expect((await harness.gateway.query(query, {}, DEMO_TOKENS.maintainer)).errors).toBeUndefined();
      harness.simulator.resetRequests();
      const anonymous = await harness.gateway.query(query);
      expect(anonymous.errors?.[0]).toMatchObject({ extensions: { code: 'LIMIT_EXCEEDED', limit: 'depth' } });
      expect(restCalls(harness.simulator)).toEqual([]);
    }
  });

  it('counts depth through fragments', async () => {
    const query = `fragment Up on Group { ${'parent { '.repeat(14)}id${' }'.repeat(14)} } { group(fullPath: "gitlab-org") { ...Up } }`;
    const result = await harness.gateway.query(query);
    expect(result.errors?.[0]?.extensions?.['limit']).toBe('depth');
  });

  it('refuses more than 30 aliases and more than 20 directives', async () => {
    const aliases = Array.from({ length: 31 }, (_, index) => `a${index}: __typename`).join(' ');
    expect((await harness.gateway.query(`{ ${aliases} }`)).errors?.[0]?.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'aliases' });
    const directives = Array.from({ length: 21 }, () => '__typename @include(if: true)').join(' ');
    expect((await harness.gateway.query(`{ ${directives} }`)).errors?.[0]?.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'directives' });
  });

  it('stops parsing a document of more than 5,000 tokens', async () => {
    // Three tokens in four characters: past the token limit well within the length limit.
    const query = `{ ${'a:a '.repeat(1_700)}}`;
    expect(query.length).toBeLessThan(10_000);
    const result = await harness.gateway.query(query);
    expect(result.errors?.[0]?.message).toMatch(/contains more th.t 5000 tokens/);
  });

  it('refuses an operation that may need more than 100 REST calls, saying its estimate, before any REST call', async () => {
    // 1 list + up to 100 runner details (tagList) + the current user: 102 at most.
    const response = await fetch(harness.gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'private-token': DEMO_TOKENS.maintainer },
      body: JSON.stringify({ query: EXPENSIVE }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: Array<{ message: string; extensions: Record<string, unknown> }> };
    expect(body.errors[0]?.extensions).toEqual({ code: 'LIMIT_EXCEEDED', limit: 'cost', estimate: 102, maxRestCalls: 100 });
    expect(body.errors[0]?.message).toMatch(/up to 102 REST calls; at most 100/);
    expect(restCalls(harness.simulator)).toEqual([]);
    // The same page without the detail field is one call.
    expect((await harness.gateway.query('{ ownedRunners(first: 100) { nodes { id status } } }', {}, DEMO_TOKENS.maintainer)).errors).toBeUndefined();
  });

  it('refuses batched HTTP requests, which are off unless enabled', async () => {
    const response = await fetch(harness.gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ query: '{ __typename }' }, { query: '{ __typename }' }]),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ errors: [{ message: expect.stringMatching(/Batched requests .* are off/) as unknown, extensions: { code: 'BAD_REQUEST' } }] });
  });

  it('applies the same limits over WebSocket, and caps the operations of one connection', async () => {
    const client = createClient({ url: harness.gateway.wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: { 'PRIVATE-TOKEN': DEMO_TOKENS.admin } });
    const firstError = (query: string) =>
      new Promise<unknown>((resolve) => {
        client.subscribe({ query }, { next: (result) => resolve(result.errors), error: resolve, complete: () => resolve(undefined) });
      });
    try {
      expect(JSON.stringify(await firstError(nestedQuery(21)))).toContain('LIMIT_EXCEEDED');
      harness.simulator.resetRequests();
      const costly = JSON.stringify(await firstError(EXPENSIVE));
      expect(costly).toContain('"limit":"cost"');
      expect(costly).toContain('"estimate":102');
      // The client reconnects lazily, so the only call is the new connection's credential check.
      expect(restCalls(harness.simulator).filter((call) => call !== 'GET /user')).toEqual([]);
      const watch = (id: number) => client.subscribe({ query: `subscription { ciRunnerStatusUpdated(runnerId: "gid://gitlab/Ci::Runner/${id}") { status } }` }, { next: () => {}, error: () => {}, complete: () => {} });
      const stops = [watch(1), watch(2)];
      // Exactly the cap: both are taken.
      await until(() => harness.gateway.gateway.pollers.activeSubscriptions === 2);
      const third = await firstError('subscription { ciRunnerStatusUpdated(runnerId: "gid://gitlab/Ci::Runner/3") { status } }');
      expect(JSON.stringify(third)).toContain('already holds 2 operations');
      stops.forEach((stop) => stop());
    } finally {
      await client.dispose();
    }
  });
});

describe('limits raised by settings', () => {
  const harness = gatewayOverSimulator({ limits: { maxRestCalls: 102 }, allowBatchedHttpRequests: true });

  it('admits an operation within a raised REST-call limit, and its calls stay within the estimate', async () => {
    const result = await harness.gateway.query<{ ownedRunners: { nodes: unknown[] } }>(EXPENSIVE, {}, DEMO_TOKENS.maintainer);
    expect(result.errors).toBeUndefined();
    const runners = result.data!.ownedRunners.nodes.length;
    expect(runners).toBeGreaterThan(0);
    expect(restCalls(harness.simulator)).toHaveLength(2 + runners);
  });

  it('answers batched HTTP requests when they are enabled, each operation held to the limits', async () => {
    const response = await fetch(harness.gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'private-token': DEMO_TOKENS.maintainer },
      body: JSON.stringify([{ query: '{ currentUser { username } }' }, { query: `{ a: currentUser { id } ${EXPENSIVE.slice(1)}` }]),
    });
    // Apollo answers a batch with the status of its worst operation: 400 for the refused one.
    const [first, second] = (await response.json()) as Array<{ data?: unknown; errors?: Array<{ extensions: Record<string, unknown> }> }>;
    expect(first).toEqual({ data: { currentUser: { username: 'maintainer' } } });
    expect(second?.errors?.[0]?.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'cost', estimate: 103 });
  });
});
