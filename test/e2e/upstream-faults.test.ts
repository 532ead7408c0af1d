import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const RUNNER = (id: number) => `{ runner(id: "gid://gitlab/Ci::Runner/${id}") { id description } }`;

describe('riding out upstream faults', () => {
  const harness = gatewayOverSimulator({ circuitBreaker: { failureThreshold: 4, cooldownMs: 300 } });

  it('retries a read through passing faults and answers as if nothing happened', async () => {
    harness.simulator.faults.add({ method: 'GET', path: '/runners/1', kind: 'status', status: 503, times: 1 });
    harness.simulator.faults.add({ method: 'GET', path: '/runners/1', kind: 'close', times: 1 });
    const result = await harness.gateway.query(RUNNER(1), {}, DEMO_TOKENS.admin);
    expect(result.errors).toBeUndefined();
    expect(restCalls(harness.simulator)).toEqual(['GET /runners/1', 'GET /runners/1', 'GET /runners/1']);
  });

  it('waits as long as Retry-After asks when that is short, and not at all when it is long', async () => {
    harness.simulator.faults.add({ method: 'GET', path: '/runners/2', kind: 'status', status: 429, headers: { 'retry-after': '1' }, body: 'Retry later', times: 1 });
    const short = await harness.gateway.query(RUNNER(2), {}, DEMO_TOKENS.admin);
    expect(short.errors).toBeUndefined();
    expect(restCalls(harness.simulator)).toHaveLength(2);

    harness.simulator.resetRequests();
    harness.simulator.faults.add({ method: 'GET', path: '/runners/3', kind: 'status', status: 429, headers: { 'retry-after': '60' }, body: 'Retry later', times: 1 });
    const long = await harness.gateway.query(RUNNER(3), {}, DEMO_TOKENS.admin);
    expect(long.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 60 });
    expect(restCalls(harness.simulator)).toHaveLength(1);
  });

  it('never retries a write: it may already have happened', async () => {
    harness.simulator.faults.add({ method: 'PUT', path: '/runners/4', kind: 'status', status: 503, times: 1 });
    const result = await harness.gateway.query(`mutation { runnerUpdate(input: { id: "gid://gitlab/Ci::Runner/4", description: "x" }) { runner { id } } }`, {}, DEMO_TOKENS.admin);
    expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', restStatus: 503 });
    expect(restCalls(harness.simulator)).toEqual(['PUT /runners/4']);
  });

  it('stops calling an upstream that keeps failing, fails fast meanwhile, and heals by itself', async () => {
    // A success closes the circuit and clears the count the earlier tests' faults left.
    expect((await harness.gateway.query(RUNNER(8), {}, DEMO_TOKENS.admin)).errors).toBeUndefined();
    harness.simulator.resetRequests();
    const fault = harness.simulator.faults.add({ method: 'GET', path: /^\/runners\/\d+$/, kind: 'status', status: 502 });
    // Three attempts of the first read and one of the second reach the threshold of four.
    await harness.gateway.query(RUNNER(5), {}, DEMO_TOKENS.admin);
    await harness.gateway.query(RUNNER(6), {}, DEMO_TOKENS.admin);
    const callsWhenOpen = restCalls(harness.simulator).length;
    expect(callsWhenOpen).toBe(4);

    const refused = await harness.gateway.query(RUNNER(7), {}, DEMO_TOKENS.admin);
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', restStatus: 0 });
    expect(refused.errors?.[0]?.message).toContain('not calling it for a few seconds');
    expect(restCalls(harness.simulator)).toHaveLength(callsWhenOpen);

    harness.simulator.faults.remove(fault);
    await new Promise((resolve) => setTimeout(resolve, 350));
    const healed = await harness.gateway.query(RUNNER(7), {}, DEMO_TOKENS.admin);
    expect(healed.errors).toBeUndefined();
    expect(restCalls(harness.simulator)).toHaveLength(callsWhenOpen + 1);
  });
});
