// GitLab's runner list orders where REST's lists can give them: CREATED_ASC is REST's own order (by
// id), CREATED_DESC the list read from its end; the other CiRunnerSort values, and `active` against
// `paused`, are refused before any REST call. Written as GitLab's runner list pages ask (variables
// typed with GitLab's enums), run over real HTTP and checked against REST's list.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { estimateRestCalls } from '../../src/cost/estimate.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';

const { admin, maintainer } = DEMO_TOKENS;
const schema = createExecutableSchema();

const ALL_RUNNERS = `
query allRunnersSorted($sort: CiRunnerSort, $paused: Boolean, $active: Boolean, $type: CiRunnerType, $first: Int, $after: String, $last: Int, $before: String) {
  runners(sort: $sort, paused: $paused, active: $active, type: $type, first: $first, after: $after, last: $last, before: $before) {
    count
    nodes { id paused }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

const PROJECT_RUNNERS = `
query projectRunnersSorted($fullPath: ID!, $sort: CiRunnerSort, $first: Int) {
  project(fullPath: $fullPath) {
    id
    runners(sort: $sort, first: $first) { nodes { id } }
  }
}`;

interface RestRunner {
  id: number;
  paused: boolean;
}
type Page = { count: number | null; nodes: Array<{ id: string; paused: boolean }>; pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null } };
const gid = (runner: RestRunner) => `gid://gitlab/Ci::Runner/${runner.id}`;

describe('runner lists in GitLab\'s orders', () => {
  const harness = gatewayOverSimulator();
  const runnerListCalls = () => harness.simulator.requests.filter((request) => /\/runners(\/all)?$/.test(request.path)).length;

  it('validates against the schema', () => {
    expect(validate(schema, parse(ALL_RUNNERS))).toEqual([]);
    expect(validate(schema, parse(PROJECT_RUNNERS))).toEqual([]);
  });

  it('answers CREATED_ASC in REST\'s order and CREATED_DESC newest first, paging forward and back', async () => {
    const rest = await harness.oracle.all<RestRunner>('/runners/all', admin);
    expect(rest.length).toBeGreaterThan(60);
    const newestFirst = [...rest].reverse();

    const ascending = await harness.gateway.query<{ runners: Page }>(ALL_RUNNERS, { sort: 'CREATED_ASC', first: 5 }, admin);
    expect(ascending.errors).toBeUndefined();
    expect(ascending.data!.runners.nodes.map((node) => node.id)).toEqual(rest.slice(0, 5).map(gid));

    harness.simulator.resetRequests();
    const first = await harness.gateway.query<{ runners: Page }>(ALL_RUNNERS, { sort: 'CREATED_DESC', first: 5 }, admin);
    expect(first.errors).toBeUndefined();
    expect(first.data!.runners.nodes.map((node) => node.id)).toEqual(newestFirst.slice(0, 5).map(gid));
    expect(first.data!.runners.count).toBe(rest.length);
    expect(first.data!.runners.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    // The list fits in the head page that gives the total: one call.
    expect(runnerListCalls()).toBe(1);

    const next = await harness.gateway.query<{ runners: Page }>(ALL_RUNNERS, { sort: 'CREATED_DESC', first: 5, after: first.data!.runners.pageInfo.endCursor }, admin);
    expect(next.data!.runners.nodes.map((node) => node.id)).toEqual(newestFirst.slice(5, 10).map(gid));
    const oldest = await harness.gateway.query<{ runners: Page }>(ALL_RUNNERS, { sort: 'CREATED_DESC', last: 3 }, admin);
    expect(oldest.data!.runners.nodes.map((node) => node.id)).toEqual(newestFirst.slice(-3).map(gid));
    expect(oldest.data!.runners.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const back = await harness.gateway.query<{ runners: Page }>(ALL_RUNNERS, { sort: 'CREATED_DESC', last: 2, before: next.data!.runners.pageInfo.startCursor }, admin);
    expect(back.data!.runners.nodes.map((node) => node.id)).toEqual(newestFirst.slice(3, 5).map(gid));
  });

  it('reads a list longer than the head page from its end in two calls, filtered as asked', async () => {
    // 45 more unpaused instance runners: the list outgrows the head page of 100 that gives the total.
    for (let index = 0; index < 45; index++) {
      const created = await harness.oracle.call('POST', `/user/runners?runner_type=instance_type&description=sort-${index}`, admin);
      expect(created.status).toBe(201);
    }
    const unpaused = await harness.oracle.all<RestRunner>('/runners/all?paused=false', admin);
    expect(unpaused.length).toBeGreaterThan(100);
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<{ runners: Page }>(ALL_RUNNERS, { sort: 'CREATED_DESC', active: true, first: 10 }, admin);
    expect(result.errors).toBeUndefined();
    expect(result.data!.runners.nodes.map((node) => node.id)).toEqual([...unpaused].reverse().slice(0, 10).map(gid));
    expect(result.data!.runners.count).toBe(unpaused.length);
    const listReads = harness.simulator.requests.filter((request) => request.path === '/runners/all');
    expect(listReads.every((request) => request.query?.['paused'] === 'false')).toBe(true);
    expect(listReads).toHaveLength(2);
  });

  it('sends the head page with the project when the lookahead reads a project\'s runners newest first', async () => {
    const rest = await harness.oracle.all<RestRunner>(`/projects/${encodeURIComponent('gitlab-org/gitlab')}/runners`, maintainer);
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<{ project: { runners: { nodes: Array<{ id: string }> } } }>(PROJECT_RUNNERS, { fullPath: 'gitlab-org/gitlab', sort: 'CREATED_DESC', first: 3 }, maintainer);
    expect(result.errors).toBeUndefined();
    expect(result.data!.project.runners.nodes.map((node) => node.id)).toEqual([...rest].reverse().slice(0, 3).map(gid));
    // The project and one runner page, sent together: the page the lookahead sent is the one the list took.
    expect(harness.simulator.requests.map((request) => request.path)).toEqual(expect.arrayContaining(['/projects/gitlab-org%2Fgitlab', '/projects/gitlab-org%2Fgitlab/runners']));
    expect(harness.simulator.requests).toHaveLength(2);
  });

  it('counts the head page and the mirrored range in the cost estimate', () => {
    const estimate = (variables: Record<string, unknown>) => estimateRestCalls(schema, { document: parse(ALL_RUNNERS), variables }, { batching: true });
    expect(estimate({ sort: 'CREATED_DESC', first: 5 })).toBeGreaterThan(estimate({ sort: 'CREATED_ASC', first: 5 }));
  });

  it.each([
    ['an order REST cannot give', { sort: 'CONTACTED_ASC' }, 'sort'],
    ['`active` contradicting `paused`', { active: true, paused: true }, 'active'],
  ])('refuses %s with BAD_USER_INPUT before any REST call', async (_name, variables, argument) => {
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<{ runners: Page }>(ALL_RUNNERS, { first: 5, ...variables }, admin);
    expect(result.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(result.errors![0]!.message).toContain(`\`${argument}\``);
    expect(harness.simulator.requests).toHaveLength(0);
  });
});
