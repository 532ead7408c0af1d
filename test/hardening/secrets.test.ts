// An upstream that echoes the caller's token back (in an error message, an OAuth error description,
// a validation error, a plain-text 500, the X-Request-Id header) must not get it into a response
// or a log line, whatever the token's format: OAuth access tokens and legacy personal tokens carry
// no GitLab prefix for the pattern of src/errors/redact.ts to recognise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { GatewayLogger, LogFields } from '../../src/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { startStubUpstream, type StubRoute } from '../support/stub-upstream.js';

/** A legacy personal access token (before GitLab 14.5), an OAuth access token, and a prefixed one. */
const TOKENS = {
  legacy: 'x7Kq2mP9vR4tW8yZ1aB3',
  oauth: '4f9c1e7a2b8d3f6e0a5c9b1d7e3f2a8c6b0d4e9f1a7c3b5d8e2f6a0c4b9d1e7f',
  prefixed: 'glpat-echoed-Secret_42',
} as const;
type TokenKind = keyof typeof TOKENS;
const KINDS = Object.keys(TOKENS) as TokenKind[];

/** What the stub says for each token: every place a careless upstream might put it. */
function echoRoutes(kind: TokenKind, runnerId: number, upstreamUrl: () => string): StubRoute[] {
  const token = TOKENS[kind];
  const gid = runnerId;
  return [
    // A 403 with an OAuth-style error, and the token as the request id.
    {
      method: 'GET',
      path: `/runners/${gid}`,
      status: 403,
      body: { error: 'insufficient_scope', error_description: `The token ${token} lacks the api scope`, scope: `api token=${token}` },
      headers: { 'x-request-id': token, 'www-authenticate': `Bearer error="insufficient_scope", token="${token}"` },
    },
    // A plain-text 500 from a proxy in front of the upstream, naming the token and the upstream's URL.
    {
      method: 'GET',
      path: `/runners/${gid + 100}`,
      status: 500,
      body: null,
      rawBody: `upstream failed for PRIVATE-TOKEN ${token} at ${upstreamUrl()}/runners/${gid + 100}`,
      headers: { 'content-type': 'text/plain' },
    },
    // A validation error whose reasons become the mutation payload's `errors` (data, not an error).
    {
      method: 'PUT',
      path: `/runners/${gid}`,
      status: 400,
      body: { message: { description: [`must not contain ${token}`], base: [`token ${token} is read-only`] } },
    },
  ];
}

const RUNNER_IDS: Record<TokenKind, number> = { legacy: 1, oauth: 2, prefixed: 3 };

describe('tokens echoed by the upstream', () => {
  const logged: string[] = [];
  let stub: Awaited<ReturnType<typeof startStubUpstream>>;
  let gateway: TestGateway;

  beforeAll(async () => {
    let url = '';
    stub = await startStubUpstream([
      { method: 'GET', path: '/user', body: { id: 1, username: 'echo', name: 'Echo' } },
      ...KINDS.flatMap((kind) => echoRoutes(kind, RUNNER_IDS[kind], () => url)),
    ]);
    url = stub.url;
    // Every line of every level, recorded as the text a log shipper would store.
    const record = (fields: LogFields, message: string) => void logged.push(`${message} ${JSON.stringify(fields)}`);
    const logger: GatewayLogger = { error: (message) => void logged.push(message), warn: record, info: record, debug: record };
    gateway = await startTestGateway(stub.url, { logger, upstreamRetryAttempts: 1 });
  });

  afterAll(async () => {
    await gateway?.close();
    await stub?.close();
  });

  /** The response as the client received it, and the proof that the stub did echo into it. */
  async function ask(kind: TokenKind, query: string, via: 'private-token' | 'bearer') {
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(via === 'bearer' ? { authorization: `Bearer ${TOKENS[kind]}` } : { 'private-token': TOKENS[kind] }) },
      body: JSON.stringify({ query }),
    });
    return { text: await response.text(), headers: [...response.headers.entries()].map(([name, value]) => `${name}: ${value}`).join('\n') };
  }

  it.each(KINDS.flatMap((kind) => (['private-token', 'bearer'] as const).map((via) => ({ kind, via }))))(
    'scrubs a $kind token sent as $via from error messages, extensions and the request id',
    async ({ kind, via }) => {
      const id = RUNNER_IDS[kind];
      const answer = await ask(kind, `{ forbidden: runner(id: "gid://gitlab/Ci::Runner/${id}") { id } failed: runner(id: "gid://gitlab/Ci::Runner/${id + 100}") { id } }`, via);
      const result = JSON.parse(answer.text) as { errors: Array<{ message: string; extensions: Record<string, unknown> }> };
      expect(result.errors.map((error) => error.extensions['code']).sort()).toEqual(['FORBIDDEN', 'UPSTREAM_ERROR']);
      // The upstream's words arrive, with the token (and the upstream's address) cut out.
      expect(answer.text).toContain('[REDACTED]');
      expect(answer.text).toContain('lacks the api scope');
      expect(answer.text).not.toContain(TOKENS[kind]);
      expect(answer.headers).not.toContain(TOKENS[kind]);
      expect(answer.text).not.toContain(stub.url);
    },
  );

  it.each(KINDS)('scrubs a %s token from the reasons a refused write puts in its payload', async (kind) => {
    const id = RUNNER_IDS[kind];
    const answer = await ask(kind, `mutation { runnerUpdate(input: { id: "gid://gitlab/Ci::Runner/${id}", description: "x" }) { errors runner { id } } }`, 'private-token');
    const result = JSON.parse(answer.text) as { data: { runnerUpdate: { errors: string[]; runner: null } } };
    expect(result.data.runnerUpdate.errors).toEqual(['Description must not contain [REDACTED]', 'token [REDACTED] is read-only']);
  });

  it('scrubs the token from an error a subscription ends with', async () => {
    const client = createClient({ url: gateway.wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: { authorization: `Bearer ${TOKENS.oauth}` } });
    try {
      const events = await new Promise<unknown[]>((resolve, reject) => {
        const seen: unknown[] = [];
        client.subscribe(
          { query: `subscription { ciRunnerStatusUpdated(runnerId: "gid://gitlab/Ci::Runner/${RUNNER_IDS.oauth}") { id } }` },
          { next: (event) => seen.push(event), error: reject, complete: () => resolve(seen) },
        );
      });
      const text = JSON.stringify(events);
      expect(text).toContain('FORBIDDEN');
      expect(text).toContain('[REDACTED]');
      expect(text).not.toContain(TOKENS.oauth);
    } finally {
      await client.dispose();
    }
  });

  it('never wrote a token to the log', () => {
    // A line per request and per upstream error was written: the log was there to leak into.
    expect(logged.filter((line) => line.startsWith('upstream error')).length).toBeGreaterThan(0);
    const text = logged.join('\n');
    for (const token of Object.values(TOKENS)) expect(text).not.toContain(token);
  });
});
