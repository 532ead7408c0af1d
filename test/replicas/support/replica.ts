import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { metricSample, postGraphQL } from '../../ops/support.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** One gateway replica: the command line (src/main.ts) in a child process, as it runs in production. */
export interface Replica {
  name: string;
  url: string;
  wsUrl: string;
  child: ChildProcess;
  /** stdout's JSON log lines so far. */
  logLines(): Array<Record<string, unknown> & { msg: string }>;
  /** The id its runner leases hold, from its 'redis connected' log line. */
  replicaId(): string | undefined;
  /** One sample of its /metrics (0 when absent). */
  metric(name: string, labels?: Record<string, string>): Promise<number>;
  readyz(): Promise<{ status: number; body: Record<string, unknown> }>;
  post(body: unknown, token?: string): ReturnType<typeof postGraphQL>;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
}

/**
 * Starts `count` replicas of the command line with the same settings (each on a free port) and
 * waits until each listens. Their stdout is kept (JSON lines); stderr carries the banner.
 */
export async function startReplicas(count: number, env: Record<string, string>): Promise<Replica[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => startReplica(`replica-${index + 1}`, env)));
}

async function startReplica(name: string, env: Record<string, string>): Promise<Replica> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', LANDING_PAGE: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const found = /ready at (http:\/\/\S+)/.exec(stderr)?.[1];
      if (found) {
        clearInterval(timer);
        resolve(found);
      }
    }, 25);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`${name} exited before it was ready:\n${stdout}${stderr}`));
    });
  });
  const logLines = () =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown> & { msg: string });
  return {
    name,
    url,
    wsUrl: url.replace(/^http/, 'ws'),
    child,
    logLines,
    replicaId: () => logLines().find((line) => line.msg.startsWith('redis connected'))?.['replica'] as string | undefined,
    async metric(metricName, labels = {}) {
      const exposition = await (await fetch(new URL('/metrics', url))).text();
      return metricSample(exposition, metricName, labels) ?? 0;
    },
    async readyz() {
      const response = await fetch(new URL('/readyz', url));
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    post: (body, token) => postGraphQL(url, body, token ? { 'private-token': token } : {}),
    exited,
  };
}
