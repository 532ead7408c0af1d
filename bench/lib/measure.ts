// Measuring the gateway, which runs in this (the bench) process: CPU time with process.cpuUsage()
// and resident memory. The embedded v4 server and every client run in the driver process, so
// these figures are the gateway's (plus this process's idle bookkeeping), not the load's.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

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
  // Garbage left by what ran before (warm-ups, the previous column) is collected now, not on this
  // loop's clock: the first column measured used to pay up to 2 ms per operation more than the next.
  gc();
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
