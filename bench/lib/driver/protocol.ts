// The messages between the bench process (which starts the servers under test) and the driver
// process (which hosts the embedded v4 server and every client). Types only.
import type { RecordedRequest } from '../../../simulator/index.js';

export type { RecordedRequest };

/** One operation of a measured loop, run by the driver against the gateway or REST. */
export type Target =
  /** POST a GraphQL operation; op i uses `variables[i % variables.length]`. */
  | { kind: 'graphql'; url: string; token: string; query: string; variables?: Array<Record<string, unknown>> }
  /** GET `baseUrl + paths[i % paths.length]` with the token as PRIVATE-TOKEN (REST, or the pass-through). */
  | { kind: 'get'; baseUrl: string; token: string; paths: string[] }
  /**
   * An exported function of a scenario module, run in the driver: the REST client baselines
   * (`(tools: DriverTools, args) => Promise<unknown>`). `module` is the module's file URL.
   */
  | { kind: 'function'; module: string; name: string; args: unknown };

export interface LoopOptions {
  /** Workers, each running one operation after another (a closed loop). */
  concurrency: number;
  /** Stop after this many operations... */
  maxOps: number;
  /** ...or after this many milliseconds, whichever comes first. */
  maxMs: number;
  /** undici connections to the target's origin; default `concurrency`. */
  connections?: number;
  /** Waited before each request the client sends (a GraphQL operation, each REST call of a baseline): its network round trip. */
  clientRttMs?: number;
}

export interface LoopResult {
  ops: number;
  elapsedMs: number;
  /**
   * CPU time of the driver process (v4 server and clients) during the loop: near elapsedMs means
   * the driver, not the gateway, was the limit.
   */
  driverCpuMs: number;
  /** One latency per operation, in completion order. */
  latenciesMs: number[];
  /** Operations that failed: HTTP status other than 200, `errors` in the body, or a thrown error. */
  failures: number;
  firstFailure?: string;
  /** The first successful response body (parsed JSON), for the bench's own checks. */
  sample?: unknown;
}

export interface SimulatorInfo {
  /** `http://127.0.0.1:PORT/api/v4`, or `https://` when started with `tls`. */
  url: string;
  origin: string;
  /** With `tls`: the server's self-signed certificate (PEM), the CA every client must trust. */
  ca: string | undefined;
  /** Runners in the simulator after the fleet was grown. */
  runnerIds: number[];
}

/** How the v4 server's calls came since the last resetRequests, from its traffic log. */
export interface ProtocolTally {
  /** Calls by HTTP version as the server saw them (`1.1`, `2.0`). */
  calls: Record<string, number>;
  /** Distinct connections (TCP or TLS) they came over. */
  connections: number;
}

export interface SubscribersOpened {
  connections: number;
}

export interface ChangeRound {
  /** Runners whose paused state was flipped (paused ones resumed, the others paused). */
  runners: number;
  /** Per subscriber: ms from its runner's PUT response to its message. */
  delaysMs: number[];
  /** The longest of those among the subscribers of each gateway replica, in the order of `openSubscribers`'s URLs. */
  maxDelayMsByGateway: number[];
  /** Subscribers that got no matching message before the timeout. */
  missing: number;
  /** Round trip of each PUT /runners/:id. */
  putMs: number[];
}

export interface SubscriberStats {
  subscriptions: number;
  events: number;
  /** Events carrying `errors`, plus subscriptions ended by an error. */
  errors: number;
  firstError?: string;
}

/** The driver's remote procedures: name -> [argument, result]. */
export type DriverApi = {
  /**
   * `compiled`: run the simulator from dist/ (`npm run build`), as the gateway runs when compiled.
   * `tls`: serve h2 and HTTP/1.1 over TLS (--upstream-h2); the driver's own pools to it then speak h2.
   */
  startSimulator: [{ latencyMs: number; fleetSize: number; restConnections: number; compiled: boolean; tls: boolean }, SimulatorInfo];
  setLatency: [{ ms: number }, null];
  resetRequests: [null, null];
  requests: [null, RecordedRequest[]];
  protocols: [null, ProtocolTally];
  loop: [{ target: Target; options: LoopOptions }, LoopResult];
  /** Connections spread round-robin over `wsUrls` (one per gateway replica). */
  openSubscribers: [{ wsUrls: string[]; token: string; connections: number; timeoutMs: number }, SubscribersOpened];
  subscribe: [{ query: string; runnerIds: number[]; offset: number; count: number }, null];
  changeRunners: [{ runnerIds: number[]; token: string; timeoutMs: number }, ChangeRound];
  subscriberStats: [null, SubscriberStats];
  closeSubscribers: [null, null];
  shutdown: [null, null];
};
