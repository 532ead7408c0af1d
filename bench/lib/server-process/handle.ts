// The bench process's side of a server process (./main.ts): a gateway, the naive BFF or the REST
// waterfall server alone in a process, measured apart from the bench process and from each other.
// Compiled, the process runs plain node on an esbuild bundle of ./main.ts and the naive BFF
// (packages stay external), as the gateway runs from dist/: neither pays for tsx at run time, and
// both are measured alike. The REST waterfall server always runs under tsx: it imports the
// scenario's baseline function from its TypeScript source, as the driver does for the REST client.
import { fileURLToPath } from 'node:url';
import { forkChild, type Child } from '../child-process.js';
import type { MemorySnapshot, Meter } from '../measure.js';
import type { ServerProcessApi, ServerSpec, ServerStarted } from './protocol.js';

export interface ServerProcess extends ServerStarted {
  pid: number | undefined;
  /** Measures this process's CPU time and peak RSS around a loop (measureServer's `meter`). */
  meter: Meter;
  /** Its heap used and RSS now, after a full GC there. */
  memory(): Promise<MemorySnapshot>;
  /** --trace: the timeline of `operation` as the gateway in this process saw it (bench/lib/trace.ts). */
  trace(upstreamOrigin: string, latencyMs: number, operation: () => Promise<unknown>): Promise<string[]>;
  close(): Promise<void>;
}

const OUT_DIR = new URL('../../../dist/bench/server-process/', import.meta.url);
let bundled: Promise<URL> | undefined;

/** Bundles ./main.ts once per bench run into dist/bench/server-process/. */
function bundle(): Promise<URL> {
  bundled ??= import('esbuild').then(async ({ build }) => {
    await build({
      entryPoints: [fileURLToPath(new URL('./main.ts', import.meta.url))],
      outdir: fileURLToPath(OUT_DIR),
      outExtension: { '.js': '.mjs' },
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      logLevel: 'error',
    });
    return new URL('main.mjs', OUT_DIR);
  });
  return bundled;
}

/**
 * What each server process runs with besides its entry: BENCH_CPU_PROF_DIR=dir writes a CPU profile
 * there when it stops (node --cpu-prof); BENCH_NODE_FLAGS adds Node flags of the operator's
 * (`--trace-gc`, `--max-semi-space-size=64`: how garbage collection was measured for issue 29).
 */
function serverProcessFlags(): string[] {
  const directory = process.env['BENCH_CPU_PROF_DIR'];
  const flags = process.env['BENCH_NODE_FLAGS']?.split(' ').filter(Boolean) ?? [];
  return [...flags, ...(directory ? ['--cpu-prof', `--cpu-prof-dir=${directory}`] : [])];
}

export async function startServerProcess(spec: ServerSpec, compiled: boolean): Promise<ServerProcess> {
  const name = { gateway: 'gateway process', 'naive-bff': 'naive BFF process', 'rest-waterfall': 'REST waterfall process' }[spec.kind];
  const child: Child<ServerProcessApi> = compiled && spec.kind !== 'rest-waterfall'
    ? await forkChild<ServerProcessApi>(await bundle(), serverProcessFlags(), name)
    : await forkChild<ServerProcessApi>(new URL('./main.ts', import.meta.url), ['--import', import.meta.resolve('tsx'), ...serverProcessFlags()], name);
  try {
    const started = await child.call('start', spec);
    return {
      ...started,
      pid: child.pid,
      meter: async () => {
        await child.call('usageStart', null);
        return () => child.call('usageStop', null);
      },
      memory: () => child.call('memory', null),
      async trace(upstreamOrigin, latencyMs, operation) {
        await child.call('traceStart', { upstreamOrigin });
        try {
          await operation();
        } catch (error) {
          await child.call('traceStop', { latencyMs }); // stops listening there
          throw error;
        }
        return child.call('traceStop', { latencyMs });
      },
      close: () => child.stop(),
    };
  } catch (error) {
    await child.stop();
    throw error;
  }
}
