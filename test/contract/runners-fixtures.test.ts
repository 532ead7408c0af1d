import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { readFixture, startStubUpstream } from '../support/stub-upstream.js';

/**
 * Every runners fixture of the REST documentation, served by a stub upstream, maps through the
 * schema without error, with its values where the schema says they go.
 */
const RUNNER_SUMMARY = 'id description ipAddress active paused isShared runnerType name online status jobExecutionStatus';
const RUNNER_DETAIL = `${RUNNER_SUMMARY} architecture platform revision version contactedAt tagList runUntagged locked accessLevel maximumTimeout maintenanceNote`;

const fixture = (name: string) => readFixture(`runners/${name}.json`);

describe('runners fixtures from the REST documentation', () => {
  let stub: Awaited<ReturnType<typeof startStubUpstream>>;
  let gateway: TestGateway;
  const token = 'glpat-contract';

  beforeAll(async () => {
    stub = await startStubUpstream([
      { method: 'GET', path: '/runners', body: fixture('list-owned-runners') },
      { method: 'GET', path: '/runners/all', body: fixture('list-all-runners') },
      { method: 'GET', path: '/runners/6', body: fixture('get-runner') },
      { method: 'PUT', path: '/runners/6', body: fixture('update-runner') },
      { method: 'GET', path: '/runners/6/jobs', body: fixture('list-runner-jobs') },
      { method: 'GET', path: '/runners/6/managers', body: fixture('list-runner-managers') },
      // By path when the project was looked up by path (the list is sent with its record), by id otherwise.
      { method: 'GET', path: '/projects/group%2Fproject/runners', body: fixture('list-project-runners') },
      { method: 'GET', path: '/projects/9/runners', body: fixture('list-project-runners') },
      { method: 'POST', path: '/projects/group%2Fproject/runners', status: 201, body: fixture('assign-runner-to-project') },
      { method: 'GET', path: '/groups/9/runners', body: fixture('list-group-runners') },
      { method: 'GET', path: '/projects/9', body: { id: 9, path_with_namespace: 'group/project', name: 'project', path: 'project' } },
      { method: 'GET', path: '/groups/9', body: { id: 9, full_path: 'group', name: 'group', path: 'group' } },
      { method: 'GET', path: '/projects/group%2Fproject', body: { id: 9, path_with_namespace: 'group/project', name: 'project', path: 'project' } },
      { method: 'GET', path: '/groups/group', body: { id: 9, full_path: 'group', name: 'group', path: 'group' } },
      { method: 'POST', path: '/runners', status: 201, body: fixture('create-runner-registration-token') },
      { method: 'POST', path: '/runners/verify', body: fixture('verify-runner') },
      { method: 'POST', path: '/runners/6/reset_authentication_token', status: 201, body: fixture('reset-runner-auth-token-by-id') },
      { method: 'POST', path: '/runners/reset_authentication_token', status: 201, body: fixture('reset-runner-auth-token-by-token') },
      { method: 'GET', path: '/runners/router/discovery', body: fixture('job-router-discovery') },
    ]);
    gateway = await startTestGateway(stub.url);
  });

  afterAll(async () => {
    await gateway?.close();
    await stub?.close();
  });

  it('list-owned-runners.json through ownedRunners', async () => {
    const result = await gateway.query(`{ ownedRunners { count nodes { ${RUNNER_SUMMARY} } } }`, {}, token);
    expect(result.errors).toBeUndefined();
    expect(result.data).toMatchObject({
      ownedRunners: { count: 2, nodes: [{ id: 'gid://gitlab/Ci::Runner/6', status: 'ONLINE', paused: false, runnerType: 'PROJECT_TYPE', jobExecutionStatus: 'IDLE' }, { id: 'gid://gitlab/Ci::Runner/8', online: false }] },
    });
  });

  it('list-all-runners.json through runners: the doc\'s own "paused" status is ONLINE in GitLab\'s GraphQL, and PAUSED in legacy mode', async () => {
    const result = await gateway.query<{ runners: { nodes: Array<{ status: string; paused: boolean; legacy: string }> } }>(
      `{ runners { nodes { ${RUNNER_SUMMARY} legacy: status(legacyMode: "14.5") } } }`,
      {},
      token,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?.runners.nodes).toHaveLength(4);
    // The runner is online: GitLab's GraphQL leaves pausing to `paused` (the doc's own record contradicts itself there).
    expect(result.data?.runners.nodes[2]).toMatchObject({ status: 'ONLINE', paused: false, legacy: 'PAUSED' });
  });

  it('get-runner.json through runner(id:) with its projects', async () => {
    const result = await gateway.query(`{ runner(id: "gid://gitlab/Ci::Runner/6") { ${RUNNER_DETAIL} projects { count nodes { id fullPath name nameWithNamespace path } } } }`, {}, token);
    expect(result.errors).toBeUndefined();
    expect(result.data).toMatchObject({
      runner: {
        tagList: ['ruby', 'mysql'],
        accessLevel: 'REF_PROTECTED',
        maximumTimeout: 3600,
        contactedAt: '2016-01-25T16:39:48.066Z',
        projects: { count: 1, nodes: [{ id: 'gid://gitlab/Project/1', fullPath: 'gitlab-org/gitlab-foss', nameWithNamespace: 'GitLab.org / GitLab Community Edition' }] },
      },
    });
  });

  it('update-runner.json through runnerUpdate, deriving paused from active', async () => {
    const result = await gateway.query(
      `mutation { runnerUpdate(input: { id: "gid://gitlab/Ci::Runner/6", description: "test-1-20150125-test", tagList: ["ruby", "mysql", "tag1", "tag2"] }) { errors runner { ${RUNNER_DETAIL} } } }`,
      {},
      token,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data).toMatchObject({ runnerUpdate: { errors: [], runner: { paused: false, active: true, runnerType: 'GROUP_TYPE', maximumTimeout: null, tagList: ['ruby', 'mysql', 'tag1', 'tag2'] } } });
  });

  it('list-runner-jobs.json through runner.jobs with user, commit, pipeline and project', async () => {
    const result = await gateway.query(
      `{ runner(id: "gid://gitlab/Ci::Runner/6") { jobs { nodes { id status stage name refName createdByTag coverage createdAt startedAt finishedAt duration queuedDuration
          user { id username name state avatarUrl webUrl createdAt bio location publicEmail websiteUrl organization }
          commit { id sha shortId title message authorName authorEmail authoredDate committerName committerEmail committedDate createdAt parentIds }
          pipeline { id sha ref status }
          project { id name nameWithNamespace path fullPath description createdAt } } } } }`,
      {},
      token,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data).toMatchObject({
      runner: {
        jobs: {
          nodes: [
            {
              id: 'gid://gitlab/Ci::Build/2',
              status: 'RUNNING',
              duration: 120,
              user: { id: 'gid://gitlab/User/1', username: 'user2' },
              commit: { sha: '97de212e80737a608d939f648d959671fb0a0142', title: 'Update configuration\r' },
              pipeline: { id: 'gid://gitlab/Ci::Pipeline/2', status: 'RUNNING' },
              project: { fullPath: 'namespace1/project1', description: null },
            },
          ],
        },
      },
    });
  });

  it('list-runner-managers.json through runner.managers', async () => {
    const result = await gateway.query(`{ runner(id: "gid://gitlab/Ci::Runner/6") { managers { nodes { id systemId version revision platformName architectureName createdAt contactedAt ipAddress status jobExecutionStatus } } } }`, {}, token);
    expect(result.errors).toBeUndefined();
    expect(result.data).toMatchObject({ runner: { managers: { nodes: [{ id: 'gid://gitlab/Ci::RunnerManager/1', systemId: 's_89e5e9956577', status: 'OFFLINE' }, { systemId: 'runner-2' }] } } });
  });

  it('list-project-runners.json and list-group-runners.json through Project.runners and Group.runners', async () => {
    const result = await gateway.query(
      `{ project(fullPath: "group/project") { runners { nodes { ${RUNNER_SUMMARY} } } } group(fullPath: "group") { runners { nodes { ${RUNNER_SUMMARY} } } } }`,
      {},
      token,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data).toMatchObject({
      project: { runners: { nodes: [{ id: 'gid://gitlab/Ci::Runner/8' }, { id: 'gid://gitlab/Ci::Runner/5' }] } },
      group: { runners: { nodes: [{ status: 'NEVER_CONTACTED' }, { status: 'OFFLINE' }, { runnerType: 'GROUP_TYPE' }] } },
    });
    const byId = await gateway.query(
      `{ nodes(ids: ["gid://gitlab/Project/9", "gid://gitlab/Group/9"]) { ... on Project { runners { nodes { ${RUNNER_SUMMARY} } } } ... on Group { runners { nodes { ${RUNNER_SUMMARY} } } } } }`,
      {},
      token,
    );
    expect(byId.errors).toBeUndefined();
    expect(byId.data).toMatchObject({
      nodes: [
        { runners: { nodes: [{ id: 'gid://gitlab/Ci::Runner/8' }, { id: 'gid://gitlab/Ci::Runner/5', isShared: true }] } },
        { runners: { nodes: [{ status: 'NEVER_CONTACTED', online: null }, { status: 'OFFLINE' }, { id: 'gid://gitlab/Ci::Runner/8' }] } },
      ],
    });
  });

  it('assign-runner-to-project.json through runnerAssignToProject', async () => {
    const result = await gateway.query(
      `mutation { runnerAssignToProject(input: { runnerId: "gid://gitlab/Ci::Runner/9", projectPath: "group/project" }) { errors runner { ${RUNNER_SUMMARY} } } }`,
      {},
      token,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data).toMatchObject({ runnerAssignToProject: { runner: { id: 'gid://gitlab/Ci::Runner/9', description: 'test-2016-02-01' } } });
  });

  it('create-runner-registration-token.json, verify-runner.json and the token resets through their mutations', async () => {
    const result = await gateway.query(`mutation {
      runnerRegister(input: { registrationToken: "GR1348941-registration", description: "new" }) { id token tokenExpiresAt }
      runnerVerify(input: { token: "glrt-current" }) { valid runnerId tokenExpiresAt }
      byId: runnerResetAuthenticationToken(input: { id: "gid://gitlab/Ci::Runner/6" }) { token tokenExpiresAt }
      byToken: runnerResetAuthenticationToken(input: { token: "glrt-current" }) { token tokenExpiresAt }
    }`);
    expect(result.errors).toBeUndefined();
    expect(result.data).toMatchObject({
      runnerRegister: { id: 'gid://gitlab/Ci::Runner/12345', token: '6337ff461c94fd3fa32ba3b1ff4125', tokenExpiresAt: '2021-09-27T21:05:03.203Z' },
      runnerVerify: { valid: true, runnerId: 'gid://gitlab/Ci::Runner/12345' },
      byId: { token: '6337ff461c94fd3fa32ba3b1ff4125' },
      byToken: { tokenExpiresAt: '2021-09-27T21:05:03.203Z' },
    });
  });

  it('job-router-discovery.json through ciJobRouterDiscovery, sending the runner token as Runner-Token', async () => {
    const result = await gateway.query(`{ ciJobRouterDiscovery(runnerToken: "glrt-current") { serverUrl } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ ciJobRouterDiscovery: { serverUrl: 'wss://kas.example.com' } });
    const sent = stub.requests.find((request) => request.path === '/runners/router/discovery');
    expect(sent?.headers['runner-token']).toBe('glrt-current');
  });
});
