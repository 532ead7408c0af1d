// Measuring the gateway, which runs in this (the bench) process: CPU time with process.cpuUsage()
// and resident memory. The embedded v4 server and every client run in the driver process, so
// these figures are the gateway's (plus this process's idle bookkeeping), not the load's.
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

export interface Measured<T> {
  result: T;
  /** User + system CPU time of this process while `work` ran. */
  cpuMs: number;
  wallMs: number;
  /** Highest RSS seen while `work` ran (sampled every 50 ms). */
  peakRssBytes: number;
}

/** Runs `work` (which drives load from the driver) and measures what this process spent meanwhile. */
export async function measureGateway<T>(work: () => Promise<T>): Promise<Measured<T>> {
  let peakRssBytes = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    peakRssBytes = Math.max(peakRssBytes, process.memoryUsage.rss());
  }, 50);
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  try {
    const result = await work();
    const cpu = process.cpuUsage(cpuBefore);
    const wallMs = performance.now() - wallBefore;
    peakRssBytes = Math.max(peakRssBytes, process.memoryUsage.rss());
    return { result, cpuMs: (cpu.user + cpu.system) / 1000, wallMs, peakRssBytes };
  } finally {
    clearInterval(sampler);
  }
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
