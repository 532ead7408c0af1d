// Hostile variables (issue 15, an adversarial suite): huge, deep, mistyped and prototype-polluting
// values a caller puts in `variables`. Each is refused with BAD_USER_INPUT before any REST call (or,
// for a value only REST can judge, answered with REST's code); Object.prototype never changes.
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { attackerCalls, codesOf, expectClearRefusal, expectNothingLeaked, readAnswer, withBystander } from './hostile-support.js';

const admin = DEMO_TOKENS.admin;
const LABELS = 'query($l: [String]) { issues(labelName: $l) { nodes { id } } }';
const IIDS = 'query($l: [String!]) { issues(iids: $l) { nodes { id } } }';
const FIRST = 'query($f: Int) { ownedRunners(first: $f) { nodes { id } } }';
const RUNNER = 'query($id: CiRunnerID!) { runner(id: $id) { id } }';
const PROJECT = 'query($p: ID!) { project(fullPath: $p) { id } }';
const UPDATE = 'mutation($input: RunnerUpdateInput!) { runnerUpdate(input: $input) { runner { id description } } }';

describe('hostile variables', () => {
  const harness = gatewayOverSimulator();
  /** The body is written by hand, so that keys such as __proto__ reach the gateway as JSON has them. */
  const postRaw = (body: string) =>
    fetch(harness.gateway.url, { method: 'POST', headers: { 'content-type': 'application/json', 'private-token': admin }, body }).then(
      readAnswer,
    );
  const variablesJson = (query: string, variables: string) => `{"query":${JSON.stringify(query)},"variables":${variables}}`;

  it.each([
    ['5,000 nested objects for a list', LABELS, `{"l":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`],
    ['5,000 nested arrays for a list', LABELS, `{"l":${'['.repeat(5_000)}${']'.repeat(5_000)}}`],
    // JSON.parse reads nesting without recursing, and coercion stops at the list's first item.
    ['100,000 nested arrays for a list', LABELS, `{"l":${'['.repeat(100_000)}${']'.repeat(100_000)}}`],
    ['100,000 nested objects for a list', LABELS, `{"l":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`],
    ['a null inside a list of non-null strings', IIDS, '{"l":["1",null]}'],
    ['the string "NaN" for an Int', FIRST, '{"f":"NaN"}'],
    ['the string "Infinity" for an Int', FIRST, '{"f":"Infinity"}'],
    ['1e400 (Infinity once parsed) for an Int', FIRST, '{"f":1e400}'],
    ['2^53 + 1 for an Int', FIRST, '{"f":9007199254740993}'],
    ['a number with a fraction for an Int', FIRST, '{"f":1.0000001}'],
    ['an object for an ID', RUNNER, '{"id":{"toString":"gid://gitlab/Ci::Runner/1"}}'],
    ['a boolean for an ID', RUNNER, '{"id":true}'],
    ['a number past 2^53 for an ID', RUNNER, '{"id":9007199254740993}'],
    ['a global ID past 2^53', RUNNER, '{"id":"gid://gitlab/Ci::Runner/9007199254740993"}'],
    ['a full path of 900,000 characters', PROJECT, JSON.stringify({ p: 'g/'.repeat(450_000) })],
    [
      'an Upload sent as JSON',
      'mutation($f: Upload!) { wikiAttachmentUpload(input: { projectPath: "gitlab-org/gitlab", file: $f }) { errors } }',
      '{"f":{"filename":"a.txt","mimeType":"text/plain","bytes":[104,105]}}',
    ],
  ])('refuses %s as BAD_USER_INPUT before any REST call', async (_case, query, variables) => {
    const answer = await withBystander(harness, () => postRaw(variablesJson(query, variables)));
    expectClearRefusal(answer, 'BAD_USER_INPUT');
    expectNothingLeaked(harness, answer.text);
    expect(answer.text.length).toBeLessThan(5_000);
    expect(attackerCalls(harness)).toEqual([]);
  });

  it('refuses __proto__ and constructor keys in an input object as unknown fields, with nothing written and Object.prototype untouched', async () => {
    const input =
      '{"id":"gid://gitlab/Ci::Runner/6","__proto__":{"description":"polluted","polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}';
    const answer = await withBystander(harness, () => postRaw(variablesJson(UPDATE, `{"input":${input}}`)));
    expectClearRefusal(answer, 'BAD_USER_INPUT');
    expect(answer.text).toContain('__proto__');
    expect(attackerCalls(harness)).toEqual([]);
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Object.prototype).not.toHaveProperty('description');
  });

  it('ignores __proto__ among the variables themselves, and an operation still sees only what it declared', async () => {
    const answer = await postRaw(variablesJson(FIRST, '{"__proto__":{"f":1},"constructor":{"prototype":{"polluted":"yes"}}}'));
    expect(codesOf(answer.json)).not.toContain('INTERNAL_SERVER_ERROR');
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Object.prototype).not.toHaveProperty('f');
    // $f was not given: the default page, not a page of 1 taken from the prototype.
    expect(harness.simulator.requests.map((request) => request.query['per_page'])).not.toContain('1');
  });

  it('answers an operation sent with 50,000 undeclared variables as if they were not there', async () => {
    const variables = Object.fromEntries(Array.from({ length: 50_000 }, (_, index) => [`v${index}`, index]));
    const answer = await withBystander(harness, () => postRaw(JSON.stringify({ query: '{ __typename }', variables })));
    expect(answer.json).toEqual({ data: { __typename: 'Query' } });
  });

  it('answers 100,000 labels, which only REST can refuse, with a 4xx code and no internal error', async () => {
    const answer = await withBystander(harness, () =>
      postRaw(JSON.stringify({ query: LABELS, variables: { l: Array.from({ length: 100_000 }, () => 'a') } })),
    );
    expect(answer.status).toBeLessThan(500);
    expect(codesOf(answer.json)).toEqual(['BAD_USER_INPUT']);
    expectNothingLeaked(harness, answer.text);
  });
});
