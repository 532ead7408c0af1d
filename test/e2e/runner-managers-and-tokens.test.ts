import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const gid = (id: number) => `gid://gitlab/Ci::Runner/${id}`;

describe('runner managers, token resets and job-router discovery over real HTTP', () => {
  const harness = gatewayOverSimulator();

  it('lists a runner\'s managers as REST does, in one call', async () => {
    const expected = await harness.oracle.get<Array<{ id: number; system_id: string; status: string }>>('/runners/2/managers', DEMO_TOKENS.admin);
    expect(expected.length).toBeGreaterThan(0);
    const result = await harness.gateway.query<{ runner: { managers: { count: number; nodes: Array<{ id: string; systemId: string; status: string }> } } }>(
      `{ runner(id: "${gid(2)}") { managers { count nodes { id systemId status } } } }`,
      {},
      DEMO_TOKENS.admin,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data!.runner.managers).toEqual({
      count: expected.length,
      nodes: expected.map((manager) => ({ id: `gid://gitlab/Ci::RunnerManager/${manager.id}`, systemId: manager.system_id, status: manager.status.toUpperCase() })),
    });
    expect(restCalls(harness.simulator)).toEqual(['GET /runners/2', 'GET /runners/2/managers']);
  });

  it('resets a token by runner id: the new token verifies, the old one no longer does', async () => {
    const runner = harness.simulator.state.runners.get(3)!;
    const oldToken = runner.token;
    const result = await harness.gateway.query<{ runnerResetAuthenticationToken: { token: string; errors: string[] } }>(
      `mutation { runnerResetAuthenticationToken(input: { id: "${gid(3)}" }) { token tokenExpiresAt errors } }`,
      {},
      DEMO_TOKENS.admin,
    );
    expect(result.errors).toBeUndefined();
    const newToken = result.data!.runnerResetAuthenticationToken.token;
    expect(newToken).toMatch(/^glrt-/);
    expect(newToken).not.toBe(oldToken);
    const verify = await harness.gateway.query(
      `mutation($old: String!, $new: String!) { old: runnerVerify(input: { token: $old }) { valid } new: runnerVerify(input: { token: $new }) { valid } }`,
      { old: oldToken, new: newToken },
    );
    expect(verify).toEqual({ data: { old: { valid: false }, new: { valid: true } } });
  });

  it('resets a token by the current token, with no other credential', async () => {
    const oldToken = harness.simulator.state.runners.get(5)!.token;
    const result = await harness.gateway.query<{ runnerResetAuthenticationToken: { token: string } }>(
      `mutation($token: String!) { runnerResetAuthenticationToken(input: { token: $token }) { token } }`,
      { token: oldToken },
    );
    expect(result.errors).toBeUndefined();
    expect(harness.simulator.state.runners.get(5)!.token).toBe(result.data!.runnerResetAuthenticationToken.token);
  });

  it('refuses a reset by someone who may not manage the runner, and input that names both or neither', async () => {
    const denied = await harness.gateway.query(`mutation { runnerResetAuthenticationToken(input: { id: "${gid(3)}" }) { token } }`, {}, DEMO_TOKENS.guest);
    expect(denied.errors?.[0]?.extensions?.['code']).toBe('FORBIDDEN');
    harness.simulator.resetRequests();
    for (const input of ['', `id: "${gid(3)}", token: "glrt-x"`]) {
      const refused = await harness.gateway.query(`mutation { runnerResetAuthenticationToken(input: { ${input} }) { token } }`, {}, DEMO_TOKENS.admin);
      expect(refused.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    }
    expect(restCalls(harness.simulator)).toEqual([]);
  });

  it('answers job-router discovery for a runner token, and FORBIDDEN for an unknown one', async () => {
    const token = harness.simulator.state.runners.get(7)!.token;
    const result = await harness.gateway.query(`query($token: String!) { ciJobRouterDiscovery(runnerToken: $token) { serverUrl } }`, { token });
    expect(result).toEqual({ data: { ciJobRouterDiscovery: { serverUrl: `${harness.simulator.origin.replace('http', 'ws')}/-/job-router` } } });
    const denied = await harness.gateway.query(`{ ciJobRouterDiscovery(runnerToken: "glrt-unknown") { serverUrl } }`);
    expect(denied.errors?.[0]?.extensions?.['code']).toBe('FORBIDDEN');
    expect(harness.simulator.requests.every((request) => !JSON.stringify(request).includes(token))).toBe(true);
  });
});
