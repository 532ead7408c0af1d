// A throwaway Redis for the replica runs: Debian's redis-server (scripts/ensure-redis.sh installs it)
// on a free loopback port, with no persistence. The one implementation that `npm run bench --
// --replicas N` and the replica tests (test/replicas/support/redis-server.ts) both start.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** A free loopback port: bound by a throwaway server on port 0, then let go. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface RedisServer {
  url: string;
  port: number;
  /** The running server's process id (undefined while stopped). */
  readonly pid: number | undefined;
  /** Kills the server (its data goes: nothing is saved), as a crash or a restart would. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
}

/** The binary: REDIS_SERVER when set (scripts/ensure-redis.sh reads the same variable), else redis-server on PATH. */
const binary = () => process.env['REDIS_SERVER'] ?? 'redis-server';
/** A redis-server that does not say it is ready by then is killed, and the start fails. */
const START_LIMIT_MS = 10_000;

/**
 * Runs scripts/ensure-redis.sh, which installs redis-server when it is missing (as root, with
 * apt-get) and otherwise says how to; throws with what it said when there is still none.
 */
export function ensureRedisServer(): void {
  const script = fileURLToPath(new URL('../../scripts/ensure-redis.sh', import.meta.url));
  const result = spawnSync('bash', [script], { encoding: 'utf8', stdio: ['ignore', 'inherit', 'pipe'], timeout: 300_000 });
  if (result.status !== 0) {
    throw new Error(
      `no redis-server to run (bash scripts/ensure-redis.sh failed):\n${result.stderr || result.error?.message || `exit ${result.status}`}`,
    );
  }
}

/**
 * Starts redis-server on a free loopback port, without persistence: a restart loses every key, as
 * the worst restart would. The server is killed when this process exits, however it exits
 * (`process.exit`, an uncaught error), so that no run leaves one behind.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const killOnExit = () => child?.kill('SIGKILL');

  const start = async () => {
    const started = spawn(binary(), ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    process.on('exit', killOnExit);
    let output = '';
    started.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setInterval(() => {
          if (output.includes('Ready to accept connections')) {
            clearInterval(timer);
            clearTimeout(limit);
            resolve();
          }
        }, 20);
        const limit = setTimeout(() => {
          clearInterval(timer);
          reject(new Error(`redis-server did not get ready within ${START_LIMIT_MS} ms:\n${output}`));
        }, START_LIMIT_MS);
        started.once('error', (error) => {
          clearInterval(timer);
          clearTimeout(limit);
          reject(new Error(`cannot run ${binary()} (bash scripts/ensure-redis.sh installs it): ${error.message}`));
        });
        started.once('exit', (code) => {
          clearInterval(timer);
          clearTimeout(limit);
          reject(new Error(`redis-server exited with ${code}:\n${output}`));
        });
      });
    } catch (error) {
      await stop();
      throw error;
    }
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    process.off('exit', killOnExit);
    if (!running || running.exitCode !== null || running.signalCode !== null || running.pid === undefined) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get pid() {
      return child?.pid;
    },
    stop,
    start,
  };
}
