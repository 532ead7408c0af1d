import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { createGateway } from '../../src/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

// GitLab's clients take the instance URL (gitbeaker's `host`, python-gitlab's `url`); a newcomer
// gives the gateway the same and must not get a 404 on every field.
describe('the upstream given as the instance URL', () => {
  let simulator: Simulator;
  let gateway: TestGateway;

  beforeAll(async () => {
    simulator = await startSimulator();
    const instanceUrl = simulator.origin;
    expect(instanceUrl).not.toContain('/api');
    gateway = await startTestGateway(instanceUrl);
  });
  afterAll(async () => {
    await gateway?.close();
    await simulator?.close();
  });

  it('answers from the REST API under /api/v4', async () => {
    simulator.resetRequests();
    const result = await gateway.query<{ currentUser: { username: string } }>('{ currentUser { username } }', undefined, 'glpat-demo-maintainer');
    expect(result.errors).toBeUndefined();
    expect(result.data?.currentUser.username).toBeTruthy();
    expect(simulator.requests.map((request) => request.path)).toEqual(['/user']) // recorded only under /api/v4;
  });

  it('refuses a URL of another API version when the gateway is created, saying which to give', () => {
    expect(() => createGateway({ upstreamUrl: `${simulator.url.replace(/v4$/, 'v3')}` })).toThrow(/upstreamUrl must be the instance URL \(http:\/\/127\.0\.0\.1:\d+\) or its REST API URL/);
  });
});
