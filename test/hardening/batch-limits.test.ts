// Issue 27, items 3 and 4: with batching on (BATCHED_HTTP_REQUESTS), a batch (a JSON array body)
// skipped the checks made of query text before parsing, which read `body.query`: a list literal
// 2,000 deep overflowed graphql-js's parser (400 "Maximum call stack size exceeded", and a stack in
// the log per operation), and one anonymous 969 KB batch of 28,000 `{ aN: __typename }` operations
// held the event loop for 7 s. Each operation of a batch now passes the checks a single one does,
// before any is parsed, and a batch has a length cap.
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { DEFAULT_QUERY_LIMITS, MAX_NESTING } from '../../src/policy/limits.js';
import { gatewayOverSimulator, type Harness } from '../support/harness.js';
import { attackerCalls, expectClearRefusal, readAnswer, withBystander, type RawAnswer } from './hostile-support.js';

const logged: string[] = [];
const logger = {
  info: () => undefined,
  debug: () => undefined,
  warn: (_fields: unknown, message?: string) => void logged.push(String(message)),
  error: (message: unknown) => void logged.push(String(message)),
};

async function postBatch(harness: Harness, batch: unknown[], token?: string): Promise<RawAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(token ? { 'private-token': token } : {}) };
  return readAnswer(await fetch(harness.gateway.url, { method: 'POST', headers, body: JSON.stringify(batch) }));
}

describe('batched HTTP requests under the limits', () => {
  const harness = gatewayOverSimulator({ allowBatchedHttpRequests: true, logger });

  it('refuses a batch whose operation nests 2,000 lists deep, before parsing it, with nothing logged', async () => {
    logged.length = 0;
    const deep = `{ runner(id: ${'['.repeat(2_000)}1${']'.repeat(2_000)}) { id } }`;
    const answer = await withBystander(harness, () => postBatch(harness, [{ query: '{ __typename }' }, { query: deep }]));
    expect(answer.status).toBe(400);
    expectClearRefusal(answer, 'LIMIT_EXCEEDED');
    expect(answer.json?.errors?.[0]?.extensions).toMatchObject({ limit: 'nesting', maxNesting: MAX_NESTING });
    expect(answer.text).not.toContain('Maximum call stack');
    expect(logged).toEqual([]);
    expect(attackerCalls(harness)).toEqual([]);
  });

  it('refuses a batch with an operation longer than a single one may be', async () => {
    const long = `{ __typename ${'#'.repeat(DEFAULT_QUERY_LIMITS.maxQueryLength)}\n}`;
    const answer = await postBatch(harness, [{ query: long }]);
    expectClearRefusal(answer, 'LIMIT_EXCEEDED');
    expect(answer.json?.errors?.[0]?.extensions).toMatchObject({ limit: 'length' });
  });

  it("refuses the issue's 28,000 operations by the batch's length, at once, and answers others meanwhile", async () => {
    const batch = Array.from({ length: 28_000 }, (_, index) => ({ query: `{ a${index}: __typename }` }));
    const answer = await withBystander(harness, () => postBatch(harness, batch));
    expect(answer.status).toBe(400);
    expectClearRefusal(answer, 'LIMIT_EXCEEDED');
    expect(answer.json?.errors?.[0]?.extensions).toMatchObject({ limit: 'batch', maxBatchOperations: DEFAULT_QUERY_LIMITS.maxBatchOperations });
    expect(attackerCalls(harness)).toEqual([]);
  });

  it('answers a batch of exactly the cap, each operation on its own', async () => {
    const batch = Array.from({ length: DEFAULT_QUERY_LIMITS.maxBatchOperations }, () => ({ query: '{ currentUser { username } }' }));
    const answer = await postBatch(harness, batch, DEMO_TOKENS.maintainer);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual(batch.map(() => ({ data: { currentUser: { username: 'maintainer' } } })));
  });

  it('holds each operation of a batch to the shape limits after parsing too (aliases)', async () => {
    const aliases = Array.from({ length: DEFAULT_QUERY_LIMITS.maxAliases + 1 }, (_, index) => `a${index}: __typename`).join(' ');
    const answer = await postBatch(harness, [{ query: '{ __typename }' }, { query: `{ ${aliases} }` }]);
    const results = answer.json as unknown as Array<{ data?: unknown; errors?: Array<{ extensions?: Record<string, unknown> }> }>;
    expect(results).toHaveLength(2);
    expect(results[0]).toEqual({ data: { __typename: 'Query' } });
    expect(results[1]?.errors?.[0]?.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'aliases' });
  });
});
