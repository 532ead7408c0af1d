// The messages between the bench process and a server process (a gateway, the naive BFF or the
// REST waterfall server, alone in a process of its own so that its CPU time and memory are
// measured apart). Types only.
import type { GatewayOptions } from '../../../src/index.js';
import type { MemorySnapshot, Usage } from '../measure.js';

export type ServerSpec =
  /** The gateway from `module` (dist/src/index.js, or src/index.ts under tsx) with these options. */
  | { kind: 'gateway'; module: string; options: GatewayOptions }
  /** The naive BFF; `ca` when the upstream speaks h2 over TLS (--upstream-h2). */
  | { kind: 'naive-bff'; upstreamUrl: string; connections: number; ca?: string }
  /** A scenario's REST baseline function served over HTTP (../rest-waterfall-server.ts). */
  | { kind: 'rest-waterfall'; upstreamUrl: string; connections: number; ca?: string; baseline: { module: string; name: string; args: unknown } };

export interface ServerStarted {
  /** The GraphQL endpoint (the REST waterfall server's only endpoint). */
  url: string;
  /** RSS and heap once the server listens, after a full GC, before any request. */
  rssAtStartBytes: number;
  heapAtStartBytes: number;
  /** From the process's start to listening. */
  readyMs: number;
}

export type ServerProcessApi = {
  start: [ServerSpec, ServerStarted];
  /** Starts measuring the process's CPU time and peak RSS... */
  usageStart: [null, null];
  /** ...and tells them. */
  usageStop: [null, Usage];
  /** Heap used and RSS now, after a full GC. */
  memory: [null, MemorySnapshot];
  /** --trace: starts listening to the gateway's HTTP and undici diagnostics channels (calls to this REST origin)... */
  traceStart: [{ upstreamOrigin: string }, null];
  /** ...and tells the timeline of what came meanwhile. */
  traceStop: [{ latencyMs: number }, string[]];
  shutdown: [null, null];
};
