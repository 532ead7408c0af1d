import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { restCalls, restOracle } from '../support/rest-oracle.js';

const gid = (id: number) => `gid://gitlab/Ci::Runner/${id}`;

describe('runner managers, token resets and job-router discovery over real HTTP', () => {
  let simulator: Simulator;
  let gateway: TestGateway;
  let oracle: ReturnType<typeof restOracle>;

  beforeAll(async () => {
    simulator = await startSimulator();
    gateway = await startTestGateway(simulator.url);
    oracle = restOracle(simulator);
  });

  afterAll(async () => {
    await gateway?.close();
    await simulator?.close();
  });

  beforeEach(() => simulator.resetRequests());

  it('lists a runner\'s managers as REST does, in one call', async () => {
    const expected = await oracle.get<Array<{ id: number; system_id: string; status: string }>>('/runners/2/managers', DEMO_TOKENS.admin);
    expect(expected.length).toBeGreaterThan(0);
    const result = await gateway.query<{ runner: { managers: { count: number; nodes: Array<{ id: string; systemId: string; status: string }> } } }>(
      `{ runner(id: "${gid(2)}") { managers { count nodes { id systemId status } } } }`,
      {},
      DEMO_TOKENS.admin,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data!.runner.managers).toEqual({
      count: expected.length,
      nodes: expected.map((manager) => ({ id: `gid://gitlab/Ci::RunnerManager/${manager.id}`, systemId: manager.system_id, status: manager.status.toUpperCase() })),
    });
    expect(restCalls(simulator)).toEqual(['GET /runners/2', 'GET /runners/2/managers']);
  });

  it('resets a token by runner id: the new token verifies, the old one no longer does', async () => {
    const runner = simulator.state.runners.get(3)!;
    const oldToken = runner.token;
    const result = await gateway.query<{ runnerResetAuthenticationToken: { token: string; errors: string[] } }>(
      `mutation { runnerResetAuthenticationToken(input: { id: "${gid(3)}" }) { token tokenExpiresAt errors } }`,
      {},
      DEMO_TOKENS.admin,
    );
    expect(result.errors).toBeUndefined();
    const newToken = result.data!.runnerResetAuthenticationToken.token;
    expect(newToken).toMatch(/^glrt-/);
    expect(newToken).not.toBe(oldToken);
    const verify = await gateway.query(
      `mutation($old: String!, $new: String!) { old: runnerVerify(input: { token: $old }) { valid } new: runnerVerify(input: { token: $new }) { valid } }`,
      { old: oldToken, new: newToken },
    );
    expect(verify).toEqual({ data: { old: { valid: false }, new: { valid: true } } });
  });

  it('resets a token by the current token, with no other credential', async () => {
    const oldToken = simulator.state.runners.get(5)!.token;
    const result = await gateway.query<{ runnerResetAuthenticationToken: { token: string } }>(
      `mutation($token: String!) { runnerResetAuthenticationToken(input: { token: $token }) { token } }`,
      { token: oldToken },
    );
    expect(result.errors).toBeUndefined();
    expect(simulator.state.runners.get(5)!.token).toBe(result.data!.runnerResetAuthenticationToken.token);
  });

  it('refuses a reset by someone who may not manage the runner, and input that names both or neither', async () => {
    const denied = await gateway.query(`mutation { runnerResetAuthenticationToken(input: { id: "${gid(3)}" }) { token } }`, {}, DEMO_TOKENS.guest);
    expect(denied.errors?.[0]?.extensions?.['code']).toBe('FORBIDDEN');
    simulator.resetRequests();
    for (const input of ['', `id: "${gid(3)}", token: "glrt-x"`]) {
      const refused = await gateway.query(`mutation { runnerResetAuthenticationToken(input: { ${input} }) { token } }`, {}, DEMO_TOKENS.admin);
      expect(refused.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    }
    expect(restCalls(simulator)).toEqual([]);
  });

  it('answers job-router discovery for a runner token, and FORBIDDEN for an unknown one', async () => {
    const token = simulator.state.runners.get(7)!.token;
    const result = await gateway.query(`query($token: String!) { ciJobRouterDiscovery(runnerToken: $token) { serverUrl } }`, { token });
    expect(result).toEqual({ data: { ciJobRouterDiscovery: { serverUrl: `${simulator.origin.replace('http', 'ws')}/-/job-router` } } });
    const denied = await gateway.query(`{ ciJobRouterDiscovery(runnerToken: "glrt-unknown") { serverUrl } }`);
    expect(denied.errors?.[0]?.extensions?.['code']).toBe('FORBIDDEN');
    expect(simulator.requests.every((request) => !JSON.stringify(request).includes(token))).toBe(true);
  });
});
