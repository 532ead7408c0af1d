import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './support/gateway.js';
import { startStubUpstream } from './support/stub-upstream.js';

describe('faults of the gateway itself', () => {
  const logged: string[] = [];
  let stub: Awaited<ReturnType<typeof startStubUpstream>>;
  let gateway: TestGateway;

  beforeAll(async () => {
    // A 201 without a body is not something REST sends; the gateway trips over it.
    stub = await startStubUpstream([{ method: 'POST', path: '/runners', status: 201, body: null }]);
    gateway = await startTestGateway(stub.url, { logger: { error: (message) => logged.push(message) } });
  });

  afterAll(async () => {
    await gateway?.close();
    await stub?.close();
  });

  it('tells the caller only that the gateway failed, and logs the details without tokens', async () => {
    const result = await gateway.query(`mutation { runnerRegister(input: { registrationToken: "GR1348941-secret-token" }) { id } }`);
    expect(result.errors?.[0]).toMatchObject({ message: 'Internal error in the gateway', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    expect(JSON.stringify(result)).not.toMatch(/TypeError|stack|GR1348941/);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^Unexpected error: TypeError/);
    expect(logged[0]).not.toContain('GR1348941-secret-token');
  });
});
