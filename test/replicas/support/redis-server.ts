import { Redis } from 'ioredis';
import { startRedisServer, type RedisServer } from '../../../bench/lib/redis-server.js';

export interface TestRedis extends RedisServer {
  /** Every key and its value as text (strings, hashes, sets and sorted sets alike), read by SCAN. */
  dump(): Promise<Map<string, string>>;
  /** A client of the test's own; closed by `close`. */
  client: Redis;
  /** SIGSTOP: the server stops answering and its connections stay open, as a frozen Redis's do. */
  freeze(): void;
  /** SIGCONT, whether frozen or not: a test calls it in `finally` or `afterEach`, so that none is left frozen. */
  thaw(): void;
  /** How many times the server has run each command (`INFO commandstats`), by lower-case name. */
  commandCalls(): Promise<Map<string, number>>;
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
  const thaw = () => {
    if (server.pid !== undefined) process.kill(server.pid, 'SIGCONT');
  };
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
    freeze() {
      if (server.pid === undefined) throw new Error('redis-server is not running: nothing to freeze');
      process.kill(server.pid, 'SIGSTOP');
    },
    thaw,
    async commandCalls() {
      const stats = await client.info('commandstats');
      return new Map([...stats.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)].map(([, name, calls]) => [name!, Number(calls)]));
    },
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
      thaw();
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
