import { buildSchema, Kind, parse, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { compiledExecutor, namesAnObjectKey, writtenOutFields } from '../../src/server/compiled-execution.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

// Compiled operations (server/compiled-execution.ts): a document sent again runs as a compiled
// function. Each case is sent three times to the gateway as it ships (compiled from the second
// time on) and once to one that only interprets (COMPILED_OPERATIONS=off), over the same embedded
// v4 server: the answers, their HTTP statuses and the REST calls made must be the same.

const { admin } = DEMO_TOKENS;
const json = { 'content-type': 'application/json' };

interface Answer {
  status: number;
  body: unknown;
  calls: string[];
}

/** A request id is the request's own: left out of the comparison. */
function withoutRequestIds(text: string): unknown {
  return JSON.parse(text.replace(/"requestId":"[^"]*"/g, '"requestId":"-"')) as unknown;
}

describe('compiled operations over real HTTP', () => {
  let simulator: Simulator;
  let compiled: TestGateway;
  let interpreted: TestGateway;

  beforeAll(async () => {
    simulator = await startSimulator();
    compiled = await startTestGateway(simulator.url);
    interpreted = await startTestGateway(simulator.url, { compiledOperations: false });
  });
  afterAll(async () => {
    await compiled?.close();
    await interpreted?.close();
    await simulator?.close();
  });
  beforeEach(() => simulator.faults.clear());

  async function send(gateway: TestGateway, body: Record<string, unknown>, token: string | null): Promise<Answer> {
    simulator.resetRequests();
    const response = await fetch(gateway.url, { method: 'POST', headers: { ...json, ...(token ? { 'private-token': token } : {}) }, body: JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: withoutRequestIds(text), calls: simulator.requests.map((request) => `${request.method} ${request.path}`).sort() };
  }

  /** Three sends to the compiled gateway, one to the interpreting one: all alike. */
  async function expectSameAnswers(body: Record<string, unknown>, token: string | null = admin): Promise<Answer> {
    const reference = await send(interpreted, body, token);
    for (let time = 1; time <= 3; time += 1) expect(await send(compiled, body, token), `send ${time}`).toEqual(reference);
    return reference;
  }

  async function executions(): Promise<{ compiled: number; interpreted: number }> {
    const text = await (await fetch(new URL('/metrics', compiled.url))).text();
    const count = (engine: string) => Number(new RegExp(`gateway_operations_executed_total\\{engine="${engine}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
    return { compiled: count('compiled'), interpreted: count('interpreted') };
  }

  it('answers a nested page as the interpreter does, with the same REST calls, compiled from its second use', async () => {
    const before = await executions();
    const query = `query Fleet($first: Int!) { runners(first: $first) { count nodes { id status description tagList
      projects { nodes { fullPath } } jobs(first: 1) { nodes { id status commit { sha title } } } } } }`;
    const answer = await expectSameAnswers({ query, variables: { first: 10 } });
    expect(answer.status).toBe(200);
    expect(answer.calls.length).toBeGreaterThan(10);
    const after = await executions();
    // The first send is interpreted while graphql-jit loads; the two after it run compiled.
    expect(after.compiled - before.compiled).toBeGreaterThanOrEqual(1);
  });

  it("tells REST's refusals in the same codes, locations and paths", async () => {
    const answer = await expectSameAnswers({ query: 'query Users($search: String!) { users(search: $search) { nodes { id } } }', variables: { search: 'a' } }, null);
    expect(answer.body).toMatchObject({ errors: [{ extensions: { code: 'FORBIDDEN' }, path: ['users'], locations: [{ line: 1, column: expect.any(Number) as number }] }] });
  });

  it('refuses bad variables with 400 and BAD_USER_INPUT in graphql-js words, running nothing', async () => {
    const query = 'query Runner($id: CiRunnerID!, $first: Int) { runner(id: $id) { id jobs(first: $first) { count } } }';
    await expectSameAnswers({ query, variables: { id: 'gid://gitlab/Ci::Runner/1', first: 1 } });
    const answer = await expectSameAnswers({ query, variables: { id: 'gid://gitlab/Ci::Runner/1', first: 'many' } });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ errors: [{ extensions: { code: 'BAD_USER_INPUT' }, message: expect.stringMatching(/^Variable "\$first" got invalid value "many"/) as string }] });
    expect(answer.calls).toEqual([]);
  });

  it('refuses an operation name the document lacks, even one every object has', async () => {
    for (const operationName of ['Missing', 'toString', '__proto__']) {
      const answer = await expectSameAnswers({ query: 'query A { __typename } query B { __typename }', operationName });
      expect(answer.body).toMatchObject({ errors: [{ extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } }] });
    }
  });

  it('answers aliases, fragments and operations named after object keys as plain keys, by interpreting them', async () => {
    const before = await executions();
    const query = 'query constructor { __proto__: __typename constructor: __typename ...toString } fragment toString on Query { valueOf: __typename }';
    const answer = await expectSameAnswers({ query });
    expect(JSON.stringify(answer.body)).toContain('"__proto__":"Query"');
    expect(answer.body).toEqual({ data: expect.objectContaining({ constructor: 'Query', valueOf: 'Query' }) as unknown });
    expect(Object.prototype).not.toHaveProperty('Query');
    const after = await executions();
    expect(after.compiled).toBe(before.compiled);
  });

  it("tells a value REST sent of the wrong type as UPSTREAM_ERROR, compiled or not", async () => {
    simulator.faults.add({ method: 'GET', path: '/runners/1', kind: 'status', status: 200, body: '{"id":1,"description":{"a":1}}', headers: json });
    const answer = await expectSameAnswers({ query: '{ runner(id: "gid://gitlab/Ci::Runner/1") { id description } }' });
    expect(answer.body).toMatchObject({ data: { runner: { id: 'gid://gitlab/Ci::Runner/1', description: null } }, errors: [{ extensions: { code: 'UPSTREAM_ERROR' }, path: ['runner', 'description'] }] });
  });
});

describe('what decides whether a document is compiled', () => {
  it('counts the fields with fragments written out without writing them out, and stops at the cap', () => {
    // Each fragment spreads the one before under two fields: 2^40 fields written out.
    const fragments = Array.from({ length: 40 }, (_, level) =>
      level === 0 ? 'fragment F0 on Query { __typename }' : `fragment F${level} on Query { a: __typename ...F${level - 1} b: __typename ...F${level - 1} }`,
    );
    const document = parse(`query { ...F39 } ${fragments.join(' ')}`, { noLocation: true });
    const operation = document.definitions[0]!;
    if (operation.kind !== Kind.OPERATION_DEFINITION) throw new Error('the operation comes first');
    expect(writtenOutFields(document, operation, 2_000)).toBe(2_001);
    expect(writtenOutFields(document, operation, Number.MAX_SAFE_INTEGER)).toBeGreaterThan(2 ** 40);
    const small = parse('query { a: __typename ...F } fragment F on Query { b: __typename c: __typename }');
    expect(writtenOutFields(small, small.definitions[0] as never, 2_000)).toBe(3);
  });

  it("finds the caller's names that are keys of every object, not the schema's", () => {
    expect(namesAnObjectKey(parse('{ __proto__: __typename }'))).toBe(true);
    expect(namesAnObjectKey(parse('query toString { __typename }'))).toBe(true);
    expect(namesAnObjectKey(parse('query Q($valueOf: Int) { __typename }'))).toBe(true);
    expect(namesAnObjectKey(parse('{ ...hasOwnProperty } fragment hasOwnProperty on Query { __typename }'))).toBe(true);
    expect(namesAnObjectKey(parse('query Fleet { runners(first: 1) { nodes { id } } }'))).toBe(false);
  });

  it('compiles no more fields a second than its budget, interpreting the rest meanwhile, and nothing past its field cap', async () => {
    const schema = buildSchema('type Query { a: Int b: Int c: Int d: Int e: Int f: Int g: Int h: Int i: Int j: Int }');
    const engines: string[] = [];
    const execute = compiledExecutor(schema, { compileAfterUses: 2, maxCompiledFields: 12, compiledFieldsPerSecond: 10, onRun: (engine) => engines.push(engine) });
    const run = (document: DocumentNode) =>
      execute({ document, operation: document.definitions[0] as OperationDefinitionNode, request: { variables: {} }, context: {} } as never);
    const tenFields = parse('{ a b c d e f g h i j }');
    const otherTen = parse('{ j i h g f e d c b a }');
    const thirteen = parse('{ a b c d e f g h i j x: a y: b z: c }');
    for (const document of [tenFields, otherTen, thirteen]) await run(document);
    // graphql-jit loads in the meantime; the budget (10 fields a second) pays for one of the two.
    await new Promise((resolve) => setTimeout(resolve, 100));
    engines.length = 0;
    for (const document of [tenFields, otherTen, thirteen, tenFields, otherTen]) expect((await run(document)).errors).toBeUndefined();
    expect(engines).toEqual(['compiled', 'interpreted', 'interpreted', 'compiled', 'interpreted']);
  });
});
