import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startTestGateway } from '../support/gateway.js';
import { FIXTURES_DIR, readFixture, startStubUpstream, type StubRoute } from '../support/stub-upstream.js';

/**
 * Every groups fixture of the REST documentation, served by a stub upstream, maps through the
 * schema without error, with its values where the schema says they go. Fixtures of endpoints outside
 * rest-v4-api.md are served from the covered endpoint that returns the same resource (a group list,
 * a group record, a user), so their bodies still go through the schema.
 */
const fixture = (name: string) => readFixture(`groups/${name}.json`);
const first = (name: string) => (fixture(name) as unknown[])[0];

/** Fields every group record of the documentation carries. */
const GROUP_RECORD_FIELDS = `id fullPath name path fullName description visibility shareWithGroupLock requireTwoFactorAuthentication twoFactorGracePeriod
  projectCreationLevel autoDevopsEnabled subgroupCreationLevel emailsDisabled mentionsDisabled lfsEnabled defaultBranchProtection avatarUrl webUrl
  requestAccessEnabled createdAt`;
/** ... and those of group list records (fixtures/groups/list-groups.json). */
const GROUP_LIST_FIELDS = `${GROUP_RECORD_FIELDS} fileTemplateProject { id }`;
/** Fields of every project record of the documentation, as the group detail embeds it (fixtures/groups/get-group.json). */
const EMBEDDED_PROJECT_FIELDS = `id fullPath name nameWithNamespace path description defaultBranch tagList topics archived visibility sshUrlToRepo
  httpUrlToRepo webUrl issuesEnabled mergeRequestsEnabled wikiEnabled jobsEnabled snippetsEnabled createdAt lastActivityAt
  sharedRunnersEnabled namespace { id name path kind } avatarUrl starCount forksCount openIssuesCount publicJobs
  sharedWithGroups { group { id fullPath name } groupAccessLevel expiresAt }`;
const STATISTICS_FIELDS = 'storageSize repositorySize wikiSize lfsObjectsSize jobArtifactsSize pipelineArtifactsSize packagesSize snippetsSize uploadsSize';
const USER_FIELDS = 'id username name state avatarUrl webUrl createdAt bio location publicEmail websiteUrl organization';
const ACCESS_TOKEN_FIELDS = 'id name description scopes revoked active createdAt lastUsedAt expiresAt user { id username }';

/** The group every list case hangs from: `foo` (id 123), as list-subgroups.json's parent_id says. */
const PARENT = { id: 123, full_path: 'foo', name: 'Foo', path: 'foo' };
const H5BP = { id: 5, full_path: 'h5bp', name: 'Experimental', path: 'h5bp' };
/** The user the credentials inventory fixtures name (`"user_id": 3`), a user record of the documentation. */
const ENTERPRISE_USER = { ...(first('list-group-saml-users') as Record<string, unknown>), id: 3 };

interface FixtureCase {
  routes: StubRoute[];
  query: string;
  expected: unknown;
}

const CASES: Record<string, FixtureCase> = {
  'list-groups.json': {
    routes: [{ method: 'GET', path: '/groups', body: fixture('list-groups') }],
    query: `{ groups { count nodes { ${GROUP_LIST_FIELDS} parent { id } } } }`,
    expected: {
      groups: {
        count: 1,
        nodes: [
          {
            id: 'gid://gitlab/Group/1',
            fullPath: 'foo-bar',
            visibility: 'public',
            projectCreationLevel: 'DEVELOPER',
            subgroupCreationLevel: 'OWNER',
            autoDevopsEnabled: null,
            defaultBranchProtection: 'FULL',
            fileTemplateProject: { id: 'gid://gitlab/Project/1' },
            parent: null,
          },
        ],
      },
    },
  },
  'list-groups-with-statistics.json': {
    routes: [{ method: 'GET', path: '/groups', body: fixture('list-groups-with-statistics') }],
    query: `{ groups(statistics: true) { nodes { fullPath statistics { ${STATISTICS_FIELDS} } } } }`,
    expected: {
      groups: {
        nodes: [
          {
            fullPath: 'foo-bar',
            statistics: { storageSize: 363, repositorySize: 33, wikiSize: 100, lfsObjectsSize: 123, jobArtifactsSize: 57, pipelineArtifactsSize: 0, packagesSize: 0, snippetsSize: 50, uploadsSize: 0 },
          },
        ],
      },
    },
  },
  'search-groups.json': {
    // The documentation abbreviates these records to four keys; any other field comes from the group's detail.
    routes: [
      { method: 'GET', path: '/groups', body: fixture('search-groups') },
      { method: 'GET', path: '/groups/1', body: first('list-groups') },
    ],
    query: `{ groups(search: "foobar") { nodes { id name path description fullPath visibility } } }`,
    expected: { groups: { nodes: [{ id: 'gid://gitlab/Group/1', name: 'Foobar Group', path: 'foo-bar', description: 'An interesting group', fullPath: 'foo-bar', visibility: 'public' }] } },
  },
  'list-subgroups.json': {
    routes: [
      { method: 'GET', path: '/groups/foo', body: PARENT },
      { method: 'GET', path: '/groups/123', body: PARENT },
      { method: 'GET', path: '/groups/foo/subgroups', body: fixture('list-subgroups') },
    ],
    query: `{ group(fullPath: "foo") { subgroups { count nodes { ${GROUP_LIST_FIELDS} parent { fullPath } } } } }`,
    expected: { group: { subgroups: { count: 1, nodes: [{ id: 'gid://gitlab/Group/1', fullPath: 'foo-bar', parent: { fullPath: 'foo' } }] } } },
  },
  'list-descendant-groups.json': {
    routes: [
      { method: 'GET', path: '/groups/foo', body: PARENT },
      { method: 'GET', path: '/groups/foo/descendant_groups', body: fixture('list-descendant-groups') },
    ],
    query: `{ group(fullPath: "foo") { descendantGroups { count nodes { ${GROUP_LIST_FIELDS} } } } }`,
    expected: { group: { descendantGroups: { count: 2, nodes: [{ fullPath: 'foo/bar', avatarUrl: 'http://gitlab.example.com/uploads/group/avatar/1/bar.jpg' }, { fullPath: 'foo/bar/baz' }] } } },
  },
  'list-shared-groups.json': {
    // GET /groups/:id/groups/shared is outside rest-v4-api.md; its records are group list records.
    // The documentation renders their booleans and nulls as strings ("false", "nil"): a known doc
    // bug that the group fields read as the values they mean, rather than failing.
    routes: [
      { method: 'GET', path: '/groups/foo', body: PARENT },
      { method: 'GET', path: '/groups/foo/subgroups', body: fixture('list-shared-groups') },
    ],
    query: `{ group(fullPath: "foo") { subgroups { nodes { ${GROUP_RECORD_FIELDS} parent { id } } } } }`,
    expected: {
      group: {
        subgroups: {
          nodes: [
            {
              id: 'gid://gitlab/Group/101',
              fullPath: 'some_path',
              shareWithGroupLock: false,
              requireTwoFactorAuthentication: false,
              autoDevopsEnabled: null,
              emailsDisabled: false,
              mentionsDisabled: null,
              lfsEnabled: true,
              requestAccessEnabled: true,
              projectCreationLevel: 'MAINTAINER',
              defaultBranchProtection: 'FULL',
              parent: null,
            },
          ],
        },
      },
    },
  },
  'list-invited-groups.json': {
    // GET /groups/:id/invited_groups is outside rest-v4-api.md; its records are group list records.
    routes: [{ method: 'GET', path: '/groups', body: fixture('list-invited-groups') }],
    query: `{ groups { nodes { id fullPath name path description visibility shareWithGroupLock emailsDisabled lfsEnabled defaultBranchProtection requestAccessEnabled createdAt parent { id } } } }`,
    expected: { groups: { nodes: [{ id: 'gid://gitlab/Group/33', fullPath: 'flightjs', emailsDisabled: false, defaultBranchProtection: 'FULL', parent: null }] } },
  },
  'list-group-transfer-locations.json': {
    // GET /groups/:id/transfer_locations is outside rest-v4-api.md; its records are public group details.
    routes: [{ method: 'GET', path: '/groups', body: fixture('list-group-transfer-locations') }],
    query: `{ groups { nodes { id fullPath name fullName webUrl avatarUrl } } }`,
    expected: {
      groups: {
        nodes: [
          { id: 'gid://gitlab/Group/27', fullPath: 'GitLab', name: 'GitLab', fullName: 'GitLab', webUrl: 'https://gitlab.example.com/groups/gitlab', avatarUrl: null },
          { id: 'gid://gitlab/Group/31', fullPath: 'FooBar' },
        ],
      },
    },
  },
  'get-group.json': {
    routes: [
      { method: 'GET', path: '/groups/twitter', body: fixture('get-group') },
      // The deprecated embedded projects are asked for with with_projects=true, by id.
      { method: 'GET', path: '/groups/4', body: fixture('get-group') },
    ],
    query: `{ group(fullPath: "twitter") { id fullPath name path description visibility avatarUrl webUrl requestAccessEnabled fullName runnersToken
      fileTemplateProject { id } createdAt parent { id }
      sharedWithGroups { group { id fullPath name } groupName groupFullPath groupAccessLevel expiresAt }
      embeddedProjects { ${EMBEDDED_PROJECT_FIELDS} } embeddedSharedProjects { ${EMBEDDED_PROJECT_FIELDS} } } }`,
    expected: {
      group: {
        id: 'gid://gitlab/Group/4',
        runnersToken: 'ba324ca7b1c77fc20bb9',
        sharedWithGroups: [{ group: { id: 'gid://gitlab/Group/28', fullPath: 'h5bp', name: 'H5bp' }, groupName: 'H5bp', groupFullPath: 'h5bp', groupAccessLevel: 'REPORTER', expiresAt: null }],
        embeddedProjects: [
          { id: 'gid://gitlab/Project/7', fullPath: 'twitter/typeahead-js', snippetsEnabled: false, namespace: { id: 'gid://gitlab/Namespace/4', kind: 'group' }, sharedWithGroups: [] },
          { id: 'gid://gitlab/Project/6', visibility: 'internal', openIssuesCount: 8 },
        ],
        embeddedSharedProjects: [
          {
            fullPath: 'h5bp/html5-boilerplate',
            visibility: 'private',
            sharedWithGroups: [
              { group: { id: 'gid://gitlab/Group/4', fullPath: 'twitter', name: 'Twitter' }, groupAccessLevel: 'DEVELOPER', expiresAt: null },
              { group: { fullPath: 'gitlab-org' }, groupAccessLevel: 'GUEST', expiresAt: '2018-08-14' },
            ],
          },
        ],
      },
    },
  },
  'get-group-without-projects.json': {
    routes: [
      { method: 'GET', path: '/groups/twitter', body: fixture('get-group-without-projects') },
      { method: 'GET', path: '/groups/4', body: fixture('get-group-without-projects') },
    ],
    query: `{ group(fullPath: "twitter") { id fullPath name path description visibility avatarUrl webUrl requestAccessEnabled fullName fileTemplateProject { id }
      parent { id } runnersToken embeddedProjects { id } } }`,
    // Without the deprecated keys in REST's answer, there is nothing to embed.
    expected: { group: { id: 'gid://gitlab/Group/4', fullPath: 'twitter', runnersToken: null, parent: null, embeddedProjects: null } },
  },
  'fragment-get-group-premium-attributes.json': {
    routes: [{ method: 'GET', path: '/groups/4', body: fixture('fragment-get-group-premium-attributes') }],
    query: `{ node(id: "gid://gitlab/Group/4") { id ... on Group { description sharedRunnersMinutesLimit extraSharedRunnersMinutesLimit markedForDeletionOn membershipLock } } }`,
    expected: { node: { id: 'gid://gitlab/Group/4', sharedRunnersMinutesLimit: 133, extraSharedRunnersMinutesLimit: 133, markedForDeletionOn: '2020-04-03', membershipLock: false } },
  },
  'archive-group.json': {
    // POST /groups/:id/archive is outside rest-v4-api.md; it answers the group's detail.
    routes: [{ method: 'GET', path: '/groups/test-1', body: fixture('archive-group') }],
    query: `{ group(fullPath: "test-1") { ${GROUP_LIST_FIELDS} membershipLock sharedRunnersSetting preventForkingOutsideGroup sharedRunnersMinutesLimit
      extraSharedRunnersMinutesLimit sharedWithGroups { groupName } runnersToken parent { id } } }`,
    expected: {
      group: { id: 'gid://gitlab/Group/96', emailsDisabled: false, membershipLock: false, sharedRunnersSetting: 'enabled', preventForkingOutsideGroup: null, sharedWithGroups: [], runnersToken: null },
    },
  },
  'unarchive-group.json': {
    routes: [{ method: 'GET', path: '/groups/test-1', body: fixture('unarchive-group') }],
    query: `{ group(fullPath: "test-1") { ${GROUP_LIST_FIELDS} membershipLock sharedRunnersSetting sharedWithGroups { groupName } } }`,
    expected: { group: { id: 'gid://gitlab/Group/96', subgroupCreationLevel: 'MAINTAINER', sharedRunnersSetting: 'enabled' } },
  },
  'update-group.json': {
    routes: [{ method: 'PUT', path: '/groups/5', body: fixture('update-group') }],
    query: `mutation { groupUpdate(input: { id: "gid://gitlab/Group/5", description: "foo" }) { errors group { id fullPath name path description visibility
      avatarUrl webUrl requestAccessEnabled fullName fileTemplateProject { id } parent { id } createdAt embeddedProjects { ${EMBEDDED_PROJECT_FIELDS} } } } }`,
    expected: {
      groupUpdate: { errors: [], group: { id: 'gid://gitlab/Group/5', fullPath: 'h5bp', description: 'foo', visibility: 'internal', embeddedProjects: [{ id: 'gid://gitlab/Project/9', fullPath: 'h5bp/html5-boilerplate', starCount: 1 }] } },
    },
  },
  'list-group-projects.json': {
    routes: [
      { method: 'GET', path: '/groups/h5bp', body: H5BP },
      { method: 'GET', path: '/groups/h5bp/projects', body: fixture('list-group-projects') },
    ],
    query: `{ group(fullPath: "h5bp") { projects { count nodes { ${EMBEDDED_PROJECT_FIELDS} readmeUrl } } } }`,
    expected: {
      group: {
        projects: {
          count: 1,
          nodes: [{ id: 'gid://gitlab/Project/9', fullPath: 'h5bp/html5-boilerplate', nameWithNamespace: 'Experimental / Html5 Boilerplate', readmeUrl: null }],
        },
      },
    },
  },
  'list-group-shared-projects.json': {
    routes: [
      { method: 'GET', path: '/groups/h5bp', body: H5BP },
      { method: 'GET', path: '/groups/h5bp/projects/shared', body: fixture('list-group-shared-projects') },
    ],
    query: `{ group(fullPath: "h5bp") { sharedProjects { count nodes { ${EMBEDDED_PROJECT_FIELDS} readmeUrl emptyRepo resolveOutdatedDiffDiscussions
      containerExpirationPolicy { cadence enabled keepN olderThan nameRegex nameRegexKeep nextRunAt } canCreateMergeRequestIn issuesAccessLevel { stringValue }
      repositoryAccessLevel { stringValue } mergeRequestsAccessLevel { stringValue } forkingAccessLevel { stringValue } wikiAccessLevel { stringValue }
      buildsAccessLevel { stringValue } snippetsAccessLevel { stringValue } pagesAccessLevel { integerValue stringValue }
      emailsDisabled lfsEnabled importStatus ciDefaultGitDepth ciForwardDeploymentEnabled buildTimeout autoCancelPendingPipelines ciConfigPath
      onlyAllowMergeIfPipelineSucceeds onlyAllowMergeIfAllDiscussionsAreResolved removeSourceBranchAfterMerge printingMergeRequestLinkEnabled
      mergeMethod suggestionCommitMessage autoDevopsEnabled autoDevopsDeployStrategy autocloseReferencedIssues repositoryStorage
      links { self issues mergeRequests repoBranches labels events members clusterAgents } namespace { fullPath parentId webUrl } group { id fullPath } } } } }`,
    expected: {
      group: {
        sharedProjects: {
          count: 1,
          nodes: [
            {
              id: 'gid://gitlab/Project/8',
              containerExpirationPolicy: { cadence: '7d', enabled: true, keepN: null, nextRunAt: '2020-05-04T06:13:22.654Z' },
              pagesAccessLevel: { integerValue: 20, stringValue: 'ENABLED' },
              importStatus: 'failed',
              sharedWithGroups: [{ group: { id: 'gid://gitlab/Group/24', fullPath: 'Commit451' }, groupAccessLevel: 'DEVELOPER', expiresAt: null }],
              links: { self: 'https://gitlab.com/api/v4/projects/8', clusterAgents: null },
              namespace: { fullPath: 'h5bp', parentId: null },
              group: { id: 'gid://gitlab/Group/28', fullPath: 'h5bp' },
            },
          ],
        },
      },
    },
  },
  'list-group-saml-users.json': {
    // GET /groups/:id/saml_users (PREMIUM) is outside rest-v4-api.md; its records are users.
    routes: [{ method: 'GET', path: '/users/66', body: first('list-group-saml-users') }],
    query: `{ node(id: "gid://gitlab/User/66") { ... on User { ${USER_FIELDS} } } }`,
    expected: { node: { id: 'gid://gitlab/User/66', username: 'user22', name: 'Sidney Jones22', organization: null } },
  },
  'list-group-provisioned-users.json': {
    // GET /groups/:id/provisioned_users (PREMIUM) is outside rest-v4-api.md; its records are users.
    routes: [{ method: 'GET', path: '/users/66', body: first('list-group-provisioned-users') }],
    query: `{ node(id: "gid://gitlab/User/66") { ... on User { ${USER_FIELDS} } } }`,
    expected: { node: { id: 'gid://gitlab/User/66', name: 'John Doe22', publicEmail: '' } },
  },
  // The credentials inventory (PREMIUM and ULTIMATE, GitLab.com; doc/api/groups.md): its records
  // name their user by id only, which is fetched when asked for.
  'list-group-managed-personal-access-tokens.json': {
    routes: [
      { method: 'GET', path: '/groups/h5bp', body: H5BP },
      { method: 'GET', path: '/groups/h5bp/manage/personal_access_tokens', body: fixture('list-group-managed-personal-access-tokens') },
      { method: 'GET', path: '/users/3', body: ENTERPRISE_USER },
    ],
    query: `{ group(fullPath: "h5bp") { managedPersonalAccessTokens { count nodes { ${ACCESS_TOKEN_FIELDS} } } } }`,
    expected: {
      group: {
        managedPersonalAccessTokens: {
          count: 1,
          nodes: [
            {
              id: 'gid://gitlab/PersonalAccessToken/1',
              name: 'Test Token',
              description: 'Test Token description',
              scopes: ['api'],
              revoked: false,
              active: true,
              createdAt: '2020-07-23T14:31:47.729Z',
              lastUsedAt: '2021-10-06T17:58:37.550Z',
              expiresAt: '2025-11-08',
              user: { id: 'gid://gitlab/User/3', username: 'user22' },
            },
          ],
        },
      },
    },
  },
  'list-group-managed-resource-access-tokens.json': {
    routes: [
      { method: 'GET', path: '/groups/h5bp', body: H5BP },
      { method: 'GET', path: '/groups/h5bp/manage/resource_access_tokens', body: fixture('list-group-managed-resource-access-tokens') },
      { method: 'GET', path: '/users/25365147', body: { id: 25365147, username: 'group_77449520_bot_0123456789abcdef', name: 'Test Group Token' } },
      { method: 'GET', path: '/groups/77449520', body: { id: 77449520, full_path: 'acme-corp', name: 'ACME Corp', path: 'acme-corp' } },
    ],
    query: `{ group(fullPath: "h5bp") { managedResourceAccessTokens { count nodes { ${ACCESS_TOKEN_FIELDS} accessLevel resourceType group { id fullPath } project { id } } } } }`,
    expected: {
      group: {
        managedResourceAccessTokens: {
          count: 1,
          nodes: [
            {
              id: 'gid://gitlab/PersonalAccessToken/12767703',
              name: 'Test Group Token',
              description: '',
              scopes: ['read_registry'],
              lastUsedAt: null,
              expiresAt: '2025-06-19',
              accessLevel: 'GUEST',
              resourceType: 'GROUP',
              group: { id: 'gid://gitlab/Group/77449520', fullPath: 'acme-corp' },
              project: null,
              user: { id: 'gid://gitlab/User/25365147', username: 'group_77449520_bot_0123456789abcdef' },
            },
          ],
        },
      },
    },
  },
  'list-group-managed-ssh-keys.json': {
    routes: [
      { method: 'GET', path: '/groups/h5bp', body: H5BP },
      { method: 'GET', path: '/groups/h5bp/manage/ssh_keys', body: fixture('list-group-managed-ssh-keys') },
      { method: 'GET', path: '/users/3', body: ENTERPRISE_USER },
    ],
    query: `{ group(fullPath: "h5bp") { managedSshKeys { count nodes { id title createdAt expiresAt lastUsedAt usageType user { id username } } } } }`,
    expected: {
      group: {
        managedSshKeys: {
          count: 1,
          nodes: [
            {
              id: 'gid://gitlab/Key/3',
              title: 'Sample key 3',
              createdAt: '2024-12-23T05:40:11.891Z',
              expiresAt: null,
              lastUsedAt: '2024-12-23T05:40:11.891Z',
              usageType: 'AUTH_AND_SIGNING',
              user: { id: 'gid://gitlab/User/3', username: 'user22' },
            },
          ],
        },
      },
    },
  },
  'rotate-group-managed-personal-access-token.json': {
    routes: [{ method: 'POST', path: '/groups/h5bp/manage/personal_access_tokens/41/rotate', body: fixture('rotate-group-managed-personal-access-token') }],
    query: `mutation { managedPersonalAccessTokenRotate(input: { groupPath: "h5bp", id: "gid://gitlab/PersonalAccessToken/41" }) {
      errors token personalAccessToken { id name description scopes revoked active createdAt lastUsedAt expiresAt } } }`,
    expected: {
      managedPersonalAccessTokenRotate: {
        errors: [],
        token: 's3cr3t',
        personalAccessToken: {
          id: 'gid://gitlab/PersonalAccessToken/42',
          name: 'Rotated Token',
          scopes: ['api'],
          revoked: false,
          active: true,
          createdAt: '2023-08-01T15:00:00.000Z',
          lastUsedAt: null,
          expiresAt: '2023-08-15',
        },
      },
    },
  },
  'rotate-group-managed-resource-access-token.json': {
    // The documentation's example is the personal token's: it lacks access_level and resource_*.
    routes: [{ method: 'POST', path: '/groups/h5bp/manage/resource_access_tokens/41/rotate', body: fixture('rotate-group-managed-resource-access-token') }],
    query: `mutation { managedResourceAccessTokenRotate(input: { groupPath: "h5bp", id: "gid://gitlab/PersonalAccessToken/41", expiresAt: "2023-08-15" }) {
      errors token resourceAccessToken { id name description scopes revoked active createdAt lastUsedAt expiresAt accessLevel resourceType group { id } project { id } } } }`,
    expected: {
      managedResourceAccessTokenRotate: {
        errors: [],
        token: 's3cr3t',
        resourceAccessToken: { id: 'gid://gitlab/PersonalAccessToken/42', name: 'Rotated Token', expiresAt: '2023-08-15', accessLevel: null, resourceType: null, group: null, project: null },
      },
    },
  },
};

describe('groups fixtures from the REST documentation', () => {
  it('maps every file of fixtures/gitlab-docs/groups/, none left aside', () => {
    const files = readdirSync(new URL('groups/', FIXTURES_DIR)).filter((name) => name.endsWith('.json'));
    expect(Object.keys(CASES).sort()).toEqual(files.sort());
  });

  it.each(Object.entries(CASES))('%s maps through the schema', async (_name, { routes, query, expected }) => {
    const stub = await startStubUpstream(routes);
    const gateway = await startTestGateway(stub.url);
    try {
      const result = await gateway.query(query, {}, 'glpat-contract');
      expect(result.errors).toBeUndefined();
      expect(result.data).toMatchObject(expected as Record<string, unknown>);
      // Every REST call the query made was one the stub knows: nothing fell through to a 404.
      expect(stub.requests.every((request) => routes.some((route) => route.method === request.method && route.path === request.path))).toBe(true);
    } finally {
      await gateway.close();
      await stub.close();
    }
  });
});
