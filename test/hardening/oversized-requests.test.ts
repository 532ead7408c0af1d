// Found by the adversarial suite (issue 15): a 9,000-character `search` made the embedded server's
// `Link` headers (which repeat every query parameter, as GitLab's do) pass undici's 16 KiB header
// limit. That was counted as an unreachable upstream, retried, and two such requests opened the
// circuit breaker for every caller. Now a request target GitLab would refuse (over 8,000
// characters) is the caller's BAD_USER_INPUT before any call, and an answer with more headers than
// the gateway reads is the upstream's UPSTREAM_ERROR, neither retried nor counted by the breaker.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { gatewayOverSimulator } from '../support/harness.js';

const SEARCH_ISSUES = 'query($s: String) { issues(search: $s) { nodes { id } } }';
const RUNNER_1 = '{ runner(id: "gid://gitlab/Ci::Runner/1") { id } }';

describe('a search long enough to overflow the answer headers', () => {
  const harness = gatewayOverSimulator({ circuitBreaker: { failureThreshold: 2, cooldownMs: 600_000 } });

  it('is refused as the caller’s argument, before any REST call, and leaves the breaker closed', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const result = await harness.gateway.query(SEARCH_ISSUES, { s: 'x'.repeat(9_000) }, DEMO_TOKENS.admin);
      expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
      expect(result.errors?.[0]?.message).toMatch(/characters long; GitLab takes at most 8000/);
    }
    expect(harness.simulator.requests).toHaveLength(0);
    const other = await harness.gateway.query<{ runner: { id: string } }>(RUNNER_1, {}, DEMO_TOKENS.admin);
    expect(other.errors).toBeUndefined();
    expect(other.data?.runner.id).toBe('gid://gitlab/Ci::Runner/1');
    expect((await fetch(new URL('/readyz', harness.gateway.url))).status).toBe(200);
  });

  it('still answers a long search GitLab would take, whose Link headers pass 16 KiB', async () => {
    const result = await harness.gateway.query<{ issues: { nodes: unknown[] } }>(SEARCH_ISSUES, { s: 'x'.repeat(7_000) }, DEMO_TOKENS.admin);
    expect(result.errors).toBeUndefined();
    expect(result.data?.issues.nodes).toEqual([]);
    expect(harness.simulator.requests).toHaveLength(1);
  });
});

describe('an upstream answer with more headers than the gateway reads', () => {
  let upstream: Server;
  let gateway: TestGateway;
  let calls = 0;

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      calls += 1;
      if (req.url?.startsWith('/api/v4/version')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"version":"17.0.0"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-padding': 'p'.repeat(100_000) });
      res.end('{"id":1,"username":"root"}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    gateway = await startTestGateway(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}/api/v4`, {
      circuitBreaker: { failureThreshold: 2, cooldownMs: 600_000 },
    });
  });
  afterAll(async () => {
    await gateway?.close();
    upstream?.closeAllConnections();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  it('is UPSTREAM_ERROR on its field, sent once, and never opens the breaker', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const result = await gateway.query('{ currentUser { username } }', {}, DEMO_TOKENS.admin);
      expect(result.errors?.[0]?.extensions?.['code']).toBe('UPSTREAM_ERROR');
    }
    // Not retried: one exchange per request.
    expect(calls).toBe(5);
    const readiness = await fetch(new URL('/readyz', gateway.url));
    expect(readiness.status).toBe(200);
  });
});
