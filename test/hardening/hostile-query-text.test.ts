// Hostile query text (issue 15, an adversarial suite): literals, tokens, names and numbers a caller
// writes into the document. Each is refused with a code before any REST call, or answered as
// GraphQL says; none is an internal error, and another caller's query answers meanwhile.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { attackerCalls, codesOf, expectClearRefusal, expectNothingLeaked, readAnswer, withBystander } from './hostile-support.js';

const admin = DEMO_TOKENS.admin;
const runnerGid = (tail: string) => `gid://gitlab/Ci::Runner/${tail}`;

describe('hostile query text', () => {
  /** What the gateway logs as its own faults: none of these documents is one. */
  const logged: string[] = [];
  const harness = gatewayOverSimulator({ logger: { error: (message) => logged.push(message) } });
  afterEach(() => {
    // Emptied first, so that a test that logs fails alone.
    expect(logged.splice(0)).toEqual([]);
  });
  const post = (body: unknown) =>
    fetch(harness.gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'private-token': admin },
      body: JSON.stringify(body),
    }).then(readAnswer);
  /** Sends the document with a bystander in flight; the answer must be a refusal with `code` and no REST call. */
  async function refused(query: string, code: string, operationName?: string) {
    const answer = await withBystander(harness, () => post({ query, operationName }));
    expectClearRefusal(answer, code);
    expectNothingLeaked(harness, answer.text);
    expect(attackerCalls(harness)).toEqual([]);
    return answer;
  }

  it.each([
    // The CiRunnerID scalar reads an ID written in the document while the document is validated.
    ['a string literal of 9,900 characters for an ID', `{ runner(id: "${'x'.repeat(9_900)}") { id } }`, 'GRAPHQL_VALIDATION_FAILED'],
    ['a block string of 9,000 characters for an ID', `{ runner(id: """${'x'.repeat(9_000)}""") { id } }`, 'GRAPHQL_VALIDATION_FAILED'],
    ['escaped NUL and control characters in an ID', String.raw`{ runner(id: "\u0000\u0001\u001b") { id } }`, 'GRAPHQL_VALIDATION_FAILED'],
    ['a document over the length limit', `{ runner(id: "${'x'.repeat(10_001)}") { id } }`, 'LIMIT_EXCEEDED'],
    [
      'more than 5,000 tokens within the length limit',
      `{ issues(labels: [${'[]'.repeat(2_600)}]) { nodes { id } } }`,
      'GRAPHQL_PARSE_FAILED',
    ],
    [
      '60 levels of nested list literals',
      `{ issues(labels: ${'['.repeat(60)}"a"${']'.repeat(60)}) { nodes { id } } }`,
      'GRAPHQL_VALIDATION_FAILED',
    ],
    ['a raw NUL in the document', '{ __typename \u0000 }', 'GRAPHQL_PARSE_FAILED'],
    ['an invalid escape', String.raw`{ runner(id: "\x41") { id } }`, 'GRAPHQL_PARSE_FAILED'],
    ['an unterminated string', '{ runner(id: "abc', 'GRAPHQL_PARSE_FAILED'],
    ['__proto__ as a field name', '{ __proto__ }', 'GRAPHQL_VALIDATION_FAILED'],
    ['constructor as a field name', '{ constructor }', 'GRAPHQL_VALIDATION_FAILED'],
    ['__proto__ as an argument name', '{ runner(id: "x", __proto__: 1) { id } }', 'GRAPHQL_VALIDATION_FAILED'],
    ['an Int literal past 2^53', '{ ownedRunners(first: 9007199254740993) { nodes { id } } }', 'GRAPHQL_VALIDATION_FAILED'],
    ['an Int literal of 2^31', '{ ownedRunners(first: 2147483648) { nodes { id } } }', 'GRAPHQL_VALIDATION_FAILED'],
    ['a Float for an Int', '{ ownedRunners(first: 1.5) { nodes { id } } }', 'GRAPHQL_VALIDATION_FAILED'],
    ['a negative page size', '{ ownedRunners(first: -1) { nodes { id } } }', 'BAD_USER_INPUT'],
    [
      'an Upload written in the query',
      'mutation { wikiAttachmentUpload(input: { projectPath: "gitlab-org/gitlab", file: "x" }) { errors } }',
      'GRAPHQL_VALIDATION_FAILED',
    ],
  ])('refuses %s with a code and no REST call', async (_case, query, code) => {
    await refused(query, code);
  });

  // graphql-js parses recursively: 2,000 nested list literals (4,000 tokens, within the token
  // limit) overflowed its stack, answered GRAPHQL_PARSE_FAILED "Maximum call stack size exceeded"
  // and logged a RangeError with its stack for every request.
  it.each([
    ['2,000 levels of nested list literals', `{ issues(labels: ${'['.repeat(2_000)}"a"${']'.repeat(2_000)}) { nodes { id } } }`],
    ['200 levels of nested list literals', `{ issues(labels: ${'['.repeat(200)}"a"${']'.repeat(200)}) { nodes { id } } }`],
    ['200 levels of nested object literals', `{ issues(labels: ${'{a:'.repeat(200)}1${'}'.repeat(200)}) { nodes { id } } }`],
    ['1,500 nested selection sets', `{ ${'a { '.repeat(1_500)}b${' }'.repeat(1_500)} }`],
    ['1,500 unclosed brackets', `{ issues(labels: ${'['.repeat(1_500)}`],
  ])('refuses %s as LIMIT_EXCEEDED (nesting) before parsing', async (_case, query) => {
    const answer = await refused(query, 'LIMIT_EXCEEDED');
    expect(answer.status).toBe(400);
    expect(answer.json?.errors?.[0]?.extensions).toEqual({ code: 'LIMIT_EXCEEDED', limit: 'nesting', maxNesting: 64 });
  });

  it('counts no bracket inside a string, a block string or a comment', async () => {
    // Each string is refused as a runner ID by the CiRunnerID scalar, before any REST call: parsed, not counted.
    const brackets = '[{('.repeat(300);
    const answer = await refused(
      `{\n  # ${brackets}\n  a: runner(id: "${brackets}\\"${brackets}") { id }\n  b: runner(id: """${brackets}\\"""${brackets}""") { id }\n}`,
      'GRAPHQL_VALIDATION_FAILED',
    );
    expect(codesOf(answer.json)).toEqual(['GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_VALIDATION_FAILED']);
  });

  it.each([
    ['an ID past 2^53', '9007199254740993'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['a hexadecimal ID', '0x10'],
    ['an exponent', '1e3'],
  ])('refuses a runner global ID with %s as BAD_USER_INPUT before any REST call', async (_case, tail) => {
    // Letters and digits pass the CiRunnerID scalar; the resolver wants a number REST can take.
    const answer = await refused(`{ runner(id: "${runnerGid(tail)}") { id } }`, 'BAD_USER_INPUT');
    expect(answer.json?.errors?.[0]?.extensions?.['argumentName']).toBe('id');
  });

  it.each([
    ['an ID of 400 digits', `1${'0'.repeat(400)}`],
    ['a negative ID', '-1'],
    ['a leading space', ' 1'],
    ['a path that climbs', '../../user'],
    ['an encoded path', '1%2F..%2Fuser'],
  ])('refuses a runner global ID with %s while validating the document, before any REST call', async (_case, tail) => {
    // No global ID at all: the CiRunnerID scalar refuses it as the document is validated.
    await refused(`{ runner(id: "${runnerGid(tail)}") { id } }`, 'GRAPHQL_VALIDATION_FAILED');
  });

  it.each([
    ['a missing operation', 'query A { __typename }', 'B'],
    ['toString, which every object has', 'query A { __typename }', 'toString'],
    ['__proto__', 'query A { __typename }', '__proto__'],
    ['no operation name where two operations are written', 'query A { __typename } query B { __typename }', undefined],
  ])('refuses an operationName naming %s as OPERATION_RESOLUTION_FAILURE', async (_case, query, operationName) => {
    const answer = await refused(query, 'OPERATION_RESOLUTION_FAILURE', operationName);
    expect(answer.status).toBe(400);
  });

  it('answers __proto__, constructor and toString as aliases, fragment and operation names, as plain keys', async () => {
    const answer = await post({
      query:
        'query constructor { __proto__: __typename constructor: __typename toString: __typename ...hasOwnProperty } fragment hasOwnProperty on Query { valueOf: __typename }',
      operationName: 'constructor',
    });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('"__proto__":"Query"');
    expect(answer.json?.data).toMatchObject({ constructor: 'Query', toString: 'Query', valueOf: 'Query' });
    expect(Object.prototype).not.toHaveProperty('Query');
    expect(attackerCalls(harness)).toEqual([]);
  });

  it('reads a document that starts with a byte-order mark', async () => {
    const answer = await post({ query: '\ufeff{ __typename }' });
    expect(answer.json).toEqual({ data: { __typename: 'Query' } });
  });
});
