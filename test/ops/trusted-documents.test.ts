// Issue 30, trusted documents: with TRUSTED_DOCUMENTS (the `trustedDocuments` option) the gateway
// runs only the documents of a manifest (the client preset's persisted-documents.json), sent by id
// over POST, GET, batches and graphql-ws; anything else is refused before parsing with Apollo
// Router's codes and no REST call; the manifest reloads when its file changes, and a broken one
// leaves the list in force.
import { createHash } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SubscribePayload } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleet } from '../../examples/client/run.js';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { createGateway } from '../../src/index.js';
import { ID_REQUIRED, ManifestError, NOT_IN_LIST, parseManifest } from '../../src/policy/trusted-documents.js';
import { connectWebSocket } from '../embedding/support.js';
import { startTestGateway, type GraphQLResponse, type TestGateway } from '../support/gateway.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';
import { eventually } from '../support/wait.js';
import { logCollector, metricSample, postGraphQL } from './support.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const auth = { 'private-token': DEMO_TOKENS.maintainer };

const ME = '{ currentUser { username } }';
const RUNNERS = 'query Runners($first: Int!) { ownedRunners(first: $first) { count nodes { id description status } } }';
const LATER = '{ currentUser { name: username } }';
const NOT_LISTED = '{ currentUser { id } }';

/** A manifest as the client preset writes it: `sha256:<hex>` ids. */
const manifestOf = (...documents: string[]) => `${JSON.stringify(Object.fromEntries(documents.map((text) => [`sha256:${sha256(text)}`, text])), null, 2)}\n`;

const directory = mkdtempSync(join(tmpdir(), 'trusted-documents-'));
const manifestPath = join(directory, 'persisted-documents.json');

/** Replaces the manifest as a ConfigMap update does: a new file renamed over the old one. */
function deployManifest(text: string): void {
  const next = `${manifestPath}.next`;
  writeFileSync(next, text);
  renameSync(next, manifestPath);
}

async function getOperation(url: string, parameters: Record<string, string>): Promise<{ status: number; body: GraphQLResponse }> {
  const target = new URL(url);
  for (const [name, value] of Object.entries(parameters)) target.searchParams.set(name, value);
  const response = await fetch(target, { headers: { ...auth, 'apollo-require-preflight': 'true' } });
  return { status: response.status, body: (await response.json()) as GraphQLResponse };
}

/** One operation over graphql-ws, its payload as given (graphql-ws's client needs a `query`: an empty one with an id). */
async function overWebSocket(url: string, payload: Record<string, unknown>): Promise<unknown> {
  const { client } = connectWebSocket(url, { 'PRIVATE-TOKEN': DEMO_TOKENS.maintainer });
  try {
    return await new Promise((resolve, reject) => {
      let result: unknown;
      client.subscribe(payload as unknown as SubscribePayload, {
        next: (value) => (result = value),
        error: (error) => resolve({ errors: error }),
        complete: () => resolve(result),
      });
      setTimeout(() => reject(new Error('no answer over WebSocket')), 5_000).unref();
    });
  } finally {
    await client.dispose();
  }
}

/** The first `next` or `error` payload for a `subscribe` sent over a raw socket, as a client of its own may send it (no `query`). */
async function overRawSocket(url: string, payload: Record<string, unknown>): Promise<unknown> {
  const socket = new WebSocket(url, 'graphql-transport-ws');
  try {
    return await new Promise((resolve, reject) => {
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { 'PRIVATE-TOKEN': DEMO_TOKENS.maintainer } })));
      socket.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString('utf8')) as { type: string; payload?: unknown };
        if (message.type === 'connection_ack') socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload }));
        else if (message.type === 'next' || message.type === 'error') resolve(message.payload);
      });
      socket.on('close', (code) => reject(new Error(`closed with ${code}`)));
      socket.on('error', reject);
    });
  } finally {
    socket.close();
  }
}

describe('the manifest', () => {
  it('reads the client preset format, ids bare or after sha256:, each checked against its text', () => {
    const manifest = parseManifest(JSON.stringify({ [`sha256:${sha256(ME)}`]: ME, [sha256(LATER)]: LATER }));
    expect(manifest.byId.get(sha256(ME))).toBe(ME);
    expect(manifest.byId.get(sha256(LATER))).toBe(LATER);
  });

  it('refuses an entry that does not hash to its id, naming the id and never the document', () => {
    const id = `sha256:${sha256(ME)}`;
    expect(() => parseManifest(JSON.stringify({ [id]: NOT_LISTED }))).toThrow(new ManifestError(`the document of id ${id} does not hash to its id (SHA-256 of its text)`));
    expect(() => parseManifest(JSON.stringify({ 'not-an-id': ME }))).toThrow(/is not a SHA-256/);
    expect(() => parseManifest(JSON.stringify([ME]))).toThrow(/JSON object of document id/);
    let message = '';
    try {
      parseManifest('{ "secret document text');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe('the manifest is not valid JSON');
  });
});

describe('trusted documents over HTTP and WebSocket', () => {
  const harness = gatewayOverSimulator({ allowBatchedHttpRequests: true });
  const log = logCollector('info');
  let trusted: TestGateway;
  let strict: TestGateway;

  beforeAll(async () => {
    deployManifest(manifestOf(ME, RUNNERS));
    const options = { allowBatchedHttpRequests: true, logger: log.logger };
    trusted = await startTestGateway(harness.simulator.url, { ...options, trustedDocuments: { path: manifestPath, pollIntervalMs: 50 } });
    strict = await startTestGateway(harness.simulator.url, { trustedDocuments: { path: manifestPath, requireId: true, pollIntervalMs: 50 } });
  });
  afterAll(async () => {
    await Promise.all([trusted?.close(), strict?.close()]);
    rmSync(directory, { recursive: true, force: true });
  });

  it('runs a document of the list by documentId and by persistedQuery over POST, with the data it has without the list', async () => {
    const variables = { first: 3 };
    const withoutList = await harness.gateway.query(RUNNERS, variables, DEMO_TOKENS.maintainer);
    expect(withoutList.errors).toBeUndefined();
    for (const documentId of [`sha256:${sha256(RUNNERS)}`, sha256(RUNNERS)]) {
      expect((await postGraphQL(trusted.url, { documentId, variables }, auth)).body).toEqual(withoutList);
    }
    const byExtension = await postGraphQL(trusted.url, { variables, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(RUNNERS) } } }, auth);
    expect(byExtension.body).toEqual(withoutList);
  });

  it('runs them over GET and in a batch', async () => {
    const expected = { data: { currentUser: { username: 'maintainer' } } };
    expect((await getOperation(trusted.url, { documentId: `sha256:${sha256(ME)}` })).body).toEqual(expected);
    expect((await getOperation(trusted.url, { extensions: JSON.stringify({ persistedQuery: { version: 1, sha256Hash: sha256(ME) } }) })).body).toEqual(expected);
    const batch = await postGraphQL(
      trusted.url,
      [{ documentId: `sha256:${sha256(ME)}` }, { extensions: { persistedQuery: { version: 1, sha256Hash: sha256(ME) } } }, { query: ME }],
      auth,
    );
    expect(batch.body).toEqual([expected, expected, expected]);
  });

  it('runs them over graphql-ws, by documentId and by persistedQuery', async () => {
    const expected = { data: { currentUser: { username: 'maintainer' } } };
    const wsUrl = trusted.wsUrl;
    expect(await overWebSocket(wsUrl, { query: '', documentId: `sha256:${sha256(ME)}` })).toEqual(expected);
    expect(await overWebSocket(wsUrl, { query: '', extensions: { persistedQuery: { version: 1, sha256Hash: sha256(ME) } } })).toEqual(expected);
    expect(await overRawSocket(wsUrl, { documentId: `sha256:${sha256(ME)}` })).toEqual(expected);
  });

  it('refuses an unknown id and free-form text the list lacks before any REST call, on every way in', async () => {
    harness.simulator.resetRequests();
    const unknown = await postGraphQL(trusted.url, { documentId: `sha256:${sha256(NOT_LISTED)}` }, auth);
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors?.[0]?.extensions).toEqual({ code: NOT_IN_LIST });
    const freeForm = await postGraphQL(trusted.url, { query: NOT_LISTED }, auth);
    expect(freeForm.status).toBe(400);
    expect(freeForm.body.errors?.[0]?.extensions).toEqual({ code: ID_REQUIRED });
    expect(freeForm.body.errors?.[0]?.message).toMatch(/trusted documents only/);
    const overGet = await getOperation(trusted.url, { query: NOT_LISTED });
    expect([overGet.status, overGet.body.errors?.[0]?.extensions?.['code']]).toEqual([400, ID_REQUIRED]);
    const batch = await postGraphQL(trusted.url, [{ query: ME }, { documentId: sha256(NOT_LISTED) }], auth);
    expect([batch.status, batch.body.errors?.[0]?.extensions?.['code']]).toEqual([400, NOT_IN_LIST]);
    // Hostile ids: long, not hex, not a string; bounded before any lookup.
    for (const documentId of ['x'.repeat(100_000), 'sha256:zz', 42, { $ne: null }]) {
      const answer = await postGraphQL(trusted.url, { documentId }, auth);
      expect([answer.status, answer.body.errors?.[0]?.extensions?.['code']]).toEqual([400, NOT_IN_LIST]);
    }
    expect(restCalls(harness.simulator)).toEqual([]);
    const overWs = (await overWebSocket(trusted.wsUrl, { query: '', documentId: sha256(NOT_LISTED) })) as { errors: Array<{ extensions?: unknown }> };
    expect(overWs.errors[0]?.extensions).toEqual({ code: NOT_IN_LIST });
    const freeOverWs = (await overWebSocket(trusted.wsUrl, { query: NOT_LISTED })) as { errors: Array<{ extensions?: unknown }> };
    expect(freeOverWs.errors[0]?.extensions).toEqual({ code: ID_REQUIRED });
    // Each socket's connection_init is checked with GET /user; the refused operations made no call.
    expect(restCalls(harness.simulator)).toEqual(['GET /user', 'GET /user']);
    const metrics = await (await fetch(new URL('/metrics', trusted.url))).text();
    expect(metricSample(metrics, 'gateway_trusted_documents')).toBe(2);
    expect(metricSample(metrics, 'gateway_trusted_documents_refusals_total', { code: NOT_IN_LIST })).toBeGreaterThanOrEqual(7);
  });

  it('never lets APQ register a document the list lacks', async () => {
    harness.simulator.resetRequests();
    const persisted = { persistedQuery: { version: 1, sha256Hash: sha256(NOT_LISTED) } };
    const registration = await postGraphQL(trusted.url, { query: NOT_LISTED, extensions: persisted }, auth);
    expect([registration.status, registration.body.errors?.[0]?.extensions?.['code']]).toEqual([400, NOT_IN_LIST]);
    const byHash = await postGraphQL(trusted.url, { extensions: persisted }, auth);
    expect(byHash.body.errors?.[0]?.extensions?.['code']).toBe(NOT_IN_LIST);
    const mismatch = await postGraphQL(trusted.url, { query: NOT_LISTED, documentId: sha256(ME) }, auth);
    expect([mismatch.status, mismatch.body.errors?.[0]?.extensions?.['code']]).toEqual([400, 'BAD_REQUEST']);
    expect(restCalls(harness.simulator)).toEqual([]);
  });

  it('accepts free-form text of the list unless ids are required', async () => {
    expect((await postGraphQL(trusted.url, { query: ME }, auth)).body).toEqual({ data: { currentUser: { username: 'maintainer' } } });
    const refused = await postGraphQL(strict.url, { query: ME }, auth);
    expect([refused.status, refused.body.errors?.[0]?.extensions?.['code']]).toEqual([400, ID_REQUIRED]);
    expect((await postGraphQL(strict.url, { documentId: sha256(ME) }, auth)).body).toEqual({ data: { currentUser: { username: 'maintainer' } } });
  });

  it("holds a BFF's own mount of Apollo to the list too", async () => {
    const { gateway } = trusted;
    const run = (query: string) => gateway.apollo.executeOperation({ query }, { contextValue: gateway.createContext(null) });
    const refused = await run(NOT_LISTED);
    expect(refused.body.kind === 'single' && refused.body.singleResult.errors?.[0]?.extensions?.['code']).toBe(ID_REQUIRED);
    const listed = await run(ME);
    expect(listed.body.kind === 'single' && listed.body.singleResult.errors).toBeUndefined();
  });

  it('reloads the manifest when its file changes; a broken one keeps the list in force, logged and counted', async () => {
    const runs = async (text: string) => (await postGraphQL(trusted.url, { documentId: sha256(text) }, auth)).body.errors === undefined;
    const codeOf = async (text: string) => (await postGraphQL(trusted.url, { documentId: sha256(text), variables: { first: 1 } }, auth)).body.errors?.[0]?.extensions?.['code'];
    deployManifest(manifestOf(ME, LATER));
    await eventually(() => runs(LATER), 5_000, 'the new document accepted');
    expect(await codeOf(RUNNERS)).toBe(NOT_IN_LIST);

    log.clear();
    deployManifest(JSON.stringify({ [`sha256:${sha256(ME)}`]: `${NOT_LISTED} # secret-marker` }));
    const failures = async () => metricSample(await (await fetch(new URL('/metrics', trusted.url))).text(), 'gateway_trusted_documents_reload_failures_total') ?? 0;
    await eventually(async () => (await failures()) >= 1, 5_000, 'the broken manifest refused');
    expect(await runs(LATER)).toBe(true);
    expect(await runs(ME)).toBe(true);
    const warning = log.lines().find((line) => line.msg.startsWith('trusted documents manifest refused'));
    expect(warning).toMatchObject({ path: manifestPath, reason: expect.stringContaining(`sha256:${sha256(ME)}`) as unknown });
    expect(log.text()).not.toContain('secret-marker');

    deployManifest('{ not json');
    await eventually(async () => (await failures()) >= 2, 5_000, 'the second broken manifest refused');
    expect(await runs(LATER)).toBe(true);
  });

  it('refuses to start on a manifest it cannot use, saying why', () => {
    const broken = join(directory, 'broken.json');
    writeFileSync(broken, JSON.stringify({ [sha256(ME)]: NOT_LISTED }));
    expect(() => createGateway({ upstreamUrl: harness.simulator.url, trustedDocuments: { path: broken } })).toThrow(/does not hash to its id/);
    expect(() => createGateway({ upstreamUrl: harness.simulator.url, trustedDocuments: { path: join(directory, 'missing.json') } })).toThrow(/cannot read .*ENOENT/);
  });

  it("loads the example client's generated manifest and runs its documents by id", async () => {
    const example = await startTestGateway(harness.simulator.url, { trustedDocuments: { path: 'examples/client/gql/persisted-documents.json' } });
    try {
      const byText = await fleet({ url: harness.gateway.url, token: DEMO_TOKENS.maintainer }, 3);
      expect(await fleet({ url: example.url, token: DEMO_TOKENS.maintainer, trustedDocuments: true }, 3)).toEqual(byText);
      // The text the client holds is its source's, not the manifest's normalised print: not in the list.
      await expect(fleet({ url: example.url, token: DEMO_TOKENS.maintainer }, 3)).rejects.toThrow(/trusted documents only/);
    } finally {
      await example.close();
    }
  });
});
