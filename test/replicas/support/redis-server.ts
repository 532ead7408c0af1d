import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/** A free loopback port: bound by a throwaway server on port 0, then let go. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface TestRedis {
  url: string;
  port: number;
  /** Kills the server (its data goes: nothing is saved), as a crash or a restart would. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** Every key and its value as text (strings, hashes, sets and sorted sets alike), read by SCAN. */
  dump(): Promise<Map<string, string>>;
  /** A client of the test's own; closed by `close`. */
  client: Redis;
  close(): Promise<void>;
}

/**
 * Debian's redis-server (scripts/ensure-redis.sh installs it) on a free loopback port, with no
 * persistence: a restart loses every key, as the worst restart would.
 */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const binary = process.env['REDIS_SERVER'] ?? 'redis-server';
  let child: ChildProcess | undefined;

  const start = async () => {
    const started = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let output = '';
    started.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (output.includes('Ready to accept connections')) {
          clearInterval(timer);
          resolve();
        }
      }, 20);
      started.once('exit', (code) => {
        clearInterval(timer);
        reject(new Error(`redis-server exited with ${code}:\n${output}`));
      });
    });
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };

  await start();
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 1 });
  client.on('error', () => {}); // reconnects by itself after a restart
  await client.connect();

  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
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
      await stop();
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
