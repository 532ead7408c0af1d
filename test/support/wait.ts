/** Waits until `condition` holds, checking every 10 ms; fails after `timeoutMs`. For states, never for timings. */
export async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** `until` for conditions that must be fetched (a metric, a Redis key): checks every 50 ms, fails after `timeoutMs`. */
export async function eventually(condition: () => Promise<boolean>, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what} not met in time`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
