// A server process: hosts one server, a gateway, the naive BFF or the REST waterfall server, and
// measures itself for the bench process (./handle.ts) over IPC. Each kind is imported only when
// asked for, so that no server's memory at start counts another's modules.
import type * as gatewaySource from '../../../src/index.js';
import { answerParent } from '../child-process.js';
import { settledMemory, startUsage, type Usage } from '../measure.js';
import { startTrace } from '../trace.js';
import type { ServerProcessApi, ServerSpec } from './protocol.js';

let close: (() => Promise<void>) | undefined;
let stopUsage: (() => Usage) | undefined;
let stopTrace: ((latencyMs: number) => string[]) | undefined;

async function start(spec: ServerSpec): Promise<string> {
  if (spec.kind === 'naive-bff') {
    const { startNaiveBff } = await import('../naive-bff/server.js');
    const naive = await startNaiveBff(spec);
    close = () => naive.close();
    return naive.url;
  }
  if (spec.kind === 'rest-waterfall') {
    const { startRestWaterfall } = await import('../rest-waterfall-server.js');
    const waterfall = await startRestWaterfall(spec);
    close = () => waterfall.close();
    return waterfall.url;
  }
  const { createGateway, tuneServerProcess } = (await import(spec.module)) as typeof gatewaySource;
  // The gateway's process is set up as its command line sets up its own (src/main.ts).
  tuneServerProcess();
  const gateway = createGateway(spec.options);
  close = () => gateway.close();
  return (await gateway.listen({ port: 0, host: '127.0.0.1' })).url;
}

answerParent<ServerProcessApi>({
  async start(spec) {
    if (close) throw new Error('this process hosts a server already');
    const url = await start(spec);
    const memory = settledMemory();
    return { url, rssAtStartBytes: memory.rssBytes, heapAtStartBytes: memory.heapUsedBytes, readyMs: performance.now() };
  },
  usageStart() {
    stopUsage = startUsage();
    return null;
  },
  usageStop() {
    if (!stopUsage) throw new Error('usageStart first');
    const usage = stopUsage();
    stopUsage = undefined;
    return usage;
  },
  memory() {
    return settledMemory();
  },
  traceStart({ upstreamOrigin }) {
    stopTrace = startTrace(upstreamOrigin);
    return null;
  },
  traceStop({ latencyMs }) {
    if (!stopTrace) throw new Error('traceStart first');
    const lines = stopTrace(latencyMs);
    stopTrace = undefined;
    return lines;
  },
  async shutdown() {
    await close?.();
    return null;
  },
});
