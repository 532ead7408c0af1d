import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import type { GatewayOptions } from '../../src/index.js';
import { startTestGateway, type TestGateway } from './gateway.js';
import { restOracle } from './rest-oracle.js';

export interface Harness {
  simulator: Simulator;
  gateway: TestGateway;
  oracle: ReturnType<typeof restOracle>;
}

/**
 * The usual end-to-end set-up of a test file: the embedded v4 server and the gateway in front of
 * it, both on loopback port 0, started once for the file, stopped after it; the REST request log
 * is emptied before each test so each test counts only its own calls.
 */
export function gatewayOverSimulator(options: Partial<GatewayOptions> = {}): Harness {
  const harness = {} as Harness;
  beforeAll(async () => {
    harness.simulator = await startSimulator();
    harness.gateway = await startTestGateway(harness.simulator.url, options);
    harness.oracle = restOracle(harness.simulator);
  });
  afterAll(async () => {
    await harness.gateway?.close();
    await harness.simulator?.close();
  });
  beforeEach(() => harness.simulator.resetRequests());
  return harness;
}
