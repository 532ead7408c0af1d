import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings for a process that serves the gateway, applied by the command line (src/main.ts).
 * They are process-wide, so the library never applies them by itself: an embedder whose process
 * mostly serves the gateway may call tuneServerProcess() too (README, "Embedding").
 *
 * --no-allocation-site-pretenuring: V8 learns, per object or array literal, whether its objects
 * outlive a young-generation collection, and once most do, allocates them straight into the old
 * generation. A page of 200 REST calls in flight at once teaches it exactly that about undici's
 * per-connection header arrays, which then hold each answer's header buffers from the old
 * generation until a full collection. On the fleet page (`npm run bench`, docs/performance.md)
 * the gateway took 20% less CPU and 22 MB less peak RSS without it; the hot path and the
 * dashboard did not move.
 */
export const SERVER_V8_FLAGS: readonly string[] = Object.freeze(['--no-allocation-site-pretenuring']);

/** Applies SERVER_V8_FLAGS to this process; call it before serving. */
export function tuneServerProcess(): void {
  for (const flag of SERVER_V8_FLAGS) setFlagsFromString(flag);
}
