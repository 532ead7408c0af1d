import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type GraphQLResponse, type TestGateway } from '../support/gateway.js';
import { FIXTURES_DIR, readFixture, startStubUpstream, type StubRoute } from '../support/stub-upstream.js';
import { postUpload } from '../support/uploads.js';

/**
 * Every issues fixture of the REST documentation, served by a stub upstream, maps through the
 * schema without error, with its values where the schema says they go. Fixtures of endpoints
 * outside rest-v4-api.md (create, update, move, clone, subscribe an issue; update a metric image)
 * are served from the covered endpoint that returns the same resource, so their bodies still go
 * through the schema.
 */
const fixture = (name: string) => readFixture(`issues/${name}.json`) as Record<string, unknown>;
const list = (name: string) => readFixture(`issues/${name}.json`) as Array<Record<string, unknown>>;

/** Every field of an issue record; `subscribed` is asked only of single reads, which carry it. */
const ISSUE_FIELDS = `id iid title description state createdAt updatedAt closedAt closedBy { id username } author { id username name state avatarUrl webUrl }
  assignees { nodes { id username name } } assignee { id } milestone { id iid title description state createdAt updatedAt dueDate startDate closedAt webUrl project { id } }
  labels { nodes { title } } type upvotes downvotes mergeRequestsCount userNotesCount dueDate movedToId moved
  webUrl webPath references { short relative full } reference timeStats { timeEstimate totalTimeSpent humanTimeEstimate humanTotalTimeSpent } hasTasks taskStatus
  taskCompletionStatus { count completedCount } confidential discussionLocked links { self notes awardEmoji project closedAsDuplicateOf } weight
  epic { id iid title webPath group { id } } epicIid iteration { id iid sequence title description state createdAt updatedAt startDate dueDate webUrl group { id } }
  healthStatus severity imported importedFrom serviceDeskReplyTo project { id }`;
const MR_FIELDS = `id iid title description state createdAt updatedAt mergedAt closedAt closedBy { id } targetBranch sourceBranch upvotes downvotes
  author { id username } assignee { id username } assignees { nodes { id username } } sourceProject { id } targetProject { id } project { id } labels { nodes { title } } draft workInProgress
  milestone { id iid title state dueDate startDate webUrl } mergeWhenPipelineSucceeds mergeStatus sha mergeCommitSha squashCommitSha userNotesCount
  discussionLocked shouldRemoveSourceBranch forceRemoveSourceBranch reference fullReference: reference(full: true) references { short relative full } webUrl totalTimeSpent humanTotalTimeSpent
  timeStats { timeEstimate totalTimeSpent humanTimeEstimate humanTotalTimeSpent } squash taskCompletionStatus { count completedCount } changesCount
  latestBuildStartedAt latestBuildFinishedAt firstDeployedToProductionAt pipeline { id sha ref status path }
  headPipeline { id sha ref status path beforeSha createdByTag yamlErrors yamlErrorMessages user { username } createdAt updatedAt startedAt finishedAt committedAt duration coverage }
  diffRefs { baseSha headSha startSha } mergeError userPermissions { canMerge }`;
const TIME_STATS = 'timeStats { timeEstimate totalTimeSpent humanTimeEstimate humanTotalTimeSpent }';

/** The project every case hangs from: `my-group/my-project`, id 4, as the fixtures' issues say. */
const PROJECT = { id: 4, name: 'my-project', path: 'my-project', path_with_namespace: 'my-group/my-project' };
const PROJECT_ROUTE: StubRoute = { method: 'GET', path: '/projects/my-group%2Fmy-project', body: PROJECT };
const GROUP = { id: 9, name: 'my-group', path: 'my-group', full_path: 'my-group' };
const ISSUE = '/projects/my-group%2Fmy-project/issues/1';

/** A fixture answered as the single read of its own issue: `Project.issue(iid:)` of its project. */
function singleRead(name: string, expected: Record<string, unknown>, extraRoutes: StubRoute[] = []): FixtureCase {
  const body = fixture(name);
  const project = { ...PROJECT, id: body['project_id'] as number };
  return {
    routes: [
      { method: 'GET', path: '/projects/my-group%2Fmy-project', body: project },
      { method: 'GET', path: `/projects/${String(body['project_id'])}/issues/${String(body['iid'])}`, body },
      ...extraRoutes,
    ],
    query: `{ project(fullPath: "my-group/my-project") { issue(iid: "${String(body['iid'])}") { ${ISSUE_FIELDS} subscribed } } }`,
    expected: { project: { issue: expected } },
  };
}

/** A tier fragment, on top of a whole list record, answered by `GET /issues`. */
function fragmentCase(name: string, expected: Record<string, unknown>): FixtureCase {
  const raw = readFixture(`issues/${name}.json`);
  const fragment = (Array.isArray(raw) ? raw[0] : raw) as Record<string, unknown>;
  return {
    routes: [{ method: 'GET', path: '/issues', body: [{ ...list('list-issues')[0], ...fragment }] }],
    query: `{ issues(scope: ALL) { nodes { ${ISSUE_FIELDS} } } }`,
    expected: { issues: { nodes: [expected] } },
  };
}

interface FixtureCase {
  routes: StubRoute[];
  query: string;
  expected: unknown;
  /** An error the case expects instead of data (a REST refusal the fixture documents). */
  error?: Record<string, unknown>;
  /** A file to send as the `file` variable of a GraphQL multipart request. */
  upload?: File;
}

/** The issue the sub-resource cases hang from: list-project-issues.json's, as an incident so that it has metric images. */
const ISSUE_RECORD = { ...list('list-project-issues')[0], project_id: 4, iid: 1, issue_type: 'incident' };
const subResource = (suffix: string, body: unknown, status?: number): StubRoute[] => [
  PROJECT_ROUTE,
  { method: 'GET', path: '/projects/4/issues/1', body: ISSUE_RECORD },
  { method: 'GET', path: `/projects/4/issues/1/${suffix}`, body, ...(status ? { status } : {}) },
];
/**
 * `todoCreate` finds its target by global ID: REST's `GET /issues/:id` (administrators), for an
 * issue no other case served (the gateway remembers where the issues it served live).
 */
const TODO_TARGET: StubRoute[] = [{ method: 'GET', path: '/issues/4141', body: { ...ISSUE_RECORD, id: 4141 } }];
const ON_ISSUE = (fields: string) => `{ project(fullPath: "my-group/my-project") { issue(iid: "1") { ${fields} } } }`;

const UPLOAD_QUERY = `mutation($file: Upload!) { metricImageUpload(input: { projectPath: "my-group/my-project", iid: "1", file: $file, url: "http://example.com", urlText: "Example website" }) {
  errors metricImage { id createdAt filename filePath url urlText } } }`;
const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'file.png', { type: 'image/png' });
/** A metric image upload: a GraphQL multipart request in, REST's multipart POST out. */
function uploadCase(name: string): FixtureCase {
  return {
    routes: [{ method: 'POST', path: `${ISSUE}/metric_images`, status: 201, body: fixture(name) }],
    query: UPLOAD_QUERY,
    upload: png,
    expected: {
      metricImageUpload: {
        errors: [],
        metricImage: {
          id: 'gid://gitlab/IssuableMetricImage/23',
          filename: 'file.png',
          filePath: '/uploads/-/system/issuable_metric_image/file/23/file.png',
          url: 'http://example.com',
          urlText: 'Example website',
        },
      },
    },
  };
}

const CASES: Record<string, FixtureCase> = {
  'list-issues.json': {
    routes: [{ method: 'GET', path: '/issues', body: list('list-issues') }],
    query: `{ issues(scope: ALL) { count nodes { ${ISSUE_FIELDS} } } }`,
    expected: {
      issues: {
        count: 1,
        nodes: [
          {
            id: 'gid://gitlab/Issue/76',
            iid: '6',
            state: 'opened',
            author: { id: 'gid://gitlab/User/18', username: 'eileen.lowe' },
            assignees: { nodes: [{ id: 'gid://gitlab/User/1', username: 'root' }] },
            assignee: { id: 'gid://gitlab/User/1' },
            milestone: {
              id: 'gid://gitlab/Milestone/17',
              iid: '2',
              title: 'v4.0',
              state: 'closed',
              closedAt: null,
              project: { id: 'gid://gitlab/Project/1' },
            },
            labels: { nodes: [{ title: 'foo' }, { title: 'bar' }] },
            type: 'ISSUE',
            dueDate: '2016-07-22',
            movedToId: null,
            references: { short: '#6', relative: 'my-group/my-project#6', full: 'my-group/my-project#6' },
            reference: '#6',
            timeStats: { timeEstimate: 0, totalTimeSpent: 0, humanTimeEstimate: null },
            hasTasks: true,
            taskStatus: '10 of 15 tasks completed',
            links: {
              self: 'http://gitlab.example.com/api/v4/projects/1/issues/76',
              closedAsDuplicateOf: 'http://gitlab.example.com/api/v4/projects/1/issues/75',
            },
            weight: null,
            epic: null,
            severity: 'UNKNOWN',
            importedFrom: 'none',
            project: { id: 'gid://gitlab/Project/1' },
          },
        ],
      },
    },
  },
  'list-group-issues.json': {
    routes: [
      { method: 'GET', path: '/groups/my-group', body: GROUP },
      { method: 'GET', path: '/groups/my-group/issues', body: list('list-group-issues') },
    ],
    query: `{ group(fullPath: "my-group") { issues { count nodes { ${ISSUE_FIELDS} } } } }`,
    expected: {
      group: {
        issues: {
          count: 1,
          nodes: [{ id: 'gid://gitlab/Issue/41', state: 'closed', references: { relative: 'my-project#1' }, milestone: { title: 'v3.0' } }],
        },
      },
    },
  },
  'list-project-issues.json': {
    routes: [PROJECT_ROUTE, { method: 'GET', path: '/projects/my-group%2Fmy-project/issues', body: list('list-project-issues') }],
    query: `{ project(fullPath: "my-group/my-project") { issues { count nodes { ${ISSUE_FIELDS} } } } }`,
    expected: {
      project: {
        issues: {
          count: 1,
          nodes: [
            {
              id: 'gid://gitlab/Issue/41',
              closedAt: '2016-01-05T15:31:46.176Z',
              closedBy: { id: 'gid://gitlab/User/1', username: 'root' },
              references: { relative: '#1' },
            },
          ],
        },
      },
    },
  },
  'get-project-issue.json': singleRead('get-project-issue', {
    id: 'gid://gitlab/Issue/41',
    subscribed: false,
    labels: { nodes: [] },
    milestone: { closedAt: '2016-01-05T15:31:46.176Z' },
  }),
  'get-issue-admin.json': {
    routes: [{ method: 'GET', path: '/issues/1', body: fixture('get-issue-admin') }],
    query: `{ issue(id: "gid://gitlab/Issue/1") { ${ISSUE_FIELDS} subscribed } }`,
    expected: {
      issue: {
        id: 'gid://gitlab/Issue/1',
        serviceDeskReplyTo: 'service.desk@gitlab.com',
        links: { self: 'http://gitlab.example:3000/api/v4/projects/1/issues/1' },
        weight: null,
        subscribed: false,
      },
    },
  },
  'create-issue.json': singleRead('create-issue', {
    id: 'gid://gitlab/Issue/84',
    description: null,
    assignees: { nodes: [] },
    assignee: null,
    milestone: null,
    labels: { nodes: [{ title: 'bug' }] },
    subscribed: true,
  }),
  'update-issue-close.json': singleRead('update-issue-close', { id: 'gid://gitlab/Issue/85', state: 'closed', subscribed: true }),
  'move-issue.json': singleRead('move-issue', { id: 'gid://gitlab/Issue/92', iid: '11' }),
  'clone-issue.json': singleRead('clone-issue', { id: 'gid://gitlab/Issue/290', project: { id: 'gid://gitlab/Project/143' } }),
  'subscribe-issue.json': singleRead('subscribe-issue', { id: 'gid://gitlab/Issue/92' }),
  // This record lacks time stats and links: the time stats come from their own endpoint.
  'unsubscribe-issue.json': singleRead(
    'unsubscribe-issue',
    { id: 'gid://gitlab/Issue/93', subscribed: false, assignees: { nodes: [] }, links: null, timeStats: { timeEstimate: 7200 } },
    [{ method: 'GET', path: '/projects/5/issues/12/time_stats', body: fixture('get-issue-time-stats') }],
  ),
  'create-issue-issues-disabled-403.json': {
    routes: [PROJECT_ROUTE, { method: 'GET', path: '/projects/my-group%2Fmy-project/issues', status: 403, body: fixture('create-issue-issues-disabled-403') }],
    query: `{ project(fullPath: "my-group/my-project") { issues { count } } }`,
    expected: null,
    error: { path: ['project', 'issues'], extensions: { code: 'FORBIDDEN', restStatus: 403, restMessage: '403 Forbidden' } },
  },
  'fragment-issue-premium-weight.json': fragmentCase('fragment-issue-premium-weight', { weight: null, state: 'opened' }),
  'fragment-issue-premium-epic.json': fragmentCase('fragment-issue-premium-epic', {
    epicIid: 5,
    epic: {
      id: 'gid://gitlab/Epic/42',
      iid: '5',
      title: 'My epic epic',
      webPath: '/groups/h5bp/-/epics/5',
      group: { id: 'gid://gitlab/Group/8' },
    },
  }),
  'fragment-issue-premium-iteration.json': fragmentCase('fragment-issue-premium-iteration', {
    iteration: {
      id: 'gid://gitlab/Iteration/90',
      iid: '4',
      sequence: 2,
      title: null,
      state: 'CURRENT',
      startDate: '2022-03-08',
      dueDate: '2022-03-14',
      group: { id: 'gid://gitlab/Group/162' },
    },
  }),
  'fragment-issue-ultimate-health-status.json': fragmentCase('fragment-issue-ultimate-health-status', { healthStatus: 'ON_TRACK' }),
  'create-issue-todo.json': {
    routes: [...TODO_TARGET, { method: 'POST', path: '/projects/4/issues/1/todo', status: 201, body: fixture('create-issue-todo') }],
    query: `mutation { todoCreate(input: { targetId: "gid://gitlab/Issue/4141" }) { errors alreadyPending todo { id action targetType targetUrl body state createdAt
      project { id fullPath name } author { username } target { ... on Issue { id iid title description state labels { nodes { title } } milestone { title } assignees { nodes { username } } author { username }
      subscribed userNotesCount upvotes mergeRequestsCount webUrl references { full } confidential discussionLocked type severity taskCompletionStatus { count } } } } } }`,
    expected: {
      todoCreate: {
        errors: [],
        alreadyPending: false,
        todo: {
          id: 'gid://gitlab/Todo/112',
          action: 'marked',
          targetType: 'ISSUE',
          state: 'pending',
          project: { id: 'gid://gitlab/Project/5', fullPath: 'gitlab-org/gitlab-ci', name: 'GitLab CI/CD' },
          target: {
            id: 'gid://gitlab/Issue/93',
            iid: '10',
            state: 'closed',
            subscribed: true,
            milestone: { title: 'v0.0' },
            author: { username: 'craig_rutherford' },
          },
        },
      },
    },
  },
  'get-issue-time-stats.json': {
    // A to-do's target carries no time stats: REST serves them alone.
    routes: [
      ...TODO_TARGET,
      { method: 'POST', path: '/projects/4/issues/1/todo', status: 201, body: fixture('create-issue-todo') },
      { method: 'GET', path: '/projects/5/issues/10/time_stats', body: fixture('get-issue-time-stats') },
    ],
    query: `mutation { todoCreate(input: { targetId: "gid://gitlab/Issue/4141" }) { todo { target { ... on Issue { ${TIME_STATS} } } } } }`,
    expected: {
      todoCreate: {
        todo: { target: { timeStats: { timeEstimate: 7200, totalTimeSpent: 3600, humanTimeEstimate: '2h', humanTotalTimeSpent: '1h' } } },
      },
    },
  },
  'promote-issue-to-epic-note.json': {
    routes: [{ method: 'POST', path: `${ISSUE}/notes`, status: 201, body: fixture('promote-issue-to-epic-note') }],
    query: `mutation { promoteToEpic(input: { projectPath: "my-group/my-project", iid: "1", comment: "Lets promote this to an epic" }) { errors promoted
      note { id type body author { username } createdAt updatedAt system noteableType noteableIid resolvable confidential } } }`,
    expected: {
      promoteToEpic: {
        errors: [],
        promoted: true,
        note: {
          id: 'gid://gitlab/Note/699',
          type: null,
          body: 'Lets promote this to an epic',
          author: { username: 'eileen.lowe' },
          system: false,
          noteableType: 'Issue',
          noteableIid: '33',
          confidential: false,
        },
      },
    },
  },
  'set-issue-time-estimate.json': {
    routes: [{ method: 'POST', path: `${ISSUE}/time_estimate`, body: fixture('set-issue-time-estimate') }],
    query: `mutation { issueTimeEstimateSet(input: { projectPath: "my-group/my-project", iid: "1", duration: "3h30m" }) { errors ${TIME_STATS} } }`,
    expected: {
      issueTimeEstimateSet: {
        errors: [],
        timeStats: { timeEstimate: 12600, totalTimeSpent: 0, humanTimeEstimate: '3h 30m', humanTotalTimeSpent: null },
      },
    },
  },
  'reset-issue-time-estimate.json': {
    routes: [{ method: 'POST', path: `${ISSUE}/reset_time_estimate`, body: fixture('reset-issue-time-estimate') }],
    query: `mutation { issueTimeEstimateReset(input: { projectPath: "my-group/my-project", iid: "1" }) { errors ${TIME_STATS} } }`,
    expected: { issueTimeEstimateReset: { errors: [], timeStats: { timeEstimate: 0, humanTimeEstimate: null } } },
  },
  'add-issue-spent-time.json': {
    routes: [{ method: 'POST', path: `${ISSUE}/add_spent_time`, status: 201, body: fixture('add-issue-spent-time') }],
    query: `mutation { issueSpentTimeAdd(input: { projectPath: "my-group/my-project", iid: "1", duration: "1h", summary: "Review" }) { errors ${TIME_STATS} } }`,
    expected: { issueSpentTimeAdd: { errors: [], timeStats: { totalTimeSpent: 3600, humanTotalTimeSpent: '1h' } } },
  },
  'reset-issue-spent-time.json': {
    routes: [{ method: 'POST', path: `${ISSUE}/reset_spent_time`, body: fixture('reset-issue-spent-time') }],
    query: `mutation { issueSpentTimeReset(input: { projectPath: "my-group/my-project", iid: "1" }) { errors ${TIME_STATS} } }`,
    expected: { issueSpentTimeReset: { errors: [], timeStats: { totalTimeSpent: 0, humanTotalTimeSpent: null } } },
  },
  'list-issue-related-merge-requests.json': {
    routes: subResource('related_merge_requests', readFixture('issues/list-issue-related-merge-requests.json')),
    query: ON_ISSUE(`relatedMergeRequests { count nodes { ${MR_FIELDS} } }`),
    expected: {
      project: {
        issue: {
          relatedMergeRequests: {
            count: 1,
            nodes: [
              {
                id: 'gid://gitlab/MergeRequest/29',
                iid: '11',
                state: 'opened',
                changesCount: '10',
                workInProgress: false,
                milestone: { id: 'gid://gitlab/Milestone/27', state: 'active' },
                mergeStatus: 'cannot_be_merged',
                pipeline: { id: 'gid://gitlab/Ci::Pipeline/38980952', status: 'SUCCESS', path: '/gitlab-org/gitlab/pipelines/38980952' },
                headPipeline: {
                  beforeSha: '3c738a37eb23cf4c0ed0d45d6ddde8aad4a8da51',
                  createdByTag: false,
                  yamlErrors: false,
                  yamlErrorMessages: null,
                  duration: 4436,
                  coverage: 46.68,
                  path: '/twitter/flight/pipelines/38980952',
                  user: { username: 'felipa.kuvalis' },
                },
                diffRefs: { startSha: 'd052d768f0126e8cddf80afd8b1eb07f406a3fcb' },
                userPermissions: { canMerge: true },
                project: { id: 'gid://gitlab/Project/1' },
              },
            ],
          },
        },
      },
    },
  },
  'list-issue-closed-by-merge-requests.json': {
    // MergeRequestBasic has no head pipeline: the merge request's own record is read for it, served
    // here as the same record (the documentation has no single-read example).
    routes: [
      ...subResource('closed_by', readFixture('issues/list-issue-closed-by-merge-requests.json')),
      { method: 'GET', path: '/projects/1/merge_requests/6432', body: list('list-issue-closed-by-merge-requests')[0] },
    ],
    query: ON_ISSUE(`closedByMergeRequests { count nodes { ${MR_FIELDS} } }`),
    expected: {
      project: {
        issue: {
          closedByMergeRequests: {
            count: 1,
            nodes: [
              {
                id: 'gid://gitlab/MergeRequest/6471',
                iid: '6432',
                draft: false,
                mergeStatus: 'unchecked',
                assignee: null,
                changesCount: null,
                pipeline: null,
                headPipeline: null,
                references: { full: 'gitlab-org/gitlab-test!6432' },
                reference: '!6432',
                fullReference: 'gitlab-org/gitlab-test!6432',
                assignees: { nodes: [] },
                labels: { nodes: [] },
                totalTimeSpent: 0,
                humanTotalTimeSpent: null,
              },
            ],
          },
        },
      },
    },
  },
  'list-issue-participants.json': {
    routes: subResource('participants', readFixture('issues/list-issue-participants.json')),
    query: ON_ISSUE('participants { count nodes { id username name state avatarUrl webUrl } }'),
    expected: {
      project: {
        issue: {
          participants: {
            count: 2,
            nodes: [
              { id: 'gid://gitlab/User/1', username: 'user1' },
              { id: 'gid://gitlab/User/5', name: 'John Doe5' },
            ],
          },
        },
      },
    },
  },
  'get-issue-user-agent-detail.json': {
    routes: subResource('user_agent_detail', fixture('get-issue-user-agent-detail')),
    query: ON_ISSUE('userAgentDetail { userAgent ipAddress submitted }'),
    expected: { project: { issue: { userAgentDetail: { userAgent: 'AppleWebKit/537.36', ipAddress: '127.0.0.1', submitted: false } } } },
  },
  'list-incident-metric-images.json': {
    routes: subResource('metric_images', readFixture('issues/list-incident-metric-images.json')),
    query: ON_ISSUE('metricImages { id createdAt filename filePath url urlText }'),
    expected: {
      project: {
        issue: {
          metricImages: [
            {
              id: 'gid://gitlab/IssuableMetricImage/17',
              filename: 'sample_2054',
              filePath: '/uploads/-/system/issuable_metric_image/file/17/sample_2054.png',
              url: 'example.com/metric',
              urlText: null,
            },
            { id: 'gid://gitlab/IssuableMetricImage/18', createdAt: '2020-11-12T20:14:26.441Z' },
          ],
        },
      },
    },
  },
  // PUT .../metric_images/:image_id is outside rest-v4-api.md; its answer is the upload's record.
  'upload-incident-metric-image.json': uploadCase('upload-incident-metric-image'),
  'update-incident-metric-image.json': uploadCase('update-incident-metric-image'),
};

/** Sends the case's operation: JSON, or a GraphQL multipart request when it uploads a file. */
async function send(url: string, { query, upload }: FixtureCase): Promise<GraphQLResponse> {
  const headers: Record<string, string> = { 'private-token': 'glpat-contract' };
  if (!upload) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return (await response.json()) as GraphQLResponse;
  }
  const response = await postUpload(url, query, {}, { file: upload }, headers['private-token']);
  return (await response.json()) as GraphQLResponse;
}

describe('issues fixtures from the REST documentation', () => {
  // One stub upstream and one gateway for every case: the stub's routes are swapped per case.
  const routes: StubRoute[] = [];
  let stub: Awaited<ReturnType<typeof startStubUpstream>>;
  let gateway: TestGateway;

  beforeAll(async () => {
    stub = await startStubUpstream(routes);
    gateway = await startTestGateway(stub.url);
  });

  afterAll(async () => {
    await gateway?.close();
    await stub?.close();
  });

  it('maps every file of fixtures/gitlab-docs/issues/, none left aside', () => {
    const files = readdirSync(new URL('issues/', FIXTURES_DIR)).filter((name) => name.endsWith('.json'));
    expect(Object.keys(CASES).sort()).toEqual(files.sort());
  });

  it.each(Object.entries(CASES))('%s maps through the schema', async (_name, fixtureCase) => {
    routes.splice(0, routes.length, ...fixtureCase.routes);
    stub.requests.length = 0;
    const result = await send(gateway.url, fixtureCase);
    if (fixtureCase.error) {
      expect(result.errors?.[0]).toMatchObject(fixtureCase.error);
      return;
    }
    expect(result.errors).toBeUndefined();
    expect(result.data).toMatchObject(fixtureCase.expected as Record<string, unknown>);
    // Every route the case serves was asked for: no fixture sat unused.
    const asked = new Set(stub.requests.map((request) => `${request.method} ${request.path}`));
    for (const route of fixtureCase.routes) expect(asked, `${route.method} ${route.path}`).toContain(`${route.method} ${route.path}`);
  });
});
