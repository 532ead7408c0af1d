// Measuring a server under load: CPU time with process.cpuUsage() and resident memory. The server
// processes (./server-process/: the gateway, the naive BFF, the REST waterfall server) measure
// themselves with this code and report over IPC; the hot path's raw pass-through runs in the bench
// process and is measured here. The embedded v4 server and every client run in the driver process,
// so these figures are the server's (plus its process's idle bookkeeping), not the load's.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { LoopResult } from './driver/protocol.js';

// `npm run bench` cannot pass --expose-gc to node; this V8 flag set at run time gives a fresh
// context the `gc` function, which memory figures need to compare like with like.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

export interface MemorySnapshot {
  rssBytes: number;
  heapUsedBytes: number;
}

/** Memory after a full collection, so that garbage does not count as use. */
export function settledMemory(): MemorySnapshot {
  gc();
  gc();
  const usage = process.memoryUsage();
  return { rssBytes: usage.rss, heapUsedBytes: usage.heapUsed };
}

/** What a process spent while a measured loop ran. */
export interface Usage {
  /** User + system CPU time. */
  cpuMs: number;
  /** Highest RSS seen (sampled every 50 ms). */
  peakRssBytes: number;
}

export interface Measured<T> extends Usage {
  result: T;
  wallMs: number;
}

/** Starts measuring this process; the returned function stops and tells what it spent meanwhile. */
export function startUsage(): () => Usage {
  let peakRssBytes = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    peakRssBytes = Math.max(peakRssBytes, process.memoryUsage.rss());
  }, 50);
  const cpuBefore = process.cpuUsage();
  return () => {
    clearInterval(sampler);
    const cpu = process.cpuUsage(cpuBefore);
    return { cpuMs: (cpu.user + cpu.system) / 1000, peakRssBytes: Math.max(peakRssBytes, process.memoryUsage.rss()) };
  };
}

/** Starts measuring a server's process: this one, or a server process over IPC. */
export type Meter = () => Promise<() => Promise<Usage>>;

export const thisProcess: Meter = () => {
  const stop = startUsage();
  return Promise.resolve(() => Promise.resolve(stop()));
};

/** Several processes measured as one (the replicas of a gateway): their CPU time summed, their peak RSS added up. */
export function allOf(meters: readonly Meter[]): Meter {
  return async () => {
    const stops = await Promise.all(meters.map((meter) => meter()));
    return async () => {
      const usages = await Promise.all(stops.map((stop) => stop()));
      return {
        cpuMs: usages.reduce((total, usage) => total + usage.cpuMs, 0),
        peakRssBytes: usages.reduce((total, usage) => total + usage.peakRssBytes, 0),
      };
    };
  };
}

/** Runs `work` (which drives load from the driver) and measures what the server's process spent meanwhile. */
export async function measureServer<T>(work: () => Promise<T>, meter: Meter = thisProcess): Promise<Measured<T>> {
  const stop = await meter();
  const wallBefore = performance.now();
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await stop();
    throw error;
  }
  const wallMs = performance.now() - wallBefore;
  return { result, wallMs, ...(await stop()) };
}

/**
 * One target's loops measured in parts, in alternation with the other targets' so that a drift of
 * the machine, or what the previous column left behind, weighs on every target alike: taken together.
 */
export function combineMeasured(parts: ReadonlyArray<Measured<LoopResult>>): Measured<LoopResult> {
  const sum = (value: (part: Measured<LoopResult>) => number) => parts.reduce((total, part) => total + value(part), 0);
  const firstFailure = parts.find((part) => part.result.firstFailure !== undefined)?.result.firstFailure;
  const sample = parts.find((part) => part.result.sample !== undefined)?.result.sample;
  return {
    result: {
      ops: sum((part) => part.result.ops),
      elapsedMs: sum((part) => part.result.elapsedMs),
      driverCpuMs: sum((part) => part.result.driverCpuMs),
      latenciesMs: parts.flatMap((part) => part.result.latenciesMs),
      failures: sum((part) => part.result.failures),
      ...(firstFailure !== undefined ? { firstFailure } : {}),
      ...(sample !== undefined ? { sample } : {}),
    },
    cpuMs: sum((part) => part.cpuMs),
    wallMs: sum((part) => part.wallMs),
    peakRssBytes: Math.max(0, ...parts.map((part) => part.peakRssBytes)),
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits until `condition` holds, checking every 20 ms; false when `timeoutMs` passes first. */
export async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}
