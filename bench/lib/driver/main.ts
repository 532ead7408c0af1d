// The driver process: the embedded v4 server and every client of the bench (GraphQL, REST
// baseline, WebSocket subscribers). It runs apart from the bench process so that the CPU time and
// memory measured there are the gateway's own, not the upstream's or the load generator's.
// Started by ./handle.ts with fork(); answers the requests of ./protocol.ts over IPC.
import type { Pool } from 'undici';
import { existsSync } from 'node:fs';
import type * as simulatorSource from '../../../simulator/index.js';
import type { Simulator } from '../../../simulator/index.js';
import { answerParent } from '../child-process.js';
import { RestBaseline, type DriverTools } from '../rest-baseline.js';
import { upstreamPool, type UpstreamTls } from '../upstream.js';
import { growFleet } from './fleet.js';
import { runLoop } from './load.js';
import type { DriverApi } from './protocol.js';
import { Subscribers } from './subscribers.js';

let simulator: Simulator | undefined;
let restPool: Pool | undefined;
/** Set with `tls`: every pool of this process to the v4 server speaks h2 to it. */
let upstreamTls: UpstreamTls | undefined;
const subscribers = new Subscribers();

function requireSimulator(): Simulator {
  if (!simulator) throw new Error('startSimulator first');
  return simulator;
}

const tools: DriverTools = {
  rest(token, rttMs) {
    const sim = requireSimulator();
    if (!restPool) throw new Error('startSimulator first');
    return new RestBaseline(sim.url, token, restPool, rttMs);
  },
};

/**
 * The simulator's module: compiled (dist/) when the gateway runs compiled, so that both sides of
 * the bench run the same kind of JavaScript. Under tsx every closure the simulator makes also pays
 * for esbuild's keepNames (a `__name` call), a third of a millisecond on a page of 100 issues.
 */
async function simulatorModule(compiled: boolean): Promise<typeof simulatorSource> {
  const built = new URL('../../../dist/simulator/index.js', import.meta.url);
  if (compiled && existsSync(built)) return (await import(built.href)) as typeof simulatorSource;
  return import('../../../simulator/index.js');
}

answerParent<DriverApi>({
  async startSimulator({ latencyMs, fleetSize, restConnections, compiled, tls }) {
    const { startSimulator } = await simulatorModule(compiled);
    simulator = await startSimulator({ latencyMs, tls });
    growFleet(simulator.state, fleetSize);
    upstreamTls = simulator.ca === undefined ? undefined : { origin: simulator.origin, ca: simulator.ca };
    // The REST baseline's pool: as many connections as the gateway's upstream pool, so that the
    // comparison is of the gateway's work, not of connection limits (over h2, as many streams each).
    restPool = upstreamPool(simulator.origin, { connections: restConnections, headersTimeout: 30_000, bodyTimeout: 30_000 }, upstreamTls);
    const runnerIds = [...simulator.state.runners.keys()].sort((a, b) => a - b);
    return { url: simulator.url, origin: simulator.origin, ca: simulator.ca, runnerIds };
  },
  setLatency({ ms }) {
    requireSimulator().setLatency(ms);
    return null;
  },
  resetRequests() {
    requireSimulator().resetRequests();
    return null;
  },
  requests() {
    return requireSimulator().requests;
  },
  protocols() {
    const calls: Record<string, number> = {};
    const connections = new Set<number>();
    for (const event of requireSimulator().traffic) {
      if (event.event !== 'arrived') continue;
      calls[event.httpVersion] = (calls[event.httpVersion] ?? 0) + 1;
      connections.add(event.connection);
    }
    return { calls, connections: connections.size };
  },
  loop({ target, options }) {
    return runLoop(target, options, tools, upstreamTls);
  },
  async openSubscribers({ wsUrls, token, connections, timeoutMs }) {
    return { connections: await subscribers.open(wsUrls, token, connections, timeoutMs) };
  },
  subscribe({ query, runnerIds, offset, count }) {
    subscribers.subscribe(query, runnerIds, offset, count);
    return null;
  },
  changeRunners({ runnerIds, token, timeoutMs }) {
    const sim = requireSimulator();
    if (!restPool) throw new Error('startSimulator first');
    return subscribers.change(sim.state, restPool, new URL(sim.url).pathname, runnerIds, token, timeoutMs);
  },
  subscriberStats() {
    return subscribers.stats();
  },
  async closeSubscribers() {
    await subscribers.close();
    return null;
  },
  async shutdown() {
    await subscribers.close();
    await restPool?.close();
    await simulator?.close();
    return null;
  },
});
