// What a scenario is and what it reports. A scenario is one file in bench/scenarios/, listed in
// bench/scenarios/index.ts; it gets this context and returns rows for the one table.
import type { GatewayOptions } from '../../src/index.js';
import { DEFAULT_CONNECTIONS } from '../../src/datasources/rest-client.js';
import type { Driver } from './driver/handle.js';
import type { SimulatorInfo } from './driver/protocol.js';
import type { RedisServer } from './redis-server.js';
import type { ServerProcess } from './server-process/handle.js';
import type { TailcallServer } from './tailcall.js';

/** Peer columns run only when asked (--peers): each needs something the bench does not ship. */
export const PEERS = ['tailcall'] as const;
export type Peer = (typeof PEERS)[number];

/**
 * The gateway's settings in the bench (--gateway-settings): `defaults`, as it ships
 * (createGateway's defaults); `bench`, the limits on REST calls (estimated and made) raised to
 * 10,000 and one operation allowed the whole pool, as the bench ran it before, for comparison.
 */
export type GatewaySettings = 'defaults' | 'bench';

export interface BenchOptions {
  /** Latency the embedded v4 server adds to every REST call (--latency). */
  latencyMs: number;
  /** Smaller, shorter runs (--quick). */
  quick: boolean;
  /** Runners the fleet scenario lists (runners first: N, at most 100). */
  fleetSize: number;
  /** Subscriptions and the runners they watch (--subscribers, --runners). */
  subscribers: number;
  subscribedRunners: number;
  /** WebSocket connections the subscriptions share (--connections). */
  wsConnections: number;
  /** Subscriptions sent before waiting for the gateway to acknowledge them (--subscribe-batch). */
  subscribeBatch: number;
  /** The gateway's runner poll interval in the subscriptions scenario (--interval). */
  pollIntervalMs: number;
  /**
   * Gateway replicas of the subscriptions scenario (--replicas N): N server processes sharing one
   * redis-server, as a deployment behind a load balancer. 0: one gateway process, no Redis.
   */
  replicas: number;
  /** Concurrent workers of the hot path (--concurrency). */
  concurrency: number;
  /** undici connections of the gateway's upstream pool, and of the REST baseline's (--upstream-connections). */
  upstreamConnections: number;
  /**
   * Every column reaches the v4 server over TLS, offering h2 (--upstream-h2): the gateway with the
   * server's certificate as `upstreamCa`, the others over undici pools with allowH2 and as many
   * streams per connection as the gateway (bench/lib/upstream.ts).
   */
  upstreamH2: boolean;
  /**
   * Round trip between the client and the servers it calls (--client-rtt): what a browser pays for
   * each request it sends, to the gateway or to REST alike. 0 on loopback.
   */
  clientRttMs: number;
  /** Print one traced operation of each page scenario: when each REST call was sent and answered (--trace). */
  trace: boolean;
  /** The gateway's settings (--gateway-settings). */
  gatewaySettings: GatewaySettings;
  /** Peer columns asked for (--peers), whether or not they could be had on this machine. */
  peers: Peer[];
}

export interface ScenarioContext {
  options: BenchOptions;
  driver: Driver;
  simulator: SimulatorInfo;
  /**
   * A server in a fresh process of its own, measured there: the naive BFF, or the gateway in front of
   * the embedded v4 server with the --gateway-settings (and the `overrides`); closed when the
   * scenario ends.
   */
  startServerProcess(kind: 'gateway' | 'naive-bff', overrides?: Partial<GatewayOptions>): Promise<ServerProcess>;
  /** A scenario's REST baseline function served over HTTP from a fresh process of its own (../rest-waterfall-server.ts). */
  startRestWaterfall(baseline: { module: string; name: string; args: unknown }): Promise<ServerProcess>;
  /**
   * Tailcall in front of the embedded v4 server (bench/lib/tailcall.ts), in a process of its own;
   * absent unless --peers tailcall was asked and its binary could be started here.
   */
  startTailcall?(): Promise<TailcallServer>;
  /** A redis-server of its own on a free loopback port (bench/lib/redis-server.ts); stopped after the scenario's servers. */
  startRedis(): Promise<RedisServer>;
  /** A progress line on stderr (the table goes to stdout). */
  progress(message: string): void;
}

export type Unit = 'calls' | 'ms' | 'ops/s' | 'KB' | 'MB' | 'x' | 'polls' | 'runners';

/** A figure of the table; `refused` when the gateway refused the operation (LIMIT_EXCEEDED) with its settings. */
export type Figure = number | null | 'refused';

/** One line of the table: the gateway's figure and what it is held against. */
export interface Row {
  metric: string;
  unit: Unit;
  gateway: Figure;
  /** The same operation with `batching: false`. */
  batchingOff?: Figure;
  /** The same operation through the naive BFF (Apollo Server + RESTDataSource, hand-written resolvers). */
  naiveBff?: number | null;
  /** The same page through Tailcall (--peers tailcall), in its own schema. */
  tailcall?: number | null;
  /** The scenario's baseline (a plain REST client, or a raw pass-through; the legend says which). */
  baseline?: number | null;
  /** The least the operation can cost: the REST resources it needs, or waves x latency. */
  floor?: number | null;
  /** The budget and whether it was met; rows without one are for information. */
  budget?: { text: string; pass: boolean };
}

export interface ScenarioReport {
  rows: Row[];
  /** What makes the scenario FAILED: errors in responses, wrong data, lost messages. */
  failures: string[];
  /** What the figures mean and how they were taken, printed under the table. */
  notes: string[];
  /** Raw figures for the JSON report. */
  details: Record<string, unknown>;
}

export interface Scenario {
  /** The --scenario name. */
  name: string;
  title: string;
  /** What the baseline column holds for this scenario. */
  baseline: string;
  run(context: ScenarioContext): Promise<ScenarioReport>;
}

/** The options when no flag says otherwise: a full run, or a --quick one. */
export function benchDefaults(quick: boolean): BenchOptions {
  return {
    latencyMs: 20,
    quick,
    fleetSize: 100,
    subscribers: quick ? 1_000 : 10_000,
    subscribedRunners: quick ? 20 : 100,
    wsConnections: 100,
    subscribeBatch: 500,
    pollIntervalMs: 1_000,
    replicas: 0,
    concurrency: 32,
    upstreamConnections: DEFAULT_CONNECTIONS,
    upstreamH2: false,
    clientRttMs: 0,
    trace: false,
    gatewaySettings: 'defaults',
    peers: [],
  };
}

export function emptyReport(): ScenarioReport {
  return { rows: [], failures: [], notes: [], details: {} };
}
