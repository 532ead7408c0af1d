// What a scenario runs against: the gateway under test (compiled, or from src/ through tsx), its
// settings, and the ScenarioContext that starts server processes (gateways, the naive BFF, the REST
// waterfall server) and Redis for one scenario and stops them all after it. bench/run.ts builds one
// per scenario; so do the tests that run a scenario small (test/bench/).
import { existsSync } from 'node:fs';
import type { GatewayOptions } from '../../src/index.js';
import type { SimulatorInfo } from './driver/protocol.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import type { BenchOptions, ScenarioContext } from './scenario.js';
import { startServerProcess, type ServerProcess } from './server-process/handle.js';
import type { ServerSpec } from './server-process/protocol.js';
import { startTailcall, type TailcallCommand, type TailcallServer } from './tailcall.js';
import { STREAMS_PER_CONNECTION } from './upstream.js';

export interface GatewayUnderTest {
  /** The gateway module's URL, which server processes import. */
  url: string;
  /** dist/ (npm run build) rather than src/ through tsx. */
  compiled: boolean;
}

/**
 * The gateway as it runs in production: the compiled JavaScript of `npm run build`, whose errors
 * carry no source maps to resolve (under tsx every stack trace is mapped back to TypeScript, which
 * costs CPU on each failed field). From src/ when asked, or when nothing is built.
 */
export function locateGateway(fromSource: boolean): GatewayUnderTest {
  const built = new URL('../../dist/src/index.js', import.meta.url);
  if (!fromSource && existsSync(built)) return { url: built.href, compiled: true };
  return { url: new URL('../../src/index.ts', import.meta.url).href, compiled: false };
}

/**
 * The gateway's options for --gateway-settings. `defaults` leaves every limit as createGateway ships
 * it; the pool is --upstream-connections (default: the shipped default, 256), the size the REST
 * client and the naive BFF get. With --upstream-h2 the gateway trusts the v4 server's certificate
 * and negotiates h2 by itself (ALPN).
 */
export function gatewayOptions(simulator: SimulatorInfo, options: BenchOptions): GatewayOptions {
  const shipped: GatewayOptions = {
    upstreamUrl: simulator.url,
    landingPage: false,
    upstreamConnections: options.upstreamConnections,
    ...(options.upstreamH2 && simulator.ca !== undefined ? { upstreamCa: simulator.ca } : {}),
  };
  if (options.gatewaySettings === 'defaults') return shipped;
  return {
    ...shipped,
    // A ceiling on one operation's calls in flight of the whole pool, as earlier rounds of the
    // bench set it (the gateway ships with no ceiling: the fair scheduler shares the pool). Over
    // h2 the pool is connections x streams: capped at the connection count, one operation could
    // not multiplex.
    maxConcurrentRestCalls: options.upstreamConnections * (options.upstreamH2 ? STREAMS_PER_CONNECTION : 1),
    // The limits on REST calls, estimated and made, raised far above what any page query needs
    // (the fleet page estimates at 201 calls, and makes 501 with batching off), as a deployment
    // serving such pages would raise them.
    limits: { maxRestCalls: 10_000, maxRestCallsMade: 10_000 },
  };
}

export interface ScenarioRun {
  context: ScenarioContext;
  /** Stops what the scenario started: server processes, then Redis (which they use). */
  close: () => Promise<void>;
}

/** What the peer columns run, once prepared for the whole run: Tailcall's command when it could be had. */
export interface PeerCommands {
  tailcall?: TailcallCommand;
}

/** A context for one scenario; `close` it when the scenario ends, whatever happened. */
export function scenarioContext(
  base: Pick<ScenarioContext, 'options' | 'driver' | 'simulator' | 'progress'>,
  gatewayUnderTest: GatewayUnderTest,
  peers: PeerCommands = {},
): ScenarioRun {
  const { options, simulator } = base;
  const { tailcall } = peers;
  const processes: Array<ServerProcess | TailcallServer> = [];
  const redises: RedisServer[] = [];
  const settings = gatewayOptions(simulator, options);
  // How a server other than the gateway reaches the v4 server: the gateway's pool size, its CA.
  const upstream = {
    upstreamUrl: simulator.url,
    connections: options.upstreamConnections,
    ...(simulator.ca !== undefined ? { ca: simulator.ca } : {}),
  };
  const started = async (spec: ServerSpec) => {
    const server = await startServerProcess(spec, gatewayUnderTest.compiled);
    processes.push(server);
    return server;
  };
  const startedTailcall = async (command: TailcallCommand) => {
    const server = await startTailcall(command, simulator.url, options.upstreamConnections);
    processes.push(server);
    return server;
  };
  const context: ScenarioContext = {
    ...base,
    startServerProcess: (kind, overrides = {}) =>
      started(kind === 'gateway' ? { kind, module: gatewayUnderTest.url, options: { ...settings, ...overrides } } : { kind, ...upstream }),
    startRestWaterfall: (baseline) => started({ kind: 'rest-waterfall', ...upstream, baseline }),
    ...(tailcall ? { startTailcall: () => startedTailcall(tailcall) } : {}),
    async startRedis() {
      const redis = await startRedisServer();
      redises.push(redis);
      return redis;
    },
  };
  return {
    context,
    async close() {
      await Promise.all(processes.map((server) => server.close()));
      for (const redis of redises) await redis.stop();
    },
  };
}
