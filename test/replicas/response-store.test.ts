import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyedDigest } from '../../src/shared-state/credential-digest.js';
import { RedisLink } from '../../src/shared-state/redis-link.js';
import { MemoryResponseStore, RedisResponseStore, sharedResponseStore, type ResponseStore } from '../../src/shared-state/response-store.js';
import { eventually, until } from '../support/wait.js';
import { startRedis, type TestRedis } from './support/redis-server.js';

const BOUNDS = { ttlMs: 60_000, maxEntries: 3, maxBytes: 1_000 };
const quiet = { error: () => {} };

/** What every store must do, whichever holds the entries. */
function behavesAsAResponseStore(name: string, create: () => ResponseStore) {
  describe(name, () => {
    it('keeps an answer under its key and forgets every one on clear', async () => {
      const store = create();
      const miss = await store.lookup('a');
      expect(miss.json).toBeUndefined();
      await store.store('a', '{"x":1}', miss.generation);
      expect((await store.lookup('a')).json).toBe('{"x":1}');
      await store.clear();
      expect((await store.lookup('a')).json).toBeUndefined();
    });

    it('never keeps an answer looked up before a clear: it may predate the mutation', async () => {
      const store = create();
      const before = await store.lookup('b');
      await store.clear(); // a mutation ran while the query was on its way
      await store.store('b', '{"stale":true}', before.generation);
      expect((await store.lookup('b')).json).toBeUndefined();
    });

    it('holds at most maxEntries, and no entry larger than maxBytes', async () => {
      const store = create();
      for (const key of ['k1', 'k2', 'k3', 'k4']) await store.store(key, `"${key}"`, (await store.lookup(key)).generation);
      expect((await store.lookup('k1')).json).toBeUndefined();
      expect((await store.lookup('k4')).json).toBe('"k4"');
      await store.store('huge', 'x'.repeat(600), (await store.lookup('huge')).generation);
      expect((await store.lookup('huge')).json).toBeUndefined();
    });
  });
}

describe('response stores', () => {
  let redis: TestRedis;
  const links: RedisLink[] = [];
  let prefixes = 0;
  /** A link of its own, under a prefix of its own, so that the tests share nothing. */
  const link = () => {
    const created = new RedisLink({ url: redis.url, keyPrefix: `store-test-${++prefixes}:`, logger: quiet });
    links.push(created);
    return created;
  };

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(links.map((created) => created.close()));
    await redis?.close();
  });

  behavesAsAResponseStore('in memory', () => new MemoryResponseStore(BOUNDS));

  describe('in Redis', () => {
    const stores: RedisResponseStore[] = [];
    beforeAll(async () => {
      for (let index = 0; index < 3; index++) {
        const created = link();
        await created.connect();
        stores.push(new RedisResponseStore(created, keyedDigest('a secret of the tests'), BOUNDS));
      }
    });
    let next = 0;
    behavesAsAResponseStore('(one replica)', () => stores[next++]!);

    it('empties for every replica sharing it, with one clear', async () => {
      const shared = link();
      await shared.connect();
      const [one, other] = [new RedisResponseStore(shared, keyedDigest('s'), BOUNDS), new RedisResponseStore(shared, keyedDigest('s'), BOUNDS)];
      await one.store('q', '"answer"', (await one.lookup('q')).generation);
      expect((await other.lookup('q')).json).toBe('"answer"');
      await other.clear();
      expect((await one.lookup('q')).json).toBeUndefined();
    });
  });

  it('falls back to memory while Redis is down, and empties Redis on return for a mutation made meanwhile', async () => {
    const shared = link();
    await shared.connect();
    const fallbacks: string[] = [];
    const store = sharedResponseStore(shared, new RedisResponseStore(shared, keyedDigest('s'), BOUNDS), new MemoryResponseStore(BOUNDS), () => fallbacks.push('x'));
    await store.store('q', '"from redis"', (await store.lookup('q')).generation);

    await redis.stop();
    await until(() => !shared.isUp);
    const offline = await store.lookup('q');
    expect(offline.json).toBeUndefined(); // memory starts empty: it may not know what Redis knew
    expect(fallbacks.length).toBeGreaterThan(0);
    await store.store('q', '"from memory"', offline.generation);
    expect((await store.lookup('q')).json).toBe('"from memory"');
    await store.clear(); // a mutation while Redis is down

    await redis.start();
    await until(() => shared.isUp, 10_000);
    // Redis restarted empty here; what matters is that the write made meanwhile starts a new generation.
    await eventually(async () => Number(await redis.client.get(shared.key('response-cache', 'generation'))) === 1, 5_000, 'a new generation');
    expect((await store.lookup('q')).json).toBeUndefined();
  });
});
