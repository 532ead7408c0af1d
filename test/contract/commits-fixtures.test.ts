import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { FIXTURES_DIR, readFixture, startStubUpstream, type StubRoute } from '../support/stub-upstream.js';

/**
 * Every commits and submodules fixture of the REST documentation, served by a stub upstream, maps
 * through the schema without error, with its values where the schema says they go.
 */
const commitFixture = (name: string) => readFixture(`commits/${name}`);

const PROJECT: StubRoute = { method: 'GET', path: '/projects/group%2Fproject', body: { id: 9, path_with_namespace: 'group/project', name: 'project', path: 'project' } };
const SHA = '6104942438c14ec7bd21c6cd5bd995272b3faff6';
const COMMIT = `/projects/9/repository/commits/${SHA}`;
const SHOW: StubRoute = { method: 'GET', path: `/projects/9/repository/commits/main`, body: commitFixture('get-commit.json') };
/** A commit looked up by branch name, then the sub-resource under test. */
const onCommit = (selection: string) => `{ project(fullPath: "group/project") { repository { commit(ref: "main") { ${selection} } } } }`;
const onCommitData = (value: Record<string, unknown>) => ({ project: { repository: { commit: value } } });
const COMMIT_FIELDS = 'id sha shortId title message authorName authorEmail authoredDate committerName committerEmail committedDate createdAt parentIds webUrl';
/** REST sends no totals for commit lists (rest-conventions §3): the stub leaves them empty too. */
const NO_TOTAL = { 'x-total': '', 'x-total-pages': '' };

const CHANGE_PAYLOAD = 'errors errorCode dryRun commit { sha title message parentIds authorName }';
const change = (mutation: 'commitCherryPick' | 'commitRevert', dryRun = false) =>
  `mutation { ${mutation}(input: { projectPath: "group/project", sha: "${SHA}", branch: "main", dryRun: ${dryRun} }) { ${CHANGE_PAYLOAD} } }`;

interface FixtureCase {
  routes: StubRoute[];
  query: string;
  expected: unknown;
  /** What else the requests must show. */
  sent?: (requests: Array<{ method: string; headers: Record<string, string | string[] | undefined> }>) => void;
}

const SIGNATURE = `signature { __typename verificationStatus commitSource
  ... on GpgSignature { gpgKeyId gpgKeyPrimaryKeyid gpgKeyUserName gpgKeyUserEmail gpgKeySubkeyId }
  ... on X509Signature { x509Certificate { id subject subjectKeyIdentifier email serialNumber certificateStatus x509Issuer { id subject subjectKeyIdentifier crlUrl } } }
  ... on SshSignature { key { id title createdAt expiresAt key usageType } } }`;

const COMMITS: Record<string, FixtureCase> = {
  'list-repository-commits.json': {
    routes: [PROJECT, { method: 'GET', path: '/projects/9/repository/commits', body: commitFixture('list-repository-commits.json'), headers: NO_TOTAL }],
    query: `{ project(fullPath: "group/project") { repository { commits(refName: "main", trailers: true) { count pageInfo { hasNextPage }
              nodes { ${COMMIT_FIELDS} trailers { key value } extendedTrailers { key values } } } } } }`,
    expected: {
      project: {
        repository: {
          commits: {
            count: null,
            pageInfo: { hasNextPage: false },
            nodes: [
              expect.objectContaining({ id: 'gid://gitlab/Commit/ed899a2f4b50b4370feeea94676502b42383c746', shortId: 'ed899a2f4b5', trailers: [], extendedTrailers: [] }),
              expect.objectContaining({
                sha: SHA,
                committerName: 'ExampleName',
                createdAt: '2021-09-20T09:06:12.201+00:00',
                trailers: [{ key: 'Cc', value: 'Jane Doe <janedoe@gitlab.com>' }],
                extendedTrailers: [{ key: 'Cc', values: ['John Doe <johndoe@gitlab.com>', 'Jane Doe <janedoe@gitlab.com>'] }],
              }),
            ],
          },
        },
      },
    },
  },
  'get-commit.json': {
    routes: [PROJECT, SHOW],
    query: onCommit(`${COMMIT_FIELDS} stats { additions deletions total } status lastPipeline { id ref sha status }`),
    expected: onCommitData({
      id: `gid://gitlab/Commit/${SHA}`,
      sha: SHA,
      shortId: '6104942438c',
      title: 'Sanitize for network graph',
      message: 'Sanitize for network graph',
      authorName: 'randx',
      authorEmail: 'user@example.com',
      authoredDate: '2021-09-20T09:06:12.420+03:00',
      committerName: 'Dmitriy',
      committerEmail: 'user@example.com',
      committedDate: '2021-09-20T09:06:12.300+03:00',
      createdAt: '2021-09-20T09:06:12.300+03:00',
      parentIds: ['ae1d9fb46aa2b07ee9836d49862ec4e2c46fbbba'],
      webUrl: `https://gitlab.example.com/janedoe/gitlab-foss/-/commit/${SHA}`,
      stats: { additions: 15, deletions: 10, total: 25 },
      status: 'RUNNING',
      lastPipeline: { id: 'gid://gitlab/Ci::Pipeline/8', ref: 'main', sha: '2dc6aa325a317eda67812f05600bdf0fcdc70ab0', status: 'CREATED' },
    }),
  },
  'create-commit.json': {
    routes: [{ method: 'POST', path: '/projects/group%2Fproject/repository/commits', status: 201, body: commitFixture('create-commit.json') }],
    query: `mutation { commitCreate(input: { projectPath: "group/project", branch: "main", message: "some commit message",
              actions: [{ action: CREATE, filePath: "foo/bar", content: "some content" }, { action: DELETE, filePath: "foo/bar2" },
                        { action: MOVE, filePath: "foo/bar3", previousPath: "foo/bar4", content: "some content" },
                        { action: UPDATE, filePath: "foo/bar5", content: "new content" },
                        { action: CHMOD, filePath: "foo/bar5", executeFilemode: true }] }) {
              errors commit { sha shortId title parentIds stats { additions deletions total } status } } }`,
    // rest-v4-api.md "Conventions" 2: commit creation is sent as a JSON body.
    sent: (requests) => expect(requests.find((request) => request.method === 'POST')?.headers['content-type']).toBe('application/json'),
    expected: {
      commitCreate: {
        errors: [],
        commit: { sha: 'ed899a2f4b50b4370feeea94676502b42383c746', shortId: 'ed899a2f4b5', title: 'some commit message', parentIds: ['ae1d9fb46aa2b07ee9836d49862ec4e2c46fbbba'], stats: { additions: 2, deletions: 2, total: 4 }, status: null },
      },
    },
  },
  'list-commit-refs.json': {
    routes: [PROJECT, SHOW, { method: 'GET', path: `${COMMIT}/refs`, body: commitFixture('list-commit-refs.json'), headers: NO_TOTAL }],
    query: onCommit('refs(type: ALL) { count nodes { type name } }'),
    expected: onCommitData({
      refs: { count: null, nodes: [{ type: 'BRANCH', name: "'test'" }, { type: 'BRANCH', name: 'add-balsamiq-file' }, { type: 'BRANCH', name: 'wip' }, { type: 'TAG', name: 'v1.1.0' }] },
    }),
  },
  'get-commit-sequence.json': {
    routes: [PROJECT, SHOW, { method: 'GET', path: `${COMMIT}/sequence`, body: commitFixture('get-commit-sequence.json') }],
    query: onCommit('sequence'),
    expected: onCommitData({ sequence: 632 }),
  },
  'cherry-pick-commit.json': {
    routes: [{ method: 'POST', path: `/projects/group%2Fproject/repository/commits/${SHA}/cherry_pick`, status: 201, body: commitFixture('cherry-pick-commit.json') }],
    query: change('commitCherryPick'),
    expected: {
      commitCherryPick: {
        errors: [],
        errorCode: null,
        dryRun: false,
        commit: { sha: '8b090c1b79a14f2bd9e8a738f717824ff53aebad', title: 'Feature added', message: 'Feature added\n\nSigned-off-by: Example User <user@example.com>\n', parentIds: ['a738f717824ff53aebad8b090c1b79a14f2bd9e8'], authorName: 'Example User' },
      },
    },
  },
  'cherry-pick-commit-error-empty.json': {
    routes: [{ method: 'POST', path: `/projects/group%2Fproject/repository/commits/${SHA}/cherry_pick`, status: 400, body: commitFixture('cherry-pick-commit-error-empty.json') }],
    query: change('commitCherryPick'),
    expected: {
      commitCherryPick: {
        errors: ['Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, or a more recent commit may have updated some of its content.'],
        errorCode: 'EMPTY',
        dryRun: false,
        commit: null,
      },
    },
  },
  'cherry-pick-commit-dry-run.json': {
    routes: [{ method: 'POST', path: `/projects/group%2Fproject/repository/commits/${SHA}/cherry_pick`, status: 200, body: commitFixture('cherry-pick-commit-dry-run.json') }],
    query: change('commitCherryPick', true),
    expected: { commitCherryPick: { errors: [], errorCode: null, dryRun: true, commit: null } },
  },
  'revert-commit.json': {
    routes: [{ method: 'POST', path: `/projects/group%2Fproject/repository/commits/${SHA}/revert`, status: 201, body: commitFixture('revert-commit.json') }],
    query: change('commitRevert'),
    expected: {
      commitRevert: {
        errors: [],
        errorCode: null,
        dryRun: false,
        commit: {
          sha: '8b090c1b79a14f2bd9e8a738f717824ff53aebad',
          title: 'Revert "Feature added"',
          message: 'Revert "Feature added"\n\nThis reverts commit a738f717824ff53aebad8b090c1b79a14f2bd9e8',
          parentIds: ['a738f717824ff53aebad8b090c1b79a14f2bd9e8'],
          authorName: 'Administrator',
        },
      },
    },
  },
  'revert-commit-error-conflict.json': {
    routes: [{ method: 'POST', path: `/projects/group%2Fproject/repository/commits/${SHA}/revert`, status: 400, body: commitFixture('revert-commit-error-conflict.json') }],
    query: change('commitRevert'),
    expected: {
      commitRevert: {
        errors: ['Sorry, we cannot revert this commit automatically. This commit may already have been reverted, or a more recent commit may have updated some of its content.'],
        errorCode: 'CONFLICT',
        dryRun: false,
        commit: null,
      },
    },
  },
  'revert-commit-dry-run.json': {
    routes: [{ method: 'POST', path: `/projects/group%2Fproject/repository/commits/${SHA}/revert`, status: 200, body: commitFixture('revert-commit-dry-run.json') }],
    query: change('commitRevert', true),
    expected: { commitRevert: { errors: [], errorCode: null, dryRun: true, commit: null } },
  },
  'get-commit-diff.json': {
    routes: [PROJECT, SHOW, { method: 'GET', path: `${COMMIT}/diff`, body: commitFixture('get-commit-diff.json') }],
    query: onCommit('diffs { count nodes { diff newPath oldPath aMode bMode newFile renamedFile deletedFile collapsed tooLarge generatedFile } }'),
    expected: onCommitData({
      diffs: {
        count: 1,
        nodes: [
          {
            diff: expect.stringMatching(/^@@ -71,6 \+71,8 @@\n/) as unknown,
            newPath: 'doc/update/5.4-to-6.0.md',
            oldPath: 'doc/update/5.4-to-6.0.md',
            aMode: null,
            bMode: '100644',
            newFile: false,
            renamedFile: false,
            deletedFile: false,
            collapsed: false,
            tooLarge: false,
            generatedFile: null,
          },
        ],
      },
    }),
  },
  'list-commit-comments.json': {
    routes: [PROJECT, SHOW, { method: 'GET', path: `${COMMIT}/comments`, body: commitFixture('list-commit-comments.json') }],
    query: onCommit('comments { count nodes { note path line lineType createdAt author { id username name state } } }'),
    expected: onCommitData({
      comments: { count: 1, nodes: [{ note: 'this code is really nice', path: null, line: null, lineType: null, createdAt: null, author: { id: 'gid://gitlab/User/11', username: 'admin', name: 'Administrator', state: 'active' } }] },
    }),
  },
  'create-commit-comment.json': {
    routes: [{ method: 'POST', path: `/projects/group%2Fproject/repository/commits/${SHA}/comments`, status: 201, body: commitFixture('create-commit-comment.json') }],
    query: `mutation { commitCommentCreate(input: { projectPath: "group/project", sha: "${SHA}", note: "Nice picture!", path: "README.md", line: 11, lineType: NEW }) {
              errors comment { note path line lineType createdAt author { username avatarUrl webUrl } } } }`,
    expected: {
      commitCommentCreate: {
        errors: [],
        comment: {
          note: 'Nice picture!',
          path: 'README.md',
          line: 11,
          lineType: 'NEW',
          createdAt: '2016-01-19T09:44:55.600Z',
          author: { username: 'janedoe', avatarUrl: 'https://gitlab.example.com/uploads/user/avatar/28/jane-doe-400-400.png', webUrl: 'https://gitlab.example.com/janedoe' },
        },
      },
    },
  },
  'list-commit-discussions.json': {
    routes: [PROJECT, SHOW, { method: 'GET', path: `${COMMIT}/discussions`, body: commitFixture('list-commit-discussions.json') }],
    query: onCommit(`discussions { count nodes { id individualNote createdAt replyId resolvable resolved resolvedAt resolvedBy { username } notes { nodes { id type body attachment author { username } createdAt updatedAt system noteableId noteableType noteableIid resolvable confidential } } } }`),
    expected: onCommitData({
      discussions: {
        count: 1,
        nodes: [
          {
            id: 'gid://gitlab/Discussion/4604744a1c64de00ff62e1e8a6766919923d2b41',
            individualNote: true,
            createdAt: '2020-04-30T18:48:11.432Z',
            replyId: 'gid://gitlab/Discussion/4604744a1c64de00ff62e1e8a6766919923d2b41',
            resolvable: false,
            resolved: false,
            resolvedAt: null,
            resolvedBy: null,
            notes: { nodes: [
              {
                id: 'gid://gitlab/Note/334686748',
                type: null,
                body: 'Nice piece of code!',
                attachment: null,
                author: { username: 'janedoe' },
                createdAt: '2020-04-30T18:48:11.432Z',
                updatedAt: '2020-04-30T18:48:11.432Z',
                system: false,
                noteableId: null,
                noteableType: 'Commit',
                noteableIid: null,
                resolvable: false,
                confidential: null,
              },
            ] },
          },
        ],
      },
    }),
  },
  'list-commit-statuses.json': {
    routes: [PROJECT, SHOW, { method: 'GET', path: `${COMMIT}/statuses`, body: commitFixture('list-commit-statuses.json') }],
    query: onCommit('statuses(ref: "main", all: true) { count nodes { id sha ref status name targetUrl description coverage createdAt startedAt finishedAt allowFailure pipelineId author { username } } }'),
    expected: onCommitData({
      statuses: {
        count: 2,
        nodes: [
          {
            id: 'gid://gitlab/CommitStatus/91',
            sha: '18f3e63d05582537db6d183d9d557be09e1f90c8',
            ref: 'main',
            status: 'PENDING',
            name: 'bundler:audit',
            targetUrl: 'https://gitlab.example.com/janedoe/gitlab-foss/builds/91',
            description: null,
            coverage: null,
            createdAt: '2016-01-19T08:40:25.934Z',
            startedAt: null,
            finishedAt: null,
            allowFailure: true,
            pipelineId: null,
            author: { username: 'janedoe' },
          },
          expect.objectContaining({ id: 'gid://gitlab/CommitStatus/90', name: 'test', allowFailure: false }),
        ],
      },
    }),
  },
  'set-commit-status.json': {
    routes: [{ method: 'POST', path: '/projects/group%2Fproject/statuses/18f3e63d05582537db6d183d9d557be09e1f90c8', status: 201, body: commitFixture('set-commit-status.json') }],
    query: `mutation { commitStatusCreate(input: { projectPath: "group/project", sha: "18f3e63d05582537db6d183d9d557be09e1f90c8", state: SUCCESS, coverage: 100.0 }) {
              errors commitStatus { id sha ref status name coverage targetUrl description finishedAt allowFailure author { username } } } }`,
    expected: {
      commitStatusCreate: {
        errors: [],
        commitStatus: {
          id: 'gid://gitlab/CommitStatus/93',
          sha: '18f3e63d05582537db6d183d9d557be09e1f90c8',
          ref: null,
          status: 'SUCCESS',
          name: 'default',
          coverage: 100,
          targetUrl: null,
          description: null,
          finishedAt: '2016-01-19T09:05:50.365Z',
          allowFailure: false,
          author: { username: 'janedoe' },
        },
      },
    },
  },
  'list-commit-merge-requests.json': {
    routes: [PROJECT, SHOW, { method: 'GET', path: `${COMMIT}/merge_requests`, body: commitFixture('list-commit-merge-requests.json') }],
    query: onCommit('mergeRequests { count nodes { id iid title description state targetBranch sourceBranch author { username } draft workInProgress mergeStatus sha mergeCommitSha webUrl timeStats { timeEstimate totalTimeSpent } } }'),
    expected: onCommitData({
      mergeRequests: {
        count: 1,
        nodes: [
          {
            id: 'gid://gitlab/MergeRequest/45',
            iid: '1',
            title: 'Add new file',
            description: '',
            state: 'opened',
            targetBranch: 'main',
            sourceBranch: 'test-branch',
            author: { username: 'janedoe' },
            draft: false,
            workInProgress: false,
            mergeStatus: 'can_be_merged',
            sha: 'af5b13261899fb2c0db30abdd0af8b07cb44fdc5',
            mergeCommitSha: null,
            webUrl: 'https://gitlab.example.com/root/test-project/merge_requests/1',
            timeStats: { timeEstimate: 0, totalTimeSpent: 0 },
          },
        ],
      },
    }),
  },
  'get-commit-signature-gpg.json': {
    routes: [PROJECT, SHOW, { method: 'GET', path: `${COMMIT}/signature`, body: commitFixture('get-commit-signature-gpg.json') }],
    query: onCommit(SIGNATURE),
    expected: onCommitData({
      signature: {
        __typename: 'GpgSignature',
        verificationStatus: 'VERIFIED',
        commitSource: 'gitaly',
        gpgKeyId: 1,
        gpgKeyPrimaryKeyid: '8254AAB3FBD54AC9',
        gpgKeyUserName: 'John Doe',
        gpgKeyUserEmail: 'johndoe@example.com',
        gpgKeySubkeyId: null,
      },
    }),
  },
  'get-commit-signature-ssh.json': {
    routes: [PROJECT, SHOW, { method: 'GET', path: `${COMMIT}/signature`, body: commitFixture('get-commit-signature-ssh.json') }],
    query: onCommit(SIGNATURE),
    expected: onCommitData({
      signature: {
        __typename: 'SshSignature',
        verificationStatus: 'VERIFIED',
        commitSource: 'gitaly',
        key: {
          id: 'gid://gitlab/Key/11',
          title: 'Key',
          createdAt: '2023-05-08T09:12:38.503Z',
          expiresAt: '2024-05-07T00:00:00.000Z',
          key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILZzYDq6DhLp3aX84DGIV3F6Vf+Ae4yCTTz7RnqMJOlR MyKey)',
          usageType: 'AUTH_AND_SIGNING',
        },
      },
    }),
  },
  'get-commit-signature-x509.json': {
    // Served byte for byte: JSON.parse and JSON.stringify would round the 39-digit serial number.
    routes: [PROJECT, SHOW, { method: 'GET', path: `${COMMIT}/signature`, body: null, rawBody: readFileSync(new URL('commits/get-commit-signature-x509.json', FIXTURES_DIR), 'utf8') }],
    query: onCommit(SIGNATURE),
    expected: onCommitData({
      signature: {
        __typename: 'X509Signature',
        verificationStatus: 'UNVERIFIED',
        commitSource: 'gitaly',
        x509Certificate: {
          id: '1',
          subject: 'CN=gitlab@example.org,OU=Example,O=World',
          subjectKeyIdentifier: 'BC:BC:BC:BC:BC:BC:BC:BC:BC:BC:BC:BC:BC:BC:BC:BC:BC:BC:BC:BC',
          email: 'gitlab@example.org',
          serialNumber: '278969561018901340486471282831158785578',
          certificateStatus: 'good',
          x509Issuer: { id: '1', subject: 'CN=PKI,OU=Example,O=World', subjectKeyIdentifier: 'AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB', crlUrl: 'http://example.com/pki.crl' },
        },
      },
    }),
  },
  'get-commit-signature-unsigned-404.json': {
    routes: [PROJECT, SHOW, { method: 'GET', path: `${COMMIT}/signature`, status: 404, body: commitFixture('get-commit-signature-unsigned-404.json') }],
    query: onCommit('sha signature { verificationStatus }'),
    expected: onCommitData({ sha: SHA, signature: null }),
  },
};

const SUBMODULES: Record<string, FixtureCase> = {
  'update-submodule-reference.json': {
    // The submodule path is one segment, its slashes (and dots) encoded, as the documentation shows.
    routes: [{ method: 'PUT', path: '/projects/group%2Fproject/repository/submodules/lib%2Fmodules%2Fexample', body: readFixture('submodules/update-submodule-reference.json') }],
    query: `mutation { submoduleUpdate(input: { projectPath: "group/project", submodule: "lib/modules/example", branch: "main", commitSha: "3ddec28ea23acc5caa5d8331a6ecb2a65fc03e88" }) {
              errors commit { sha shortId title message authorName committerEmail createdAt committedDate authoredDate parentIds status } } }`,
    expected: {
      submoduleUpdate: {
        errors: [],
        commit: {
          sha: 'ed899a2f4b50b4370feeea94676502b42383c746',
          shortId: 'ed899a2f4b5',
          title: 'Updated submodule example_submodule with oid 3ddec28ea23acc5caa5d8331a6ecb2a65fc03e88',
          message: 'Updated submodule example_submodule with oid 3ddec28ea23acc5caa5d8331a6ecb2a65fc03e88',
          authorName: 'Dmitriy Zaporozhets',
          committerEmail: 'dzaporozhets@sphereconsultinginc.com',
          createdAt: '2018-09-20T09:26:24.000-07:00',
          committedDate: '2018-09-20T09:26:24.000-07:00',
          authoredDate: '2018-09-20T09:26:24.000-07:00',
          parentIds: ['ae1d9fb46aa2b07ee9836d49862ec4e2c46fbbba'],
          status: null,
        },
      },
    },
  },
};

/**
 * One stub upstream and one gateway for every case: the stub answers from the `served` array it
 * was given, whose contents each case replaces (cases share paths with different answers).
 */
const served: StubRoute[] = [];
let stub: Awaited<ReturnType<typeof startStubUpstream>>;
let gateway: TestGateway;

beforeAll(async () => {
  stub = await startStubUpstream(served);
  gateway = await startTestGateway(stub.url);
});

afterAll(async () => {
  await gateway?.close();
  await stub?.close();
});

async function mapsThroughTheSchema({ routes, query, expected, sent }: FixtureCase): Promise<void> {
  served.splice(0, served.length, ...routes);
  stub.requests.length = 0;
  const result = await gateway.query(query, {}, 'glpat-contract');
  expect(result.errors).toBeUndefined();
  expect(result.data).toEqual(expected);
  // Nothing was asked that the case does not serve.
  expect(stub.requests.every((request) => routes.some((route) => route.method === request.method && route.path === request.path))).toBe(true);
  sent?.(stub.requests);
}

const files = (folder: string) => readdirSync(new URL(`${folder}/`, FIXTURES_DIR)).filter((name) => name.endsWith('.json'));

describe('commits fixtures from the REST documentation', () => {
  it('covers every file of fixtures/gitlab-docs/commits/', () => {
    expect(Object.keys(COMMITS).sort()).toEqual(files('commits').sort());
  });

  it.each(Object.entries(COMMITS))('%s maps through the schema', async (_name, fixtureCase) => {
    await mapsThroughTheSchema(fixtureCase);
  });
});

describe('submodules fixtures from the REST documentation', () => {
  it('covers every file of fixtures/gitlab-docs/submodules/', () => {
    expect(Object.keys(SUBMODULES).sort()).toEqual(files('submodules').sort());
  });

  it.each(Object.entries(SUBMODULES))('%s maps through the schema', async (_name, fixtureCase) => {
    await mapsThroughTheSchema(fixtureCase);
  });
});
