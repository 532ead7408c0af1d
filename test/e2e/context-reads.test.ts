import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { ApolloServerPlugin } from '@apollo/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import type { GatewayContext } from '../../src/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

// Apollo Server runs each operation with a shallow copy of the context, and its gateway seam (the
// compiled operations' executor) keeps that copy reachable past the response, from an object V8
// frees only at its next full collection. A copy that still held the request's loaders kept every
// REST answer of the request alive through the young generation's collections into the old one
// (docs/performance.md). Once an operation has its response, its context forgets what it read.

// A full collection on demand, as `--expose-gc` gives it, to see what nothing holds any more.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

const admin = 'glpat-demo-admin';
const RUNNER_VERSION = '{ runner(id: "gid://gitlab/Ci::Runner/41") { id version } }';

/** What a plugin saw of each operation: Apollo's copy of the context, and the runner loader it read with. */
interface Seen {
  copy: GatewayContext;
  runnerLoader: WeakRef<GatewayContext['loaders']['runner']>;
}

describe("an operation's context once it has its response", () => {
  let simulator: Simulator;
  let gateway: TestGateway;
  const seen: Seen[] = [];
  const keepCopies: ApolloServerPlugin<GatewayContext> = {
    requestDidStart: () =>
      Promise.resolve({
        executionDidStart: ({ contextValue }) => {
          seen.push({ copy: contextValue, runnerLoader: new WeakRef(contextValue.loaders.runner) });
          return Promise.resolve();
        },
      }),
  };

  beforeAll(async () => {
    simulator = await startSimulator();
    gateway = await startTestGateway(simulator.url, { allowBatchedHttpRequests: true, beforeListen: (apollo) => apollo.addPlugin(keepCopies) });
  });
  afterAll(async () => {
    await gateway?.close();
    await simulator?.close();
  });
  beforeEach(() => {
    seen.length = 0;
    simulator.resetRequests();
  });

  const runnerCalls = () => simulator.requests.filter((request) => request.path === '/runners/41').length;

  it('keeps none of the records it read, even in the copy Apollo keeps', async () => {
    // Sent twice: the second use runs compiled, through the seam that keeps the copy.
    for (let use = 0; use < 2; use++) {
      const result = await gateway.query(RUNNER_VERSION, {}, admin);
      expect(result.errors).toBeUndefined();
    }
    expect(seen).toHaveLength(2);
    expect(runnerCalls()).toBe(2);

    await nextTurn();
    collectGarbage();
    await nextTurn();
    for (const { copy, runnerLoader } of seen) {
      // The copy is held here, as the seam holds it; the loader it read with, and its cache, are gone all the same.
      expect(copy.requestId).toEqual(expect.any(String));
      expect(runnerLoader.deref()).toBeUndefined();
    }
    // Read again through the kept copy, the runner is asked of REST afresh: nothing was cached.
    const last = seen[1]!.copy;
    await expect(last.loaders.runner.load(41)).resolves.toMatchObject({ id: 41 });
    expect(runnerCalls()).toBe(3);
  });

  it('works the same with a context spread into an embedder\'s own, and forgets for both', async () => {
    // What an embedder may do to add fields of their own: a copy without the context's prototype.
    const contextValue = { ...gateway.gateway.createContext(null), tenant: 'acme' };
    const query = '{ project(fullPath: "gitlab-org/gitaly") { fullPath } }';
    const projectCalls = () => simulator.requests.filter((request) => request.path === '/projects/gitlab-org%2Fgitaly').length;
    for (let use = 1; use <= 2; use++) {
      const response = await gateway.gateway.apollo.executeOperation({ query }, { contextValue });
      expect(response.body).toMatchObject({ kind: 'single', singleResult: { data: { project: { fullPath: 'gitlab-org/gitaly' } } } });
      // Each operation reads afresh: the one before let go of what it read.
      expect(projectCalls()).toBe(use);
    }
    expect(contextValue.tenant).toBe('acme');
  });

  it("shares one batch's reads among its operations until the last has its response", async () => {
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'private-token': admin },
      body: JSON.stringify([{ query: RUNNER_VERSION }, { query: '{ twice: runner(id: "gid://gitlab/Ci::Runner/41") { id status } }' }]),
    });
    const answers = (await response.json()) as Array<{ data?: unknown; errors?: unknown }>;
    expect(answers.map((answer) => answer.errors)).toEqual([undefined, undefined]);
    expect(seen).toHaveLength(2);
    // Both operations read runner 41 from the loaders of the one HTTP request: one REST call.
    expect(runnerCalls()).toBe(1);
  });
});
