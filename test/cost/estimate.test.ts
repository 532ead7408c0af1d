import { describe, expect, it } from 'vitest';
import { parse, print } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { DASHBOARD_QUERY, DASHBOARD_VARIABLES } from '../../bench/scenarios/dashboard.js';
import { FLEET_QUERY } from '../../bench/scenarios/runner-fleet.js';
import { WIDE_PAGE_QUERY, WIDE_PAGE_VARIABLES } from '../../bench/scenarios/wide-page.js';
import { encodeCursor } from '../../src/connections/cursor.js';
import { estimateRestCalls } from '../../src/cost/estimate.js';
import { gatewayOverSimulator, type Harness } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';
import { until } from '../support/wait.js';

const { admin, maintainer } = DEMO_TOKENS;
const runner = (id: number) => `gid://gitlab/Ci::Runner/${id}`;

interface Case {
  name: string;
  query: string;
  variables?: Record<string, unknown>;
  token?: string;
}

/**
 * Real operations across the domains, run as written against the embedded v4 server: the REST
 * calls it saw never exceed the estimate. Lists, nested lists, detail fields of list records,
 * embedded records missing fields, fragments, aliases, unions, cursors and writes.
 */
const CASES: Case[] = [
  { name: 'bench hot path', query: 'query($id: CiRunnerID!) { runner(id: $id) { id status } }', variables: { id: runner(16) } },
  { name: 'bench fleet', query: FLEET_QUERY, variables: { first: 100 } },
  { name: 'bench dashboard', query: DASHBOARD_QUERY, variables: DASHBOARD_VARIABLES },
  { name: 'bench wide page', query: WIDE_PAGE_QUERY, variables: WIDE_PAGE_VARIABLES },
  {
    name: 'runner list with detail fields, jobs with their people, projects and commits',
    query: `{ ownedRunners(first: 10) { count nodes { id status description tagList locked runUntagged version
      projects(first: 3) { nodes { fullPath visibility group { name fullPath parent { name } } } }
      jobs(first: 3) { nodes { id status user { username location } project { fullPath visibility creator { username } } commit { sha title } } }
      managers { nodes { systemId status } } } } }`,
    token: maintainer,
  },
  {
    // A project's job list names each job's project by ID only (GitLab 16+'s JobBasic): its
    // identity fields are read from the project's record, which the estimate must count.
    name: 'a project\'s jobs with their project\'s identity',
    query: '{ project(fullPath: "gitlab-org/gitlab-runner") { jobs(first: 5) { nodes { id project { fullPath name } } } } }',
    token: maintainer,
  },
  { name: 'a runner\'s last jobs (last without before)', query: `{ runner(id: "${runner(1)}") { jobs(last: 5) { count nodes { id name } } } }` },
  {
    name: 'a window over two REST pages, from a cursor',
    query: 'query($id: CiRunnerID!, $after: String) { runner(id: $id) { jobs(first: 100, after: $after) { nodes { id } pageInfo { hasNextPage } } } }',
    variables: { id: runner(1), after: encodeCursor(49) },
  },
  { name: 'all runners by type with their managers', query: '{ runners(first: 30, type: GROUP_TYPE) { nodes { id ipAddress accessLevel maximumTimeout managers(first: 2) { nodes { version } } } } }' },
  {
    name: 'a group with its tree, settings read from the detail, and its lists',
    query: `{ group(fullPath: "gitlab-org/frontend") { fullPath shareWithGroupLock lfsEnabled membershipLock runnersToken
      parent { name fullPath parent { name } } sharedWithGroups { group { name fullPath visibility } } customAttributes { key }
      embeddedProjects { name creator { username } } descendantGroups { nodes { fullPath lfsEnabled membershipLock projects(first: 2) { nodes { name } } } }
      runners(first: 5) { nodes { id tagList } } invitations { nodes { inviteEmail } } } }`,
  },
  {
    name: 'group lists with statistics, custom attributes and the detail of each',
    query: '{ groups(first: 12, statistics: true, withCustomAttributes: true) { nodes { fullPath statistics { storageSize } customAttributes { key } preventForkingOutsideGroup runnersToken } } }',
  },
  {
    name: 'a project page with simple and full project lists',
    query: `{ simple: group(fullPath: "gitlab-org") { projects(first: 10, includeSubgroups: true) { nodes { id fullPath name webUrl } } }
      full: group(fullPath: "opensource") { sharedProjects { nodes { fullPath } } projects(first: 5) { nodes { fullPath visibility starCount owner { username } links { self } group { name fullPath webUrl } } } } }`,
    token: maintainer,
  },
  {
    name: 'issues with the fields list records lack',
    query: `{ project(fullPath: "gitlab-org/gitlab") { issues(first: 8) { nodes { iid subscribed timeStats { timeEstimate } metricImages { filename }
      project { name visibility } author { username bio } assignees { nodes { username } } milestone { title project { name } }
      participants(first: 3) { nodes { username } } relatedMergeRequests(first: 2) { nodes { title author { username } project { name } } }
      closedByMergeRequests { nodes { iid } } epicIid movedToId links { self } } } } }`,
  },
  { name: 'an issue by global ID and one by iid', query: '{ issue(id: "gid://gitlab/Issue/1") { title userAgentDetail { userAgent } labels { nodes { title } } } project(fullPath: "gitlab-org/gitaly") { issue(iid: "1") { title } } }' },
  { name: 'group and instance issue lists', query: '{ issues(scope: ALL, first: 30) { nodes { id assignee { username } closedBy { name } } } group(fullPath: "gitlab-org") { issues(first: 40, withLabelsDetails: true) { nodes { labels { nodes { title color } } } } } }' },
  {
    name: 'a commit with its detail, parents and sub-resources',
    query: `{ project(fullPath: "gitlab-org/gitlab") { repository { commit(ref: "main") { sha stats { total } status lastPipeline { status }
      parents { sha title status } refs { nodes { name } } diffs(first: 2) { nodes { newPath } } comments { nodes { note author { username } } }
      discussions { nodes { notes { nodes { body author { username } } } } } statuses { nodes { name author { username } } } mergeRequests { nodes { title } }
      sequence signature { __typename ... on GpgSignature { gpgKeyUserName } ... on X509Signature { x509Certificate { serialNumber } } } } } } }`,
  },
  {
    name: 'commit lists with and without stats',
    query: `{ project(fullPath: "gitlab-org/gitlab") { repository { a: commits(first: 5) { nodes { sha stats { additions } status } }
      b: commits(first: 3, withStats: false) { nodes { sha stats { additions } } } } } }`,
  },
  {
    name: 'boards with their lists, and a board by ID',
    query: '{ project(fullPath: "gitlab-org/gitlab") { boards { nodes { id name project { name visibility } assignee { username } lists { nodes { position listType title label { title } issuesCount issues(first: 5) { nodes { iid } } } } } } } }',
  },
  {
    name: 'wiki pages with and without their content',
    query: '{ project(fullPath: "gitlab-org/gitlab") { listed: wikiPages { nodes { slug content } } full: wikiPages(withContent: true) { nodes { content } } wikiPage(slug: "home") { title content } } }',
  },
  {
    name: 'nodes of every kind, through fragments',
    query: `fragment Named on Project { name visibility } { node(id: "gid://gitlab/Group/2") { ... on Group { name runnersToken } }
      nodes(ids: ["gid://gitlab/Project/6", "gid://gitlab/Ci::Runner/16", "gid://gitlab/User/3", "gid://gitlab/Issue/2", "gid://gitlab/Key/1"]) { id ...Named ... on CiRunner { tagList } ... on User { username bio } ... on Issue { title } ... on SshKey { keyTitle: title user { username email } } } }`,
  },
  {
    name: 'SSH keys with their users and deploy projects',
    query: '{ key(id: "gid://gitlab/Key/1") { title user { username } deployKeysProjects { project { fullPath visibility } } } }',
  },
  {
    name: 'snippet storage moves with their snippets and projects',
    query: '{ snippetRepositoryStorageMoves(first: 5) { nodes { state snippet { title project { name visibility } } } } }',
  },
  {
    name: 'the credentials inventory with its owners',
    query: `{ group(fullPath: "opensource") { managedPersonalAccessTokens(first: 5) { nodes { name user { username email } } }
      managedResourceAccessTokens(first: 5) { nodes { name user { username } group { name } project { name } } } managedSshKeys { nodes { title user { username } } } } }`,
    token: maintainer,
  },
  {
    // The lists go out with the record (resolvers/lookahead.ts), before REST says it is missing.
    name: 'a missing group and project, whose lists were sent with their record',
    query: `{ group(fullPath: "no-such-group") { subgroups { nodes { name } } projects(first: 5) { nodes { name } } issues { count } }
      project(fullPath: "gitlab-org/no-such-project") { issues { count } runners { count } boards { count } invitations { count } } }`,
  },
  {
    name: 'merge requests with the fields list records lack, their people, labels and discussions',
    query: `{ project(fullPath: "gitlab-org/gitlab") { mergeRequests(first: 5) { nodes { iid title author { username bio } assignees { nodes { username status { message } } }
      reviewers { nodes { username } } headPipeline { status iid } squash changesCount diffRefs { headSha } subscribed mergeError userPermissions { canMerge }
      labels { nodes { title color } } participants(first: 3) { nodes { username } } discussions { nodes { id notes { nodes { body } } } } userDiscussionsCount
      milestone { title } sourceProject { name } currentUserTodos { nodes { id } } timeStats { timeEstimate } } } } }`,
  },
  {
    name: 'labels and milestones of a project and a group',
    query: `{ project(fullPath: "gitlab-org/gitlab") { labels(first: 10) { nodes { title color description textColor } } milestones(first: 5) { nodes { title stats { totalIssuesCount closedIssuesCount } project { name } } } }
      group(fullPath: "gitlab-org") { labels(first: 5) { nodes { title } } milestones(first: 3) { nodes { title subgroupMilestone } } } }`,
  },
  {
    name: "an issue's notes with their HTML, permissions, authors' access and award emoji",
    query: `{ project(fullPath: "gitlab-org/gitlab") { issue(iid: "1") { titleHtml descriptionHtml currentUserTodos { nodes { id } } userDiscussionsCount
      notes(first: 5) { nodes { body bodyHtml url author { username } userPermissions { adminNote } project { name } } }
      discussions(first: 3) { nodes { id resolvedBy { username } notes { nodes { body } } } } } } }`,
  },
  {
    name: 'a repository tree with its entries, blobs and branch names',
    query: `{ project(fullPath: "gitlab-org/gitlab") { repository { empty branchNames(searchPattern: "*", offset: 0, limit: 5)
      tree(ref: "main") { lastCommit { sha title } permalinkPath trees(first: 5) { nodes { name path } } blobs(first: 5) { nodes { name lfsOid } } submodules { nodes { name } } }
      blobs(paths: ["README.md"]) { nodes { path name canModifyBlob ideEditPath forkAndEditPath } } } } }`,
  },
  {
    name: "a project's jobs with the fields runner job lists lack, and their pipelines",
    query: `{ project(fullPath: "gitlab-org/gitlab-runner") { jobs(first: 5) { nodes { id name retryable failureMessage erasedAt tags
      pipeline { iid createdAt beforeSha user { username } duration } } } } }`,
    token: maintainer,
  },
  {
    name: 'users by username and the caller with their status',
    query: '{ users(usernames: ["root", "maintainer"]) { nodes { username status { message } } } currentUser { username status { emoji } } }',
  },
  { name: 'the current user and job artifacts', query: '{ currentUser { username email } project(fullPath: "gitlab-org/gitlab") { refJobArtifacts(refName: "main", jobName: "build-docs") { archivePath } } }' },
  {
    name: 'a runner update reading the written runner\'s projects',
    query: `mutation { runnerUpdate(input: { id: "${runner(16)}", description: "estimated" }) { errors runner { description tagList locked projects { nodes { name visibility } } } } }`,
  },
  {
    name: 'a group update by full path',
    query: 'mutation { groupUpdate(input: { fullPath: "gitlab-org/frontend", description: "estimated" }) { errors group { description fullPath lfsEnabled parent { name } } } }',
  },
  {
    name: 'a to-do on an issue, with its embedded target',
    // REST finds an issue by global ID for administrators only.
    token: admin,
    query: 'mutation { todoCreate(input: { targetId: "gid://gitlab/Issue/1" }) { alreadyPending todo { target { ... on Issue { title webUrl timeStats { timeEstimate } links { self } } } author { username } project { fullPath visibility } } } }',
  },
  {
    name: 'an issue locked through the sidebar, read back with its labels',
    query: 'mutation { issueSetLocked(input: { projectPath: "gitlab-org/gitlab", iid: "1", locked: true }) { errors issue { discussionLocked author { username } labels { nodes { title color } } } } }',
  },
  {
    name: 'a note created on an issue, read back with its HTML and permissions',
    query: 'mutation { createNote(input: { noteableId: "gid://gitlab/Issue/1", body: "Estimated" }) { errors note { body bodyHtml url author { username } userPermissions { adminNote } } } }',
  },
  {
    name: 'a board created and read back',
    query: 'mutation { createBoard(input: { projectPath: "gitlab-org/gitlab", name: "Estimated" }) { errors board { name lists { nodes { id } } project { name visibility } } } }',
  },
  {
    name: 'a commit created and read back',
    query: `mutation { commitCreate(input: { projectPath: "gitlab-org/gitlab", branch: "main", message: "Estimate", actions: [{ action: CREATE, filePath: "estimate.md", content: "x" }] }) {
      errors commit { sha stats { total } status lastPipeline { id } parents { sha } } } }`,
  },
];

async function run(harness: Harness, { query, variables, token }: Case, batching: boolean) {
  const estimate = estimateRestCalls(harness.gateway.gateway.schema, { document: parse(query), variables }, { batching });
  harness.simulator.resetRequests();
  const result = await harness.gateway.query(query, variables, token ?? admin);
  return { estimate, result, calls: restCalls(harness.simulator) };
}

describe.each([
  ['batching on', true],
  ['batching off', false],
])('the REST-call estimate against the REST calls made, %s', (_label, batching) => {
  // The limit is out of the way here: this compares the estimate with what really happens.
  const harness = gatewayOverSimulator({ batching, limits: { maxRestCalls: 1_000_000 } });

  it.each(CASES)('$name', async (operation) => {
    const { estimate, result, calls } = await run(harness, operation, batching);
    expect(result.errors).toBeUndefined();
    expect(calls.length).toBeGreaterThan(0);
    expect(estimate).toBeGreaterThanOrEqual(calls.length);
  });
});

describe('the REST-call estimate of simple operations', () => {
  const harness = gatewayOverSimulator({ limits: { maxRestCalls: 1_000_000 }, runnerPollIntervalMs: 60_000 });

  it.each<Case & { expected: number }>([
    { name: 'one runner', query: `{ runner(id: "${runner(16)}") { id status } }`, expected: 1 },
    { name: 'one project and its name', query: '{ project(fullPath: "gitlab-org/gitlab") { id name fullPath visibility } }', expected: 1 },
    { name: 'a page of runners with list fields only', query: '{ ownedRunners(first: 100) { nodes { id status description } } }', expected: 1 },
    { name: 'a page of 100 issues with their people', query: WIDE_PAGE_QUERY, variables: WIDE_PAGE_VARIABLES, expected: 1 },
    { name: 'a runner\'s projects from its detail record', query: `{ runner(id: "${runner(16)}") { projects { nodes { fullPath name } } } }`, expected: 1 },
  ])('$name costs what it is estimated: $expected', async (operation) => {
    const { estimate, result, calls } = await run(harness, operation, true);
    expect(result.errors).toBeUndefined();
    expect(estimate).toBe(operation.expected);
    expect(calls).toHaveLength(operation.expected);
  });

  it('counts a detail field of a list record once per item with batching, once per field without', () => {
    const document = parse('{ runners(first: 100) { nodes { version tagList contactedAt } } }');
    const schema = harness.gateway.gateway.schema;
    expect(estimateRestCalls(schema, { document }, { batching: true })).toBe(1 + 100);
    expect(estimateRestCalls(schema, { document }, { batching: false })).toBe(1 + 3 * 100);
  });

  it('counts a subscription\'s first poll, and what its events read from the runner record', async () => {
    const query = `subscription { ciRunnerStatusUpdated(runnerId: "${runner(16)}") { id status tagList projects { nodes { name } } } }`;
    expect(estimateRestCalls(harness.gateway.gateway.schema, { document: parse(query) }, { batching: true })).toBe(1);
    const client = createClient({ url: harness.gateway.wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: { 'PRIVATE-TOKEN': admin } });
    try {
      const stop = client.subscribe({ query }, { next: () => {}, error: () => {}, complete: () => {} });
      await until(() => restCalls(harness.simulator).includes(`GET /runners/16`));
      // The connection's own credential check aside, the first poll is all a subscription costs at once.
      expect(restCalls(harness.simulator).filter((call) => call !== 'GET /user')).toEqual(['GET /runners/16']);
      stop();
    } finally {
      await client.dispose();
    }
  });

  it('remembers an estimate per document only for the variables its cost reads', () => {
    const schema = harness.gateway.gateway.schema;
    const document = parse('query($id: CiRunnerID!, $first: Int!) { runner(id: $id) { jobs(first: $first) { nodes { id } } } }');
    const fresh = (variables: Record<string, unknown>) => estimateRestCalls(schema, { document: parse(print(document)), variables }, { batching: true });
    const estimate = (variables: Record<string, unknown>) => estimateRestCalls(schema, { document, variables }, { batching: true });
    // One document asked with different page sizes: each answer is its own, never the first one's.
    for (const first of [5, 100, 250, 5, 100]) {
      for (const id of [runner(1), runner(2)]) expect(estimate({ id, first })).toBe(fresh({ id, first }));
    }
    expect(estimate({ id: runner(1), first: 250 })).toBeGreaterThan(estimate({ id: runner(1), first: 5 }));
    // Batching is part of what an estimate is remembered by.
    expect(estimateRestCalls(schema, { document, variables: { id: runner(1), first: 5 } }, { batching: false })).toBe(
      estimateRestCalls(schema, { document: parse(print(document)), variables: { id: runner(1), first: 5 } }, { batching: false }),
    );
  });

  it('gives an operation whose cost reads no variable one estimate for any values, even ones that will not coerce', () => {
    const schema = harness.gateway.gateway.schema;
    const document = parse('query($id: CiRunnerID!) { runner(id: $id) { id status } }');
    const first = estimateRestCalls(schema, { document, variables: { id: runner(1) } }, { batching: true });
    expect(first).toBe(1);
    for (const id of [runner(2), runner(3)]) expect(estimateRestCalls(schema, { document, variables: { id } }, { batching: true })).toBe(first);
    // Values that will not coerce get the same estimate: execution, not the estimate, refuses them.
    expect(estimateRestCalls(schema, { document, variables: {} }, { batching: true })).toBe(first);
  });

  it('costs nothing for variables that do not coerce, since the operation never runs', () => {
    const document = parse('query($first: Int!) { ownedRunners(first: $first) { nodes { tagList } } }');
    expect(estimateRestCalls(harness.gateway.gateway.schema, { document, variables: { first: 'many' } }, { batching: true })).toBe(0);
  });
});
