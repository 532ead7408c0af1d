import { Redis } from 'ioredis';
import { startRedisServer, type RedisServer } from '../../../bench/lib/redis-server.js';

export interface TestRedis extends RedisServer {
  /** Every key and its value as text (strings, hashes, sets and sorted sets alike), read by SCAN. */
  dump(): Promise<Map<string, string>>;
  /** A client of the test's own; closed by `close`. */
  client: Redis;
  close(): Promise<void>;
}

/**
 * Debian's redis-server (scripts/ensure-redis.sh installs it) on a free loopback port, with no
 * persistence (bench/lib/redis-server.ts, which `npm run bench -- --replicas N` starts too), and a
 * client of the test's own.
 */
export async function startRedis(): Promise<TestRedis> {
  const server = await startRedisServer();
  const { port } = server;
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 1 });
  client.on('error', () => {}); // reconnects by itself after a restart
  try {
    await client.connect();
  } catch (error) {
    await server.stop();
    throw error;
  }

  return {
    url: server.url,
    port,
    get pid() {
      return server.pid;
    },
    stop: () => server.stop(),
    start: () => server.start(),
    client,
    async dump() {
      const entries = new Map<string, string>();
      let cursor = '0';
      do {
        const [next, keys] = await client.scan(cursor, 'COUNT', 1000);
        cursor = next;
        for (const key of keys) entries.set(key, await valueAsText(client, key));
      } while (cursor !== '0');
      return entries;
    },
    async close() {
      client.disconnect();
      await server.stop();
    },
  };
}

async function valueAsText(client: Redis, key: string): Promise<string> {
  switch (await client.type(key)) {
    case 'string':
      return (await client.get(key)) ?? '';
    case 'hash':
      return JSON.stringify(await client.hgetall(key));
    case 'set':
      return JSON.stringify(await client.smembers(key));
    case 'zset':
      return JSON.stringify(await client.zrange(key, '0', '-1', 'WITHSCORES'));
    case 'list':
      return JSON.stringify(await client.lrange(key, 0, -1));
    default:
      return '';
  }
}
