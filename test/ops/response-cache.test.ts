import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';
import { BoundedCache } from '../../src/caching/bounded-cache.js';
import { persistedQueryStore, responseCacheKey } from '../../src/caching/response-cache.js';
import { metricSample } from './support.js';

const ME = 'query Me { currentUser { username } }';
const RUNNER = 'query Runner($id: CiRunnerID!) { runner(id: $id) { id description paused } }';
const gid = (id: number) => `gid://gitlab/Ci::Runner/${id}`;

describe('BoundedCache', () => {
  afterEach(() => vi.useRealTimers());

  it('drops the least recently used entry beyond its count', () => {
    const cache = new BoundedCache<string>({ maxEntries: 2 });
    cache.set('a', '1');
    cache.set('b', '2');
    expect(cache.get('a')).toBe('1'); // a is now the most recently used
    cache.set('c', '3');
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual(['1', undefined, '3']);
  });

  it('keeps its total size under the bound, and refuses an entry larger than the bound', () => {
    const cache = new BoundedCache<string>({ maxEntries: 100, maxSize: 10, sizeOf: (value) => value.length });
    cache.set('a', '12345');
    cache.set('b', '12345');
    cache.set('c', '123');
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, '12345', '123']);
    cache.set('huge', '12345678901');
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it('forgets entries after their time to live', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = new BoundedCache<string>({ maxEntries: 10, ttlMs: 1_000 });
    cache.set('a', '1');
    vi.setSystemTime(Date.now() + 999);
    expect(cache.get('a')).toBe('1');
    vi.setSystemTime(Date.now() + 2);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('bounds the persisted query store by count', async () => {
    const store = persistedQueryStore(3);
    for (const hash of ['h1', 'h2', 'h3', 'h4']) await store.set(hash, `query ${hash}`);
    expect(await store.get('h1')).toBeUndefined();
    expect(await store.get('h4')).toBe('query h4');
  });
});

describe('responseCacheKey', () => {
  it('differs by credential, however alike the rest, and ignores the order of variables', () => {
    const a = responseCacheKey({ kind: 'private-token', value: 'glpat-a' }, ME, 'Me', { x: 1, y: 2 });
    expect(responseCacheKey({ kind: 'private-token', value: 'glpat-a' }, ME, 'Me', { y: 2, x: 1 })).toBe(a);
    expect(responseCacheKey({ kind: 'private-token', value: 'glpat-b' }, ME, 'Me', { x: 1, y: 2 })).not.toBe(a);
    expect(responseCacheKey({ kind: 'bearer', value: 'glpat-a' }, ME, 'Me', { x: 1, y: 2 })).not.toBe(a);
    expect(responseCacheKey(null, ME, 'Me', { x: 1, y: 2 })).not.toBe(a);
    expect(a).not.toContain('glpat');
  });
});

describe('the response cache, off by default', () => {
  const harness = gatewayOverSimulator();

  it('asks REST again for the same query', async () => {
    await harness.gateway.query(ME, {}, DEMO_TOKENS.maintainer);
    await harness.gateway.query(ME, {}, DEMO_TOKENS.maintainer);
    expect(restCalls(harness.simulator)).toEqual(['GET /user', 'GET /user']);
  });
});

describe('the response cache, when on', () => {
  const harness = gatewayOverSimulator({ responseCache: { ttlMs: 60_000, maxEntries: 100 } });

  it('answers a repeated query of the same credential with no REST call', async () => {
    const first = await harness.gateway.query(RUNNER, { id: gid(16) }, DEMO_TOKENS.maintainer);
    expect(restCalls(harness.simulator)).toHaveLength(1);
    harness.simulator.resetRequests();

    const second = await harness.gateway.query(RUNNER, { id: gid(16) }, DEMO_TOKENS.maintainer);
    expect(second).toEqual(first);
    expect(restCalls(harness.simulator)).toEqual([]);
    const metrics = await (await fetch(new URL('/metrics', harness.gateway.url))).text();
    expect(metricSample(metrics, 'gateway_response_cache_lookups_total', { result: 'hit' })).toBe(1);
  });

  it('never shares an entry between two tokens', async () => {
    const maintainer = await harness.gateway.query<{ currentUser: { username: string } }>(ME, {}, DEMO_TOKENS.maintainer);
    const developer = await harness.gateway.query<{ currentUser: { username: string } }>(ME, {}, DEMO_TOKENS.developer);
    const anonymous = await harness.gateway.query<{ currentUser: { username: string } | null }>(ME);
    expect([maintainer.data?.currentUser?.username, developer.data?.currentUser?.username, anonymous.data?.currentUser]).toEqual([
      'maintainer',
      'developer',
      null,
    ]);
    expect(restCalls(harness.simulator)).toEqual(['GET /user', 'GET /user']);

    // Each is now cached under its own credential, and answers its own data again.
    harness.simulator.resetRequests();
    expect((await harness.gateway.query(ME, {}, DEMO_TOKENS.developer)).data).toEqual({ currentUser: { username: 'developer' } });
    expect((await harness.gateway.query(ME, {}, DEMO_TOKENS.maintainer)).data).toEqual({ currentUser: { username: 'maintainer' } });
    expect(restCalls(harness.simulator)).toEqual([]);
  });

  it('misses for other variables', async () => {
    await harness.gateway.query(RUNNER, { id: gid(17) }, DEMO_TOKENS.maintainer);
    await harness.gateway.query(RUNNER, { id: gid(18) }, DEMO_TOKENS.maintainer);
    expect(restCalls(harness.simulator)).toEqual(['GET /runners/17', 'GET /runners/18']);
  });

  it('does not keep a response with errors', async () => {
    const refused = '{ runners(first: 1) { nodes { id } } }';
    const first = await harness.gateway.query(refused, {}, DEMO_TOKENS.guest);
    const second = await harness.gateway.query(refused, {}, DEMO_TOKENS.guest);
    expect(first.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(second.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(restCalls(harness.simulator)).toHaveLength(2);
  });

  it('never caches a mutation, and forgets every entry after one, so callers read their writes', async () => {
    const before = await harness.gateway.query<{ runner: { paused: boolean } }>(RUNNER, { id: gid(19) }, DEMO_TOKENS.maintainer);
    const pause = `mutation($id: CiRunnerID!, $paused: Boolean!) { runnerUpdate(input: { id: $id, paused: $paused }) { runner { paused } } }`;
    const flipped = !before.data!.runner.paused;
    harness.simulator.resetRequests();
    await harness.gateway.query(pause, { id: gid(19), paused: flipped }, DEMO_TOKENS.maintainer);
    await harness.gateway.query(pause, { id: gid(19), paused: flipped }, DEMO_TOKENS.maintainer);
    expect(restCalls(harness.simulator)).toEqual(['PUT /runners/19', 'PUT /runners/19']);

    const after = await harness.gateway.query<{ runner: { paused: boolean } }>(RUNNER, { id: gid(19) }, DEMO_TOKENS.maintainer);
    expect(after.data!.runner.paused).toBe(flipped);
    expect(restCalls(harness.simulator)).toEqual(['PUT /runners/19', 'PUT /runners/19', 'GET /runners/19']);
  });
});
