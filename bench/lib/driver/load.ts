// The bounded closed-loop load generator (no autocannon): N workers, each sending its next
// operation when the previous one answered, until a count or a time limit is reached.
import { setTimeout as delay } from 'node:timers/promises';
import type { Pool } from 'undici';
import type { BaselineFunction, DriverTools } from '../rest-baseline.js';
import { upstreamPool, type UpstreamTls } from '../upstream.js';
import type { LoopOptions, LoopResult, Target } from './protocol.js';

/** No single operation may hold a worker longer than this; the loop's time bound stays a bound. */
const OPERATION_TIMEOUT_MS = 30_000;

interface PreparedTarget {
  run(index: number): Promise<unknown>;
  close(): Promise<void>;
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}

/** A pool to the target; over h2 when the target is the v4 server over TLS (--upstream-h2). */
function pool(url: string, connections: number, tls: UpstreamTls | undefined): Pool {
  const options = {
    connections,
    headersTimeout: OPERATION_TIMEOUT_MS,
    bodyTimeout: OPERATION_TIMEOUT_MS,
    // Loopback only; keep connections open for the whole loop.
    keepAliveTimeout: 60_000,
  };
  return upstreamPool(url, options, tls);
}

async function prepare(target: Target, connections: number, tools: DriverTools, clientRttMs: number, tls: UpstreamTls | undefined): Promise<PreparedTarget> {
  switch (target.kind) {
    case 'graphql': {
      const dispatcher = pool(target.url, connections, tls);
      const path = new URL(target.url).pathname;
      // Bodies are serialized once, so the loop measures the gateway rather than JSON.stringify.
      const bodies = (target.variables ?? [{}]).map((variables) => JSON.stringify({ query: target.query, variables }));
      const headers = { 'content-type': 'application/json', 'private-token': target.token };
      return {
        async run(index) {
          if (clientRttMs > 0) await delay(clientRttMs);
          const { statusCode, body } = await dispatcher.request({ method: 'POST', path, headers, body: bodies[index % bodies.length]! });
          const json = (await body.json()) as { data?: unknown; errors?: unknown[] };
          // A response with `errors` fails the scenario, even when `data` is partly there.
          if (statusCode !== 200 || json.errors !== undefined || json.data == null) {
            throw new Error(`HTTP ${statusCode}: ${JSON.stringify(json.errors ?? json).slice(0, 400)}`);
          }
          return json;
        },
        close: () => dispatcher.close(),
      };
    }
    case 'get': {
      const dispatcher = pool(target.baseUrl, connections, tls);
      const basePath = new URL(target.baseUrl).pathname.replace(/\/+$/, '');
      const headers = { 'private-token': target.token, accept: 'application/json' };
      return {
        async run(index) {
          const path = `${basePath}${target.paths[index % target.paths.length]!}`;
          const { statusCode, body } = await dispatcher.request({ method: 'GET', path, headers });
          const json: unknown = await body.json();
          if (statusCode !== 200) throw new Error(`HTTP ${statusCode} for GET ${path}: ${JSON.stringify(json).slice(0, 300)}`);
          return json;
        },
        close: () => dispatcher.close(),
      };
    }
    case 'function': {
      const module = (await import(target.module)) as Record<string, unknown>;
      const fn = module[target.name];
      if (typeof fn !== 'function') throw new Error(`${target.module} exports no function ${target.name}`);
      const baseline = fn as BaselineFunction;
      const remote: DriverTools = { rest: (token) => tools.rest(token, clientRttMs) };
      return { run: () => baseline(remote, target.args), close: () => Promise.resolve() };
    }
  }
}

/** `tls`: the v4 server over TLS, which a `get` target straight to it reaches over h2. */
export async function runLoop(target: Target, options: LoopOptions, tools: DriverTools, tls?: UpstreamTls): Promise<LoopResult> {
  const prepared = await prepare(target, options.connections ?? options.concurrency, tools, options.clientRttMs ?? 0, tls);
  const latenciesMs: number[] = [];
  let started = 0;
  let failures = 0;
  let firstFailure: string | undefined;
  let sample: unknown;
  const begin = performance.now();
  const cpuBefore = process.cpuUsage();
  const deadline = begin + options.maxMs;

  async function worker(): Promise<void> {
    while (started < options.maxOps && performance.now() < deadline) {
      const index = started++;
      const opStart = performance.now();
      try {
        const body = await prepared.run(index);
        latenciesMs.push(performance.now() - opStart);
        sample ??= body;
      } catch (error) {
        failures++;
        firstFailure ??= describe(error);
      }
    }
  }

  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, () => worker()));
  } finally {
    await prepared.close();
  }
  const cpu = process.cpuUsage(cpuBefore);
  return {
    ops: latenciesMs.length + failures,
    elapsedMs: performance.now() - begin,
    driverCpuMs: (cpu.user + cpu.system) / 1000,
    latenciesMs,
    failures,
    ...(firstFailure !== undefined ? { firstFailure } : {}),
    ...(sample !== undefined ? { sample } : {}),
  };
}
