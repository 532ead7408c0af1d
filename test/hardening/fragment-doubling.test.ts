import { describe, expect, it } from 'vitest';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { DEFAULT_QUERY_LIMITS } from '../../src/policy/limits.js';
import { branchingQuery, doublingParentsQuery, doublingQuery, doublingSubgroupsQuery } from '../support/fragment-shapes.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

// Issue 15: a query of a few hundred characters whose fragments, written out, hold 2^n fields.
// The limits and the REST-call estimate used to expand every spread on every path, blocking the
// event loop for seconds before refusing it as needing millions of REST calls. Now the gateway
// answers it as graphql-js runs it: one field, one REST call. These requests finishing at all,
// at 60 fragments (2^60 paths), is the proof that the walk no longer expands; no time is measured.
const { maintainer } = DEMO_TOKENS;

describe('fragments spread twice, level after level (issue 15)', () => {
  const harness = gatewayOverSimulator({ runnerPollIntervalMs: 60_000 });

  describe.each([30, 60])('%i fragments', (fragments) => {
    it('over HTTP with a credential: answers the current user with one REST call', async () => {
      const result = await harness.gateway.query(doublingQuery(fragments), {}, maintainer);
      expect(result).toEqual({ data: { currentUser: { username: 'maintainer' } } });
      expect(restCalls(harness.simulator)).toEqual(['GET /user']);
    });

    it('over HTTP without a credential: answers as it answers `{ currentUser { username } }`, with no REST call', async () => {
      const result = await harness.gateway.query(doublingQuery(fragments));
      // Without a credential there is no current user, and REST is not asked.
      expect(result).toEqual({ data: { currentUser: null } });
      expect(await harness.gateway.query('{ currentUser { username } }')).toEqual(result);
      expect(restCalls(harness.simulator)).toEqual([]);
    });

    it('over HTTP without a credential: refuses a tree of as many fragments as too deep, at once and with its code', async () => {
      const result = await harness.gateway.query(branchingQuery(fragments));
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'depth' });
      expect(restCalls(harness.simulator)).toEqual([]);
    });

    it('over WebSocket with a credential: answers the current user with one REST call', async () => {
      let connected!: () => void;
      const ready = new Promise<void>((resolve) => (connected = resolve));
      const client: Client = createClient({
        url: harness.gateway.wsUrl,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        lazy: false,
        connectionParams: { 'PRIVATE-TOKEN': maintainer },
        on: { connected: () => connected() },
      });
      try {
        await ready;
        // The connection's credential check is behind us: what follows is the operation's.
        harness.simulator.resetRequests();
        const result = await new Promise<unknown>((resolve, reject) => {
          client.subscribe({ query: doublingQuery(fragments) }, { next: resolve, error: reject, complete: () => {} });
        });
        expect(result).toEqual({ data: { currentUser: { username: 'maintainer' } } });
        expect(restCalls(harness.simulator)).toEqual(['GET /user']);
      } finally {
        await client.dispose();
      }
    });

    it('runs the lookahead over the same shape: the subgroup list goes out once, beside the group', async () => {
      const result = await harness.gateway.query<{ group: { subgroups: { nodes: Array<{ name: string }> } } }>(doublingSubgroupsQuery(fragments, 'gitlab-org'), {}, maintainer);
      expect(result.errors).toBeUndefined();
      expect(result.data?.group.subgroups.nodes.length).toBeGreaterThan(0);
      expect(restCalls(harness.simulator).sort()).toEqual(['GET /groups/gitlab-org', 'GET /groups/gitlab-org/subgroups']);
    });
  });

  it('merges a field asked twice under one response key, through every fragment: a chain of parents costs one call each', async () => {
    // 13 fields deep, within the anonymous depth limit: the group and up to 12 parents.
    const result = await harness.gateway.query<{ group: { parent: { parent: null } } }>(doublingParentsQuery(12), {}, maintainer);
    expect(result.errors).toBeUndefined();
    expect(result.data?.group.parent.parent).toBeNull();
    // gitlab-org/frontend and its parent, gitlab-org, which has none.
    expect(restCalls(harness.simulator)).toHaveLength(2);
  });

  it('refuses a tree of fragments within the depth limit for the REST calls it may really make, with no REST call', async () => {
    // 14 fields deep; every level reads a parent and a page of subgroups, each of which reads on:
    // millions of calls on a deep enough tree, and an estimate that says so.
    const result = await harness.gateway.query(branchingQuery(6));
    expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'cost', maxRestCalls: DEFAULT_QUERY_LIMITS.maxRestCalls });
    expect(result.errors?.[0]?.extensions?.['estimate']).toBeGreaterThan(1_000_000);
    expect(restCalls(harness.simulator)).toEqual([]);
  });
});
