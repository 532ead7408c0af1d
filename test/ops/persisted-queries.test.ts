import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import type { GraphQLResponse } from '../support/gateway.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';
import { postGraphQL } from './support.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const persisted = (query: string) => ({ persistedQuery: { version: 1, sha256Hash: sha256(query) } });
const auth = { 'private-token': DEMO_TOKENS.maintainer };

/** A GET request as Apollo clients send persisted queries (a CDN can cache them). */
async function getPersisted(graphqlUrl: string, query: string, withText: boolean): Promise<GraphQLResponse> {
  const url = new URL(graphqlUrl);
  url.searchParams.set('extensions', JSON.stringify(persisted(query)));
  if (withText) url.searchParams.set('query', query);
  // Apollo's CSRF prevention asks GET operations for a header no simple request can carry.
  const response = await fetch(url, { headers: { ...auth, 'apollo-require-preflight': 'true' } });
  return (await response.json()) as GraphQLResponse;
}

describe('automatic persisted queries', () => {
  const harness = gatewayOverSimulator();
  const others: TestGateway[] = [];
  afterAll(async () => Promise.all(others.map((gateway) => gateway.close())));

  it('follows the APQ protocol over POST: unknown hash, then hash with query, then the hash alone', async () => {
    const query = '{ currentUser { username } }';
    const unknown = await postGraphQL(harness.gateway.url, { extensions: persisted(query) }, auth);
    expect(unknown.body.errors?.[0]).toMatchObject({
      message: 'PersistedQueryNotFound',
      extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' },
    });
    expect(restCalls(harness.simulator)).toEqual([]);

    const registered = await postGraphQL(harness.gateway.url, { query, extensions: persisted(query) }, auth);
    expect(registered.body).toEqual({ data: { currentUser: { username: 'maintainer' } } });

    const byHash = await postGraphQL(harness.gateway.url, { extensions: persisted(query) }, auth);
    expect(byHash.body).toEqual({ data: { currentUser: { username: 'maintainer' } } });
    expect(restCalls(harness.simulator)).toEqual(['GET /user', 'GET /user']);
  });

  it('works over GET too', async () => {
    const query = '{ currentUser { name: username } }';
    expect((await getPersisted(harness.gateway.url, query, false)).errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(await getPersisted(harness.gateway.url, query, true)).toEqual({ data: { currentUser: { name: 'maintainer' } } });
    expect(await getPersisted(harness.gateway.url, query, false)).toEqual({ data: { currentUser: { name: 'maintainer' } } });
  });

  it('refuses a hash that does not match its query', async () => {
    const result = await postGraphQL(
      harness.gateway.url,
      { query: '{ currentUser { id } }', extensions: persisted('{ currentUser { username } }') },
      auth,
    );
    expect(result.body.errors?.[0]?.message).toMatch(/does not match/);
    expect(restCalls(harness.simulator)).toEqual([]);
  });

  it('applies the operation limits to a query found by its hash, before any REST call', async () => {
    // Depth 16: within the limit with a credential (20), beyond it without one (15).
    const query = `{ group(fullPath: "gitlab-org/backend/services/billing") { ${'parent { '.repeat(14)}id${' }'.repeat(14)} } }`;
    const registered = await postGraphQL(harness.gateway.url, { query, extensions: persisted(query) }, auth);
    expect(registered.body.errors).toBeUndefined();
    harness.simulator.resetRequests();

    const anonymous = await postGraphQL(harness.gateway.url, { extensions: persisted(query) });
    expect(anonymous.body.errors?.[0]?.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'depth' });
    expect(restCalls(harness.simulator)).toEqual([]);
  });

  it('never stores a query the limits refuse', async () => {
    const aliases = Array.from({ length: 31 }, (_, index) => `a${index}: username`).join(' ');
    const query = `{ currentUser { ${aliases} } }`;
    const registered = await postGraphQL(harness.gateway.url, { query, extensions: persisted(query) }, auth);
    expect(registered.body.errors?.[0]?.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'aliases' });

    const byHash = await postGraphQL(harness.gateway.url, { extensions: persisted(query) }, auth);
    expect(byHash.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(restCalls(harness.simulator)).toEqual([]);
  });

  it('can be switched off', async () => {
    const gateway = await startTestGateway(harness.simulator.url, { persistedQueries: false });
    others.push(gateway);
    const query = '{ currentUser { username } }';
    const result = await postGraphQL(gateway.url, { query, extensions: persisted(query) }, auth);
    expect(result.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_SUPPORTED');
    expect(restCalls(harness.simulator)).toEqual([]);
  });
});
