// Shared by the hostile-*.test.ts files (issue 15, "an adversarial suite of your own"): what every
// hostile input must leave untouched. Another caller's normal query answers correctly while the
// attack runs; no answer carries a stack trace, the upstream's address or a token; and the REST
// calls the attacker caused are counted apart from the bystander's one call.
import { Client } from 'undici';
import { expect } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import type { Harness } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

/** The bystander's query: one REST call, `GET /user`, which no attack in these files makes. */
export const BYSTANDER_QUERY = '{ currentUser { username } }';
const BYSTANDER_CALL = 'GET /user';

/**
 * Runs `attack` with another caller's normal query in flight at the same moment, and checks that
 * caller's answer (its content, never its timing). Returns what the attack returned.
 */
export async function withBystander<T>(harness: Harness, attack: () => Promise<T>): Promise<T> {
  const [result, bystander] = await Promise.all([attack(), harness.gateway.query(BYSTANDER_QUERY, {}, DEMO_TOKENS.maintainer)]);
  expect(bystander).toEqual({ data: { currentUser: { username: 'maintainer' } } });
  return result;
}

/** REST calls made since the test began, less the bystander's. */
export function attackerCalls(harness: Harness): string[] {
  return restCalls(harness.simulator).filter((call) => call !== BYSTANDER_CALL);
}

/** What no answer may carry: a stack frame, a source path, the upstream's address, a token. */
export function expectNothingLeaked(harness: Harness, text: string, secrets: string[] = []): void {
  expect(text).not.toMatch(/\n\s+at /);
  expect(text).not.toMatch(/node_modules|\/src\/[\w-]+\.ts|\.js:\d+/);
  expect(text).not.toContain(harness.simulator.origin);
  expect(text).not.toContain(new URL(harness.simulator.origin).host);
  expect(text).not.toMatch(/glpat-demo-/);
  for (const secret of secrets) expect(text).not.toContain(secret);
}

export interface RawAnswer {
  status: number;
  text: string;
  /** The body as JSON, or undefined when it is not JSON. */
  json: GraphQLBody | undefined;
}

export interface GraphQLBody {
  data?: unknown;
  errors?: Array<{ message: string; path?: Array<string | number>; extensions?: Record<string, unknown> }>;
}

/** Reads an answer whole, as status, text and (when it is JSON) the parsed body. */
export async function readAnswer(response: Response): Promise<RawAnswer> {
  const text = await response.text();
  let json: GraphQLBody | undefined;
  try {
    json = JSON.parse(text) as GraphQLBody;
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json };
}

/** The `extensions.code` of each error of an answer. */
export function codesOf(body: GraphQLBody | undefined): unknown[] {
  return (body?.errors ?? []).map((error) => error.extensions?.['code']);
}

/**
 * A clear refusal: a 4xx (or a 200 carrying GraphQL errors), every error with a code and none of
 * them INTERNAL_SERVER_ERROR.
 */
export function expectClearRefusal(answer: RawAnswer, code: string): void {
  expect(answer.status).toBeLessThan(500);
  expect(answer.json?.errors?.length).toBeGreaterThan(0);
  const codes = codesOf(answer.json);
  expect(codes).not.toContain('INTERNAL_SERVER_ERROR');
  expect(codes).not.toContain(undefined);
  expect(codes).toContain(code);
}

/**
 * Sends a request on a connection of its own, closed afterwards. For the requests a server answers
 * before reading their body (413): the gateway closes that connection after its answer, so it must
 * not be the one the next request of the test (the bystander's) is sent on.
 */
export async function sendAlone(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | FormData },
): Promise<RawAnswer> {
  let headers = init.headers ?? {};
  let body: string | Buffer | undefined = typeof init.body === 'string' ? init.body : undefined;
  if (init.body instanceof FormData) {
    const encoded = new Request('http://encoder.invalid/', { method: 'POST', body: init.body });
    headers = { ...headers, 'content-type': encoded.headers.get('content-type') ?? '' };
    body = Buffer.from(await encoded.arrayBuffer());
  }
  const client = new Client(new URL(url).origin);
  try {
    const response = await client.request({ path: new URL(url).pathname, method: init.method === 'GET' ? 'GET' : 'POST', headers, body });
    const text = await response.body.text();
    let json: GraphQLBody | undefined;
    try {
      json = JSON.parse(text) as GraphQLBody;
    } catch {
      json = undefined;
    }
    return { status: response.statusCode, text, json };
  } finally {
    await client.destroy();
  }
}
