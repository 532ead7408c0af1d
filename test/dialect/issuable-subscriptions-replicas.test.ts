import { createHmac } from 'node:crypto';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { restOracle } from '../support/rest-oracle.js';
import { connect } from '../support/runner-watch.js';
import { eventually, until } from '../support/wait.js';
import { startRedis, type TestRedis } from '../replicas/support/redis-server.js';
import { startReplicas, type Replica } from '../replicas/support/replica.js';
import { ISSUE_PAGE, documentOf, subscribe, type RestIssue } from './support/issuable-subscriptions.js';

/**
 * Three replicas of the command line over one embedded v4 server and one Redis: a client reads an
 * issue from one and subscribes to it on the two others, as a load balancer spreads a browser's
 * HTTP and WebSocket traffic. Counts, not durations: polls can only be late, never early.
 */
const POLL_MS = 200;
const KEY_SECRET = 'issuable-replica-secret-0123456789';
const PREFIX = 'gw-issuable:';
const PROJECT = 'gitlab-org/gitlab-runner';
const { admin, developer, maintainer } = DEMO_TOKENS;

describe('issuable subscriptions across three replicas sharing one Redis', () => {
  let simulator: Simulator;
  let redis: TestRedis;
  let replicas: Replica[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    [simulator, redis] = await Promise.all([startSimulator(), startRedis()]);
    replicas = await startReplicas(3, {
      V4_URL: simulator.url,
      REDIS_URL: redis.url,
      REDIS_KEY_SECRET: KEY_SECRET,
      REDIS_KEY_PREFIX: PREFIX,
      RUNNER_POLL_INTERVAL_MS: String(POLL_MS),
    });
  }, 60_000);

  afterAll(async () => {
    for (const client of clients) await client.dispose();
    for (const replica of replicas) replica.child.kill('SIGKILL');
    await Promise.all(replicas.map((replica) => replica.exited));
    await redis?.close();
    await simulator?.close();
  });

  it('finds on every replica an issue read from one, and polls it once per interval in all', async () => {
    const [first, second, third] = replicas as [Replica, Replica, Replica];
    const [issue] = await restOracle(simulator).all<RestIssue>(`/projects/${encodeURIComponent(PROJECT)}/issues?state=opened`, admin);
    const path = `/projects/${issue!.project_id}/issues/${issue!.iid}`;
    const pollsOf = () => simulator.requests.filter((request) => request.method === 'GET' && request.path === path).length;

    // A developer's issue page, served by the first replica.
    const page = await first.post({ query: ISSUE_PAGE, variables: { fullPath: PROJECT, iid: String(issue!.iid) } }, developer);
    expect(page.body.errors).toBeUndefined();
    const issuableId = (page.body.data as { project: { issue: { id: string } } }).project.issue.id;

    // Its sidebar subscribes on the two others: no administrator-only look-up by global ID is needed.
    simulator.resetRequests();
    const toSecond = connect(second, { 'PRIVATE-TOKEN': developer });
    const toThird = connect(third, { 'PRIVATE-TOKEN': developer });
    clients.push(toSecond, toThird);
    const labels = subscribe(toSecond, documentOf('labels'), { issuableId });
    const title = subscribe(toThird, documentOf('title'), { issuableId });
    await until(() => pollsOf() >= 2); // the first poll of each subscription
    const digest = createHmac('sha256', KEY_SECRET).update(`private-token\0${developer}`).digest('base64url');
    expect(simulator.requests.some((request) => request.path === `/issues/${issue!.id}`)).toBe(false);
    // The first polls may come before either replica has taken the lease: wait for the state, not a time.
    let leaseHolder: string | null = null;
    await eventually(async () => (leaseHolder = await redis.client.get(`${PREFIX}issue-lease:${digest}:${issue!.id}`)) !== null, 5_000, 'an issue lease');
    expect([second.replicaId(), third.replicaId()]).toContain(leaseHolder);

    // One poller across replicas: a count over a window below what two pollers would make.
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 2));
    simulator.resetRequests();
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 8));
    const polls = pollsOf();
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(polls).toBeLessThanOrEqual(Math.floor((performance.now() - started) / POLL_MS) + 1);

    // A label added through REST reaches the labels subscriber, whichever replica polls; the title one hears nothing.
    const [label] = (await restOracle(simulator).get<Array<{ name: string }>>(`/projects/${issue!.project_id}/labels`, maintainer)).filter(
      (candidate) => !issue!.labels.includes(candidate.name),
    );
    const response = await fetch(`${simulator.url}${path}`, {
      method: 'PUT',
      headers: { 'private-token': maintainer, 'content-type': 'application/json' },
      body: JSON.stringify({ add_labels: label!.name }),
    });
    expect(response.status).toBe(200);
    const event = await labels.nextEvent();
    const nodes = (event.data?.['issuableLabelsUpdated'] as { labels: { nodes: Array<{ title: string }> } }).labels.nodes;
    expect(nodes.map((node) => node.title)).toContain(label!.name);
    const pollsAfter = pollsOf();
    await until(() => pollsOf() >= pollsAfter + 2);
    expect(title.events).toEqual([]);

    labels.dispose();
    title.dispose();
    await new Promise((resolve) => setTimeout(resolve, POLL_MS)); // a poll already on the wire lands
    const atStop = pollsOf();
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 4));
    expect(pollsOf() - atStop).toBe(0);
  });
});
