import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, RUNNER_IDS, startSimulator, type Simulator } from '../../simulator/index.js';
import { prepareTailcall, startTailcall, tailcallBinary, TAILCALL_PACKAGE, type TailcallServer } from '../../bench/lib/tailcall.js';
import { TAILCALL_HOT_PATH_QUERY } from '../../bench/scenarios/hot-path.js';

// The bench's Tailcall peer (--peers tailcall) must answer what REST answers, through the caller's
// PRIVATE-TOKEN, or its timings compare different work. Its binary is an optional dependency (linux
// x64 glibc only): where npm left it out there is nothing to start.
const installed = (() => {
  try {
    tailcallBinary();
    return true;
  } catch {
    return false;
  }
})();
const { admin } = DEMO_TOKENS;

describe.skipIf(!installed)(`Tailcall peer (${TAILCALL_PACKAGE}; skipped when the optional dependency is not installed)`, () => {
  let simulator: Simulator;
  let tailcall: TailcallServer;

  beforeAll(async () => {
    simulator = await startSimulator();
    // The first run on a glibc older than 2.39 fetches Debian 13's libc6 (a few MB) into bench/.cache/.
    tailcall = await startTailcall(prepareTailcall(), simulator.url, 8);
  }, 240_000);
  afterAll(async () => {
    await tailcall?.close();
    await simulator?.close();
  });

  it('answers the hot path as REST does, forwarding the caller’s token', async () => {
    const id = RUNNER_IDS.instance.first;
    const ask = async (token: Record<string, string>) => {
      const response = await fetch(tailcall.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...token },
        body: JSON.stringify({ query: TAILCALL_HOT_PATH_QUERY, variables: { id } }),
      });
      return (await response.json()) as { data?: { runner: { id: number; status: string } | null }; errors?: unknown };
    };
    const answer = await ask({ 'private-token': admin });
    expect(answer.errors).toBeUndefined();
    const rest = (await (await fetch(`${simulator.url}/runners/${id}`, { headers: { 'private-token': admin } })).json()) as {
      id: number;
      status: string;
    };
    expect(answer.data?.runner).toEqual({ id: rest.id, status: rest.status });
    // Without the caller's token REST refuses (401), so the answer above came through it.
    const anonymous = await ask({});
    expect(anonymous.data?.runner ?? null).toBeNull();
  });
});
