import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { CORS_ALLOWED_HEADERS } from '../../src/transport/cors.js';
import { gatewayOverSimulator, type Harness } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const APP = 'https://app.example.com';
const QUERY = JSON.stringify({ query: '{ currentUser { username } }' });

/** A browser's preflight for a POST with a credential header. */
function preflight(harness: Harness, origin: string, path = '/graphql') {
  return fetch(new URL(path, harness.gateway.url), {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, private-token' },
  });
}

/** The request a browser sends after the preflight, with the page's origin. */
function post(harness: Harness, origin: string) {
  return fetch(harness.gateway.url, { method: 'POST', headers: { origin, 'content-type': 'application/json', 'private-token': DEMO_TOKENS.maintainer }, body: QUERY });
}

const corsHeaders = (response: Response) => [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));

describe('CORS, off by default', () => {
  const harness = gatewayOverSimulator();

  it('sends no CORS header at all, to a preflight or a request', async () => {
    expect(corsHeaders(await preflight(harness, APP))).toEqual([]);
    const response = await post(harness, APP);
    expect(response.status).toBe(200);
    expect(corsHeaders(response)).toEqual([]);
  });
});

describe('CORS for listed origins, with credentials', () => {
  const harness = gatewayOverSimulator({ cors: { origins: [APP], credentials: true, maxAgeSeconds: 300 } });

  it('answers a preflight from a listed origin with what a browser needs, before any REST call', async () => {
    const response = await preflight(harness, APP);
    expect(response.status).toBe(204);
    expect(Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('access-control-') || name === 'vary'))).toEqual({
      'access-control-allow-origin': APP,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET, POST, HEAD, OPTIONS',
      'access-control-allow-headers': CORS_ALLOWED_HEADERS.join(', '),
      'access-control-expose-headers': 'x-request-id',
      'access-control-max-age': '300',
      vary: 'Origin',
    });
    expect(CORS_ALLOWED_HEADERS).toEqual(expect.arrayContaining(['content-type', 'authorization', 'private-token', 'job-token', 'x-request-id', 'apollo-require-preflight']));
    expect(restCalls(harness.simulator)).toEqual([]);
  });

  it('lets the page read the answer and its request id', async () => {
    const response = await post(harness, APP);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
    expect(response.headers.get('access-control-expose-headers')).toBe('x-request-id');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(await response.json()).toEqual({ data: { currentUser: { username: 'maintainer' } } });
  });

  it('refuses the preflight of any other origin, and gives its requests no CORS header', async () => {
    const refused = await preflight(harness, 'https://evil.example');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(corsHeaders(await post(harness, 'https://evil.example'))).toEqual([]);
  });

  it('answers preflights on the artifact downloads too', async () => {
    const response = await preflight(harness, APP, '/artifacts/projects/1/jobs/1/artifacts');
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
    expect(restCalls(harness.simulator)).toEqual([]);
  });
});

describe('CORS for any origin', () => {
  const harness = gatewayOverSimulator({ cors: { origins: '*' } });

  it('allows every origin with a wildcard and no credentials', async () => {
    const response = await preflight(harness, 'https://anywhere.example');
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('access-control-max-age')).toBe('600');
    expect((await post(harness, 'https://anywhere.example')).headers.get('access-control-allow-origin')).toBe('*');
  });
});
