// Issue 27, item 1: aliases inside introspection were not counted. An anonymous 1,179-character
// document with 8 aliased `__schema` selections and a fragment of 80 aliased `name` fields on
// `__Field`, spread through `fields { type { ofType { ... } } }`, was answered with 102 MB of JSON
// after 3.4-6 s, /healthz waiting as long. The walk that enforces the limits now covers
// introspection fields like any other, and what introspection would answer is worked out before it
// runs and held to twice what the full introspection query answers.
import { getIntrospectionQuery } from 'graphql';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { DEFAULT_QUERY_LIMITS } from '../../src/policy/limits.js';
import { gatewayOverSimulator, type Harness } from '../support/harness.js';
import { attackerCalls, codesOf, expectClearRefusal, readAnswer, withBystander, type RawAnswer } from './hostile-support.js';

/** The document: `schemas` aliased `__schema`, each spreading a fragment of `names` aliased fields three levels down. */
function aliasedIntrospection(schemas: number, names: number): string {
  const fields = Array.from({ length: names }, (_, index) => `n${index}: name`).join(' ');
  const roots = Array.from({ length: schemas }, (_, index) => `s${index}: __schema { types { fields { type { ofType { ...F } } ...G } } }`).join(' ');
  return `{ ${roots} } fragment F on __Type { ${fields} } fragment G on __Field { ${fields} }`;
}

async function postAnonymously(harness: Harness, query: string): Promise<RawAnswer> {
  const response = await fetch(harness.gateway.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  return readAnswer(response);
}

describe('introspection under the limits', () => {
  const harness = gatewayOverSimulator();

  it("refuses the issue's document before running it, and answers others meanwhile", async () => {
    const query = aliasedIntrospection(8, 80);
    expect(query.length).toBeLessThan(3_000);
    const answer = await withBystander(harness, () => postAnonymously(harness, query));
    expectClearRefusal(answer, 'LIMIT_EXCEEDED');
    expect(answer.json?.errors?.[0]?.extensions).toMatchObject({ limit: 'aliases' });
    expect(answer.text.length).toBeLessThan(1_000);
    expect(attackerCalls(harness)).toEqual([]);
  });

  it('counts aliases inside `__schema` as it counts them at the top: 31 refused, 30 answered', async () => {
    const aliased = (count: number) => `{ __schema { queryType { ${Array.from({ length: count }, (_, index) => `a${index}: name`).join(' ')} } } }`;
    const over = await postAnonymously(harness, aliased(DEFAULT_QUERY_LIMITS.maxAliases + 1));
    expectClearRefusal(over, 'LIMIT_EXCEEDED');
    expect(over.json?.errors?.[0]?.extensions).toMatchObject({ limit: 'aliases' });
    const within = await postAnonymously(harness, aliased(DEFAULT_QUERY_LIMITS.maxAliases));
    expect(within.status).toBe(200);
    expect(Object.keys((within.json?.data as { __schema: { queryType: object } }).__schema.queryType)).toHaveLength(DEFAULT_QUERY_LIMITS.maxAliases);
  });

  it('refuses introspection that would answer more than twice the full introspection query, within the alias limit', async () => {
    // One `__schema`, its types' fields' types' fields under 29 aliases: 90 MB of JSON before.
    const leaf = 'name description args { name description type { name kind ofType { name kind } } } type { name kind description }';
    const inner = Array.from({ length: 29 }, (_, index) => `g${index}: fields(includeDeprecated: true) { ${leaf} }`).join(' ');
    const wide = `{ __schema { types { name fields(includeDeprecated: true) { ${leaf} type { name ${inner} } } } } }`;
    const answer = await withBystander(harness, () => postAnonymously(harness, wide));
    expectClearRefusal(answer, 'LIMIT_EXCEEDED');
    expect(answer.json?.errors?.[0]?.extensions).toMatchObject({ limit: 'introspection' });
    expect(answer.text.length).toBeLessThan(1_000);
    // The full query three times over (twice is the ceiling).
    const full = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true });
    const thrice = full.replace('__schema {', 'a: __schema { ...Schema } b: __schema { ...Schema } __schema {').replace(/\n\s*fragment FullType/, '\nfragment Schema on __Schema { types { ...FullType } }\nfragment FullType');
    const tripled = await postAnonymously(harness, thrice);
    expectClearRefusal(tripled, 'LIMIT_EXCEEDED');
    expect(tripled.json?.errors?.[0]?.extensions).toMatchObject({ limit: 'introspection' });
    expect(attackerCalls(harness)).toEqual([]);
  });

  it('bounds `__type` as it bounds `__schema`: 30 aliased types with their fields\' types\' fields are refused', async () => {
    const leaf = 'name description args { name description type { name kind } } type { name kind description }';
    const query = `{ ${Array.from({ length: 30 }, (_, index) => `t${index}: __type(name: "Project") { fields { ${leaf} type { fields { ${leaf} } } } }`).join(' ')} }`;
    const answer = await postAnonymously(harness, query);
    expectClearRefusal(answer, 'LIMIT_EXCEEDED');
    expect(answer.json?.errors?.[0]?.extensions).toMatchObject({ limit: 'introspection' });
    // One of them is an ordinary question, answered.
    const one = await postAnonymously(harness, `{ __type(name: "Project") { fields { ${leaf} } } }`);
    expect(one.status).toBe(200);
    expect((one.json?.data as { __type: { fields: unknown[] } }).__type.fields.length).toBeGreaterThan(10);
  });

  it("counts depth inside introspection: `ofType` 16 levels down is refused for an anonymous caller", async () => {
    const nested = (levels: number) => `{ __type(name: "Query") { ${'ofType { '.repeat(levels)}name${' }'.repeat(levels)} } }`;
    const deep = await postAnonymously(harness, nested(DEFAULT_QUERY_LIMITS.maxDepthAnonymous - 1));
    expectClearRefusal(deep, 'LIMIT_EXCEEDED');
    expect(deep.json?.errors?.[0]?.extensions).toMatchObject({ limit: 'depth' });
    expect((await postAnonymously(harness, nested(DEFAULT_QUERY_LIMITS.maxDepthAnonymous - 2))).status).toBe(200);
  });

  it("refuses lists of introspection nested past graphql-js's limit (its MaxIntrospectionDepthRule), which no alias needs to blow up", async () => {
    const answer = await postAnonymously(harness, '{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }');
    expect(answer.status).toBe(400);
    expect(codesOf(answer.json)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });

  it("answers the explorers' own introspection query, every option on, to an anonymous caller", async () => {
    const query = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true });
    const answer = await postAnonymously(harness, query);
    expect(answer.status).toBe(200);
    expect(answer.json?.errors).toBeUndefined();
    expect((answer.json?.data as { __schema: { types: unknown[] } }).__schema.types.length).toBeGreaterThan(100);
  });

  it("refuses the issue's document over WebSocket too", async () => {
    const socket = new WebSocket(harness.gateway.wsUrl, 'graphql-transport-ws');
    const messages: Array<{ type: string; payload?: unknown }> = [];
    await new Promise((resolve) => socket.once('open', resolve));
    const refused = new Promise<void>((resolve) =>
      socket.on('message', (data) => {
        const message = JSON.parse((data as Buffer).toString()) as { type: string; payload?: unknown };
        messages.push(message);
        if (message.type === 'connection_ack') socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: aliasedIntrospection(8, 80) } }));
        if (message.type === 'error' || message.type === 'next') resolve();
      }),
    );
    socket.send(JSON.stringify({ type: 'connection_init', payload: { 'PRIVATE-TOKEN': DEMO_TOKENS.guest } }));
    await refused;
    socket.terminate();
    expect(messages.at(-1)).toMatchObject({ type: 'error', payload: [{ extensions: { code: 'LIMIT_EXCEEDED', limit: 'aliases' } }] });
  });
});
