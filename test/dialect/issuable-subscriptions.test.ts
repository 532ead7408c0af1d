import { parse, validate } from 'graphql';
import type { Client } from 'graphql-ws';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, type Simulator } from '../../simulator/index.js';
import { buildSchemaFromFiles } from '../../src/schema/sdl.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { connect } from '../support/runner-watch.js';
import { until } from '../support/wait.js';
import { ASPECTS, FIELD_OF, ISSUE_PAGE, documentOf, subscribe, type Aspect, type RestIssue } from './support/issuable-subscriptions.js';

const schema = buildSchemaFromFiles();
const { admin, maintainer, developer } = DEMO_TOKENS;
const PROJECT = 'gitlab-org/gitlab-runner';
const POLL_MS = 40;

const pollsOf = (simulator: Simulator, issue: RestIssue) =>
  simulator.requests.filter((request) => request.method === 'GET' && request.path === `/projects/${issue.project_id}/issues/${issue.iid}`).length;

describe('issuable subscriptions', () => {
  const harness = gatewayOverSimulator({ runnerPollIntervalMs: POLL_MS });
  const clients: Client[] = [];
  afterAll(async () => {
    for (const client of clients) await client.dispose();
  });

  const pollers = () => harness.gateway.gateway.pollers;

  /** A REST write to the embedded server, as another client of GitLab would make it. */
  async function restWrite<T = RestIssue>(method: 'PUT' | 'POST', path: string, body: Record<string, unknown>, token = maintainer): Promise<T> {
    const before = harness.simulator.requests.length;
    const response = await fetch(`${harness.simulator.url}${path}`, {
      method,
      headers: { 'private-token': token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as T;
    harness.simulator.requests.splice(before, 1); // not the gateway's call
    expect(response.status).toBeLessThan(300);
    return answer;
  }

  /** An open issue of the project as REST shows it, and the global ID the gateway served for it. */
  async function anIssue(token: string, skip = 0): Promise<{ issue: RestIssue; issuableId: string }> {
    const issues = await harness.oracle.all<RestIssue>(`/projects/${encodeURIComponent(PROJECT)}/issues?state=opened`, admin);
    const issue = issues[skip]!;
    const page = await harness.gateway.query<{ project: { issue: { id: string } } }>(ISSUE_PAGE, { fullPath: PROJECT, iid: String(issue.iid) }, token);
    expect(page.errors).toBeUndefined();
    return { issue, issuableId: page.data!.project.issue.id };
  }

  function client(token: string): Client {
    const created = connect(harness.gateway, { 'PRIVATE-TOKEN': token });
    clients.push(created);
    return created;
  }

  it('writes its documents in GitLab’s dialect: they validate against the schema', () => {
    for (const aspect of ASPECTS) expect(validate(schema, parse(documentOf(aspect)))).toEqual([]);
    expect(validate(schema, parse(ISSUE_PAGE))).toEqual([]);
  });

  it('pushes each change to the subscribers of that aspect only, from one poller for all seven', async () => {
    const { issue, issuableId } = await anIssue(maintainer);
    const connection = client(maintainer);
    const watchers = Object.fromEntries(ASPECTS.map((aspect) => [aspect, subscribe(connection, documentOf(aspect), { issuableId })])) as Record<
      Aspect,
      ReturnType<typeof subscribe>
    >;
    await until(() => pollers().activeSubscriptions === ASPECTS.length);
    expect(pollers().activePollers).toBe(1);

    const path = `/projects/${issue.project_id}/issues/${issue.iid}`;
    const labels = await harness.oracle.get<Array<{ id: number; name: string; color: string; description: string | null }>>(`/projects/${issue.project_id}/labels`, maintainer);
    const milestones = await harness.oracle.get<Array<{ id: number; title: string }>>(`/projects/${issue.project_id}/milestones?state=active`, maintainer);
    const members = await harness.oracle.all<{ id: number; username: string }>(`/projects/${issue.project_id}/members/all`, maintainer);
    const label = labels.find((candidate) => !issue.labels.includes(candidate.name))!;
    const milestone = milestones.find((candidate) => candidate.id !== issue.milestone?.id)!;
    const assignee = members.find((member) => !issue.assignees.some((user) => user.id === member.id))!;

    /** Makes one change through REST, then checks that only the aspect's subscriber heard of it. */
    async function change<T>(aspect: Aspect, write: () => Promise<T>, expected: (rest: T) => Record<string, unknown>) {
      const counts = Object.fromEntries(ASPECTS.map((other) => [other, watchers[other].events.length]));
      const rest = await write();
      const event = await watchers[aspect].nextEvent();
      expect(event).toEqual({ data: { [FIELD_OF[aspect]]: { id: issuableId, ...expected(rest) } } });
      // Two more polls: a change of another aspect would have been pushed by now.
      const polls = pollsOf(harness.simulator, issue);
      await until(() => pollsOf(harness.simulator, issue) >= polls + 2);
      for (const other of ASPECTS) expect([other, watchers[other].events.length]).toEqual([other, counts[other]! + (other === aspect ? 1 : 0)]);
    }

    await change('labels', () => restWrite('PUT', path, { add_labels: label.name }), (rest) => ({
      labels: {
        nodes: rest.labels.map((name) => {
          const detail = labels.find((candidate) => candidate.name === name)!;
          return { id: `gid://gitlab/Label/${detail.id}`, title: name, color: detail.color, description: detail.description };
        }),
      },
    }));
    await change('title', () => restWrite('PUT', path, { title: `${issue.title} (edited)` }), (rest) => ({ title: rest.title }));
    await change('description', () => restWrite('PUT', path, { description: 'Steps to reproduce, rewritten.' }), () => ({ description: 'Steps to reproduce, rewritten.' }));
    await change('dates', () => restWrite('PUT', path, { due_date: '2031-05-17' }), () => ({ dueDate: expect.stringContaining('2031-05-17') as string }));
    await change('milestone', () => restWrite('PUT', path, { milestone_id: milestone.id }), () => ({
      attribute: expect.objectContaining({ id: `gid://gitlab/Milestone/${milestone.id}`, title: milestone.title }) as Record<string, unknown>,
    }));
    await change('assignees', () => restWrite('PUT', path, { assignee_ids: [assignee.id] }), () => ({
      assignees: { nodes: [expect.objectContaining({ id: `gid://gitlab/User/${assignee.id}`, username: assignee.username }) as Record<string, unknown>] },
    }));
    // POST .../time_estimate answers the issue's time stats.
    await change('timeTracking', () => restWrite<RestIssue['time_stats']>('POST', `${path}/time_estimate`, { duration: '3h30m' }), (stats) => ({
      humanTimeEstimate: '3h 30m',
      humanTotalTimeSpent: stats.total_time_spent === 0 ? null : expect.any(String),
      timeEstimate: 12_600,
      totalTimeSpent: stats.total_time_spent,
    }));

    for (const watcher of Object.values(watchers)) watcher.dispose();
    await until(() => pollers().activePollers === 0);
  });

  it('costs one poll per interval for two subscribers on one issue, and stops polling when they leave', async () => {
    const { issue, issuableId } = await anIssue(developer, 1);
    const first = subscribe(client(developer), documentOf('title'), { issuableId });
    const second = subscribe(client(developer), documentOf('labels'), { issuableId });
    await until(() => pollers().activeSubscriptions === 2);
    expect(pollers().activePollers).toBe(1);

    // Polls can only be late, never early: two pollers would exceed this bound.
    harness.simulator.resetRequests();
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 8));
    const polls = pollsOf(harness.simulator, issue);
    const elapsed = performance.now() - started;
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(polls).toBeLessThanOrEqual(Math.floor(elapsed / POLL_MS) + 1);
    expect(harness.simulator.requests.every((request) => request.path === `/projects/${issue.project_id}/issues/${issue.iid}`)).toBe(true);

    first.dispose();
    second.dispose();
    await until(() => pollers().activePollers === 0);
    const atStop = pollsOf(harness.simulator, issue);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 4));
    expect(pollsOf(harness.simulator, issue) - atStop).toBeLessThanOrEqual(1);
  });

  it('lets a non-administrator subscribe to an issue the gateway served them, with no look-up by global ID', async () => {
    const { issue, issuableId } = await anIssue(developer, 2);
    harness.simulator.resetRequests();
    const watcher = subscribe(client(developer), documentOf('title'), { issuableId });
    await until(() => pollers().activeSubscriptions === 1);
    expect(harness.simulator.requests.some((request) => request.path === `/issues/${issue.id}`)).toBe(false);
    watcher.dispose();
    await until(() => pollers().activePollers === 0);
  });

  it('refuses a non-administrator an issue it was never served, saying how to subscribe', async () => {
    const issues = await harness.oracle.all<RestIssue>(`/projects/${encodeURIComponent(PROJECT)}/issues?state=opened`, admin);
    const unseen = issues[issues.length - 1]!;
    const watcher = subscribe(client(developer), documentOf('labels'), { issuableId: `gid://gitlab/Issue/${unseen.id}` });
    const event = await watcher.nextEvent();
    expect(event.errors?.[0]).toMatchObject({
      message: expect.stringContaining('administrators only') as string,
      extensions: { code: 'FORBIDDEN' },
    });
    expect(pollers().activePollers).toBe(0);
  });

  it('lets an administrator subscribe by global ID alone (REST GET /issues/:id)', async () => {
    const issues = await harness.oracle.all<RestIssue>(`/projects/${encodeURIComponent(PROJECT)}/issues?state=opened`, admin);
    const issue = issues[issues.length - 2]!;
    const watcher = subscribe(client(admin), documentOf('description'), { issuableId: `gid://gitlab/Issue/${issue.id}` });
    await until(() => pollers().activeSubscriptions === 1);
    expect(harness.simulator.requests.some((request) => request.method === 'GET' && request.path === `/issues/${issue.id}`)).toBe(true);
    const rest = await restWrite('PUT', `/projects/${issue.project_id}/issues/${issue.iid}`, { description: 'Seen by the administrator.' });
    expect(await watcher.nextEvent()).toEqual({ data: { issuableDescriptionUpdated: { id: `gid://gitlab/Issue/${issue.id}`, description: rest.description } } });
    watcher.dispose();
    await until(() => pollers().activePollers === 0);
  });

  it.each([
    ['a project ID', 'gid://gitlab/Project/1', 'IssuableID must be the global ID of a Issue or MergeRequest or Epic'],
    ['a merge request ID', 'gid://gitlab/MergeRequest/1', 'watches issues only'],
    ['no global ID at all', '42', 'IssuableID must be a global ID'],
  ])('refuses %s with BAD_USER_INPUT before any REST call', async (_label, issuableId, message) => {
    const connection = client(maintainer);
    await until(() => harness.simulator.requests.length > 0); // the connection's credential check
    harness.simulator.resetRequests();
    const watcher = subscribe(connection, documentOf('assignees'), { issuableId });
    const event = await watcher.nextEvent();
    expect(event.errors?.[0]).toMatchObject({ message: expect.stringContaining(message) as string, extensions: { code: 'BAD_USER_INPUT' } });
    expect(harness.simulator.requests).toEqual([]);
  });
});
