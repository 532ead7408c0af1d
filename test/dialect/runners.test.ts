// Runners and their jobs in GitLab's own dialect, asked the way GitLab's runner pages ask (named
// operations, fragments, variables typed with GitLab's scalars): every document validates against
// the schema, and runs over real HTTP against the gateway and the embedded v4 server, with the
// answers checked against REST.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const { admin, maintainer } = DEMO_TOKENS;
const schema = createExecutableSchema();

const RUNNER_DETAILS_FRAGMENT = `
fragment RunnerDetailsShared on CiRunner {
  id
  runnerType
  paused
  status
  accessLevel
  runUntagged
  locked
  tagList
  description
  maximumTimeout
  jobCount
  projectCount
  ownerProject { id name fullPath }
  groups { nodes { id name webUrl } }
  userPermissions { readRunner updateRunner deleteRunner assignRunner }
  managers { count nodes { id systemId version revision architectureName platformName status } }
}`;

const GET_RUNNER = `${RUNNER_DETAILS_FRAGMENT}
query getRunner($id: CiRunnerID!) {
  runner(id: $id) { ...RunnerDetailsShared }
}`;

const DETAILED_STATUS_FRAGMENT = `
fragment DetailedStatusFields on DetailedStatus {
  id
  detailsPath
  group
  icon
  text
  label
  tooltip
}`;

const GET_RUNNER_JOBS = `${DETAILED_STATUS_FRAGMENT}
query getRunnerJobs($id: CiRunnerID!, $first: Int, $after: String, $statuses: [CiJobStatus!]) {
  runner(id: $id) {
    id
    jobs(first: $first, after: $after, statuses: $statuses) {
      nodes {
        id
        status
        detailedStatus { ...DetailedStatusFields }
        pipeline { id path detailedStatus { ...DetailedStatusFields } }
        project { id name }
        shortSha
        commitPath
        refName
        refPath
        createdByTag
        webPath
        browseArtifactsPath
        createdAt
        finishedAt
        duration
        queuedDuration
        tags
      }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

const RUNNER_LIST_FRAGMENT = `
fragment ListItem on CiRunner {
  id
  description
  runnerType
  paused
  status
  version
  tagList
}`;

const ALL_RUNNERS = `${RUNNER_LIST_FRAGMENT}
query getAllRunners($first: Int, $paused: Boolean, $status: CiRunnerStatus, $type: CiRunnerType, $tagList: [String!], $versionPrefix: String) {
  runners(first: $first, paused: $paused, status: $status, type: $type, tagList: $tagList, versionPrefix: $versionPrefix) {
    count
    nodes { ...ListItem }
  }
}`;

const RUNNER_CREATE = `
mutation runnerCreate($input: RunnerCreateInput!) {
  runnerCreate(input: $input) {
    runner { id runnerType description paused tagList ephemeralAuthenticationToken ownerProject { id } }
    errors
  }
}`;

const BULK_RUNNER_DELETE = `
mutation bulkRunnerDelete($input: BulkRunnerDeleteInput!) {
  bulkRunnerDelete(input: $input) { deletedCount deletedIds errors }
}`;

const RUNNER_BULK_PAUSE = `
mutation runnerBulkPause($input: RunnerBulkPauseInput!) {
  runnerBulkPause(input: $input) { updatedCount updatedRunners { id paused status } errors }
}`;

const REGISTRATION_TOKEN_RESET = `
mutation runnersRegistrationTokenReset($input: RunnersRegistrationTokenResetInput!) {
  runnersRegistrationTokenReset(input: $input) { token errors }
}`;

const DOCUMENTS = { GET_RUNNER, GET_RUNNER_JOBS, ALL_RUNNERS, RUNNER_CREATE, BULK_RUNNER_DELETE, RUNNER_BULK_PAUSE, REGISTRATION_TOKEN_RESET };

interface RestRunner {
  id: number;
  runner_type: string;
  paused: boolean;
  locked: boolean;
  version: string | null;
  projects?: Array<{ id: number; path_with_namespace: string }>;
  groups?: Array<{ id: number; name: string; web_url: string }>;
}
interface RestJob {
  id: number;
  status: string;
  ref: string;
  tag: boolean;
  duration: number | null;
  queued_duration: number | null;
  pipeline: { id: number; sha: string; status: string };
  project: { id: number; path_with_namespace: string };
  failure_reason?: string;
}
interface DetailedStatus {
  id: string;
  detailsPath: string;
  group: string;
  icon: string;
  text: string;
  label: string;
  tooltip: string;
}
interface GqlJob {
  id: string;
  status: string;
  detailedStatus: DetailedStatus;
  pipeline: { id: string; path: string; detailedStatus: DetailedStatus };
  shortSha: string;
  commitPath: string;
  refName: string;
  refPath: string;
  createdByTag: boolean;
  webPath: string;
  browseArtifactsPath: string;
  duration: number | null;
  queuedDuration: number | null;
  tags: string[];
}

const runnerGid = (id: number) => `gid://gitlab/Ci::Runner/${id}`;

/** What GitLab 16.2 shows for the statuses the embedded server's jobs and pipelines take. */
const SHOWN: Record<string, { text: string; label: string; icon: string; group: string }> = {
  running: { text: 'running', label: 'running', icon: 'status_running', group: 'running' },
  success: { text: 'passed', label: 'passed', icon: 'status_success', group: 'success' },
  failed: { text: 'failed', label: 'failed', icon: 'status_failed', group: 'failed' },
  canceled: { text: 'canceled', label: 'canceled', icon: 'status_canceled', group: 'canceled' },
  pending: { text: 'pending', label: 'pending', icon: 'status_pending', group: 'pending' },
  created: { text: 'created', label: 'created', icon: 'status_created', group: 'created' },
};

function tooltipOf(job: RestJob): string {
  if (job.status !== 'failed') return SHOWN[job.status]!.label;
  expect(job.failure_reason).toBe('script_failure');
  return 'failed - (script failure)';
}

describe('runners in GitLab\'s dialect', () => {
  const harness = gatewayOverSimulator({ limits: { maxRestCalls: 500 } });

  it.each(Object.entries(DOCUMENTS))('%s validates against the schema', (_name, document) => {
    expect(validate(schema, parse(document))).toEqual([]);
  });

  describe('the runner detail page', () => {
    it('answers a project runner\'s detail as REST has it, with its job count and managers', async () => {
      const owned = await harness.oracle.get<RestRunner[]>('/runners?type=project_type&per_page=100', maintainer);
      const runner = await harness.oracle.get<RestRunner>(`/runners/${owned[0]!.id}`, maintainer);
      const jobs = await harness.oracle.call<unknown[]>('GET', `/runners/${runner.id}/jobs?per_page=1`, maintainer);
      harness.simulator.resetRequests();

      const result = await harness.gateway.query<{ runner: Record<string, unknown> }>(GET_RUNNER, { id: runnerGid(runner.id) }, maintainer);
      expect(result.errors).toBeUndefined();
      expect(result.data!.runner).toMatchObject({
        id: runnerGid(runner.id),
        runnerType: 'PROJECT_TYPE',
        paused: runner.paused,
        locked: runner.locked,
        jobCount: Number(jobs.headers.get('x-total')),
        projectCount: runner.projects!.length,
        ownerProject: { id: `gid://gitlab/Project/${runner.projects![0]!.id}`, fullPath: runner.projects![0]!.path_with_namespace },
        groups: { nodes: [] },
      });
      // The detail, the job count, the managers and GET /user; the owner project comes embedded.
      const calls = restCalls(harness.simulator);
      expect(calls.filter((call) => call.startsWith(`GET /runners/${runner.id}`) && !call.includes('/jobs') && !call.includes('/managers'))).toHaveLength(1);
      expect(calls.filter((call) => call.startsWith(`GET /runners/${runner.id}/jobs`))).toHaveLength(1);
      expect(calls.filter((call) => call.startsWith('GET /user'))).toHaveLength(1);
    });

    it('answers a group runner\'s group, and no projects, as GitLab does', async () => {
      const groupRunners = await harness.oracle.get<RestRunner[]>('/runners/all?type=group_type&per_page=5', admin);
      const runner = await harness.oracle.get<RestRunner>(`/runners/${groupRunners[0]!.id}`, admin);
      const result = await harness.gateway.query<{ runner: Record<string, unknown> }>(GET_RUNNER, { id: runnerGid(runner.id) }, admin);
      expect(result.errors).toBeUndefined();
      expect(result.data!.runner).toMatchObject({
        runnerType: 'GROUP_TYPE',
        projectCount: null,
        ownerProject: null,
        groups: { nodes: runner.groups!.map((group) => ({ id: `gid://gitlab/Group/${group.id}`, name: group.name, webUrl: group.web_url })) },
        userPermissions: { readRunner: true, updateRunner: true, deleteRunner: true, assignRunner: true },
      });
    });

    it('decides userPermissions as GitLab\'s runner policy does, for runners the caller owns and others', async () => {
      const instance = await harness.oracle.get<RestRunner[]>('/runners/all?type=instance_type&per_page=3', admin);
      const owned = await harness.oracle.get<RestRunner[]>('/runners?per_page=100', maintainer);
      const candidates = [...instance.map((runner) => runner.id), ...owned.slice(0, 12).map((runner) => runner.id)];
      const seen = new Set<string>();
      for (const id of candidates) {
        const detail = await harness.oracle.call<RestRunner>('GET', `/runners/${id}`, maintainer);
        const isOwned = detail.status === 200 && detail.body.runner_type !== 'instance_type';
        const expected = {
          readRunner: true,
          updateRunner: isOwned,
          deleteRunner: isOwned && (detail.body.projects?.length ?? 0) <= 1,
          assignRunner: isOwned && !detail.body.locked,
        };
        const result = await harness.gateway.query<{ runner: { userPermissions: typeof expected } }>(
          'query RunnerPermissions($id: CiRunnerID!) { runner(id: $id) { userPermissions { readRunner updateRunner deleteRunner assignRunner } } }',
          { id: runnerGid(id) },
          maintainer,
        );
        expect(result.errors).toBeUndefined();
        expect(result.data!.runner.userPermissions).toEqual(expected);
        seen.add(JSON.stringify(expected));
      }
      // Instance runners (nothing but reading), and owned ones that may be changed.
      expect(seen.size).toBeGreaterThan(1);
    });
  });

  describe('runner page URLs', () => {
    const GROUP_RUNNERS = `
query getGroupRunners($groupFullPath: ID!, $first: Int) {
  group(fullPath: $groupFullPath) {
    id
    runners(first: $first) { edges { webUrl editUrl node { id adminUrl editAdminUrl } } }
  }
}`;
    const PROJECT_RUNNERS = `
query getProjectRunners($fullPath: ID!, $first: Int) {
  project(fullPath: $fullPath) { id runners(first: $first) { edges { webUrl editUrl node { id } } } }
}`;

    it('validates against the schema', () => {
      expect(validate(schema, parse(GROUP_RUNNERS))).toEqual([]);
      expect(validate(schema, parse(PROJECT_RUNNERS))).toEqual([]);
    });

    it('gives each runner its page under the group or project that lists it, and Admin Area pages to administrators', async () => {
      const group = await harness.oracle.get<{ full_path: string; web_url: string }>('/groups/gitlab-org', admin);
      const me = await harness.oracle.get<{ web_url: string; username: string }>('/user', admin);
      const instance = me.web_url.slice(0, -`/${me.username}`.length);
      const listed = await harness.oracle.get<Array<{ id: number }>>(`/groups/${encodeURIComponent(group.full_path)}/runners?per_page=5`, admin);
      const result = await harness.gateway.query<{ group: { runners: { edges: Array<{ webUrl: string; editUrl: string; node: { id: string; adminUrl: string; editAdminUrl: string } }> } } }>(
        GROUP_RUNNERS,
        { groupFullPath: group.full_path, first: 5 },
        admin,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data!.group.runners.edges).toEqual(
        listed.map((runner) => ({
          webUrl: `${group.web_url}/-/runners/${runner.id}`,
          editUrl: `${group.web_url}/-/runners/${runner.id}/edit`,
          node: { id: runnerGid(runner.id), adminUrl: `${instance}/admin/runners/${runner.id}`, editAdminUrl: `${instance}/admin/runners/${runner.id}/edit` },
        })),
      );

      const project = await harness.oracle.get<{ path_with_namespace: string; web_url: string }>('/projects/1', admin);
      const inProject = await harness.gateway.query<{ project: { runners: { edges: Array<{ webUrl: string; node: { id: string } }> } } }>(
        PROJECT_RUNNERS,
        { fullPath: project.path_with_namespace, first: 3 },
        admin,
      );
      expect(inProject.errors).toBeUndefined();
      for (const edge of inProject.data!.project.runners.edges) {
        expect(edge.webUrl).toBe(`${project.web_url}/-/runners/${edge.node.id.split('/').pop()!}`);
      }
    });

    it('gives no Admin Area URL to others, and no page URL in the lists of no group or project', async () => {
      const result = await harness.gateway.query<{ ownedRunners: { edges: Array<{ webUrl: string | null; node: { adminUrl: string | null } }> } }>(
        'query OwnedRunners { ownedRunners(first: 3) { edges { webUrl node { adminUrl } } } }',
        {},
        maintainer,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data!.ownedRunners.edges.length).toBeGreaterThan(0);
      for (const edge of result.data!.ownedRunners.edges) expect(edge).toEqual({ webUrl: null, node: { adminUrl: null } });
    });
  });

  describe('the runner\'s jobs table', () => {
    it('answers each job\'s detailed status, paths and tags from REST, one job record per job for the tags', async () => {
      const owned = await harness.oracle.get<RestRunner[]>('/runners?type=project_type&per_page=100', maintainer);
      let runnerId = 0;
      let restJobs: RestJob[] = [];
      for (const runner of owned) {
        restJobs = await harness.oracle.get<RestJob[]>(`/runners/${runner.id}/jobs?per_page=5`, maintainer);
        runnerId = runner.id;
        if (restJobs.length >= 3) break;
      }
      expect(restJobs.length).toBeGreaterThan(0);
      harness.simulator.resetRequests();

      const result = await harness.gateway.query<{ runner: { jobs: { nodes: GqlJob[] } } }>(GET_RUNNER_JOBS, { id: runnerGid(runnerId), first: 5 }, maintainer);
      expect(result.errors).toBeUndefined();
      const nodes = result.data!.runner.jobs.nodes;
      expect(nodes).toHaveLength(restJobs.length);
      for (const [index, job] of restJobs.entries()) {
        const node = nodes[index]!;
        const project = `/${job.project.path_with_namespace}`;
        const record = await harness.oracle.get<{ tag_list: string[] }>(`/projects/${job.project.id}/jobs/${job.id}`, maintainer);
        expect(SHOWN[job.status] && SHOWN[job.pipeline.status]).toBeDefined();
        expect(node).toMatchObject({
          id: `gid://gitlab/Ci::Build/${job.id}`,
          status: job.status.toUpperCase(),
          // A failed job's tooltip names the reason (Gitlab::Ci::Status::Build::Failed), which the
          // list sends (Entities::Ci::JobBasic); the seed's failed jobs failed their script.
          detailedStatus: { id: `${SHOWN[job.status]!.group}-${job.id}`, ...SHOWN[job.status], tooltip: tooltipOf(job), detailsPath: `${project}/-/jobs/${job.id}` },
          pipeline: {
            id: `gid://gitlab/Ci::Pipeline/${job.pipeline.id}`,
            path: `${project}/-/pipelines/${job.pipeline.id}`,
            detailedStatus: { ...SHOWN[job.pipeline.status], detailsPath: `${project}/-/pipelines/${job.pipeline.id}` },
          },
          shortSha: job.pipeline.sha.slice(0, 8),
          commitPath: `${project}/-/commit/${job.pipeline.sha}`,
          refName: job.ref,
          refPath: `${project}/-/commits/${job.ref}`,
          createdByTag: job.tag,
          webPath: `${project}/-/jobs/${job.id}`,
          browseArtifactsPath: `${project}/-/jobs/${job.id}/artifacts/browse`,
          // GitLab's Int drops the fraction (Ruby's to_i).
          duration: job.duration === null ? null : Math.trunc(job.duration),
          queuedDuration: job.queued_duration,
          tags: record.tag_list,
        });
      }
      // The runner's detail, its jobs, and one job record per job for `tags`.
      const calls = restCalls(harness.simulator);
      expect(calls.filter((call) => call.startsWith(`GET /runners/${runnerId}/jobs`))).toHaveLength(1);
      expect(calls.filter((call) => /^GET \/projects\/\d+\/jobs\/\d+$/.test(call))).toHaveLength(restJobs.length);
    });

    it('filters by one status as REST does, and refuses what REST cannot filter by before any REST call', async () => {
      const owned = await harness.oracle.get<RestRunner[]>('/runners?per_page=100', maintainer);
      const runnerId = owned[0]!.id;
      const failed = await harness.oracle.get<RestJob[]>(`/runners/${runnerId}/jobs?status=failed&per_page=100`, maintainer);
      const result = await harness.gateway.query<{ runner: { jobs: { nodes: Array<{ id: string }> } } }>(
        'query RunnerFailedJobs($id: CiRunnerID!, $statuses: [CiJobStatus!]) { runner(id: $id) { jobs(first: 100, statuses: $statuses) { nodes { id } } } }',
        { id: runnerGid(runnerId), statuses: ['FAILED'] },
        maintainer,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data!.runner.jobs.nodes.map((node) => node.id)).toEqual(failed.map((job) => `gid://gitlab/Ci::Build/${job.id}`));

      for (const statuses of [['FAILED', 'RUNNING'], ['MANUAL']]) {
        harness.simulator.resetRequests();
        const refused = await harness.gateway.query(
          'query RunnerJobs($id: CiRunnerID!, $statuses: [CiJobStatus!]) { runner(id: $id) { jobs(statuses: $statuses) { nodes { id } } } }',
          { id: runnerGid(runnerId), statuses },
          maintainer,
        );
        expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'statuses' });
        expect(restCalls(harness.simulator).filter((call) => call.includes('/jobs'))).toEqual([]);
      }
    });
  });

  describe('the administrators\' runner list', () => {
    it.each([
      [{ paused: true }, 'paused=true'],
      [{ paused: false, type: 'INSTANCE_TYPE' }, 'paused=false&type=instance_type'],
      [{ status: 'STALE' }, 'status=stale'],
      [{ versionPrefix: '16.' }, 'version_prefix=16.'],
    ])('filters %j as REST filters %s', async (filters, query) => {
      const expected = await harness.oracle.all<RestRunner>(`/runners/all?${query}`, admin);
      const result = await harness.gateway.query<{ runners: { count: number; nodes: Array<{ id: string; paused: boolean }> } }>(ALL_RUNNERS, { first: 100, ...filters }, admin);
      expect(result.errors).toBeUndefined();
      expect(result.data!.runners.count).toBe(expected.length);
      expect(result.data!.runners.nodes.map((node) => node.id)).toEqual(expected.slice(0, 100).map((runner) => runnerGid(runner.id)));
    });

    it('refuses NOT_CONNECTED, a status REST only reports, before any REST call', async () => {
      const result = await harness.gateway.query(ALL_RUNNERS, { status: 'NOT_CONNECTED' }, admin);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'status' });
      expect(restCalls(harness.simulator)).toEqual([]);
    });
  });

  describe('creating and deleting runners', () => {
    it('creates a project runner with POST /user/runners and hands its token over once', async () => {
      const owned = await harness.oracle.get<RestRunner[]>('/runners?type=project_type&per_page=1', maintainer);
      const project = (await harness.oracle.get<RestRunner>(`/runners/${owned[0]!.id}`, maintainer)).projects![0]!;
      const result = await harness.gateway.query<{ runnerCreate: { errors: string[]; runner: { id: string; ephemeralAuthenticationToken: string; tagList: string[]; paused: boolean; ownerProject: { id: string } } } }>(
        RUNNER_CREATE,
        { input: { runnerType: 'PROJECT_TYPE', projectId: `gid://gitlab/Project/${project.id}`, description: 'created through GraphQL', paused: true, tagList: ['gpu'] } },
        maintainer,
      );
      expect(result.errors).toBeUndefined();
      const { runner, errors } = result.data!.runnerCreate;
      expect(errors).toEqual([]);
      expect(runner).toMatchObject({ paused: true, tagList: ['gpu'], ownerProject: { id: `gid://gitlab/Project/${project.id}` } });
      expect(runner.ephemeralAuthenticationToken).toMatch(/^glrt-/);
      expect(restCalls(harness.simulator)).toEqual(['POST /user/runners', `GET /runners/${runner.id.split('/').pop()!}`]);

      // The token is the runner's own: REST verifies it.
      const verified = await fetch(`${harness.simulator.url}/runners/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: runner.ephemeralAuthenticationToken }),
      });
      expect(verified.status).toBe(200);
      const again = await harness.gateway.query<{ runner: { ephemeralAuthenticationToken: string | null } }>(
        'query RunnerToken($id: CiRunnerID!) { runner(id: $id) { ephemeralAuthenticationToken } }',
        { id: runner.id },
        maintainer,
      );
      expect(again.data!.runner.ephemeralAuthenticationToken).toBeNull();
    });

    it('refuses an owner that does not go with the runner type before any REST call', async () => {
      for (const input of [{ runnerType: 'GROUP_TYPE' }, { runnerType: 'INSTANCE_TYPE', projectId: 'gid://gitlab/Project/1' }]) {
        const result = await harness.gateway.query(RUNNER_CREATE, { input }, admin);
        expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
      }
      expect(restCalls(harness.simulator)).toEqual([]);
    });

    it('refuses an instance runner to a non-administrator as REST does', async () => {
      const result = await harness.gateway.query(RUNNER_CREATE, { input: { runnerType: 'INSTANCE_TYPE' } }, maintainer);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
    });

    it('deletes runners one REST call each, and says which were not deleted', async () => {
      const created: string[] = [];
      for (const description of ['bulk 1', 'bulk 2']) {
        const result = await harness.gateway.query<{ runnerCreate: { runner: { id: string } } }>(RUNNER_CREATE, { input: { runnerType: 'INSTANCE_TYPE', description } }, admin);
        created.push(result.data!.runnerCreate.runner.id);
      }
      harness.simulator.resetRequests();
      const missing = runnerGid(999_999);
      const result = await harness.gateway.query<{ bulkRunnerDelete: { deletedCount: number; deletedIds: string[]; errors: string[] } }>(
        BULK_RUNNER_DELETE,
        { input: { ids: [...created, missing] } },
        admin,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data!.bulkRunnerDelete).toEqual({ deletedCount: 2, deletedIds: created, errors: ['Runner(s) not found: 999999'] });
      expect(restCalls(harness.simulator).sort()).toEqual([...created, missing].map((id) => `DELETE /runners/${id.split('/').pop()!}`).sort());
      for (const id of created) {
        const gone = await harness.oracle.call('GET', `/runners/${id.split('/').pop()!}`, admin);
        expect(gone.status).toBe(404);
      }
    });
  });

  describe('a runner\'s projects', () => {
    const RUNNER_PROJECTS = `
query getRunnerProjects($id: CiRunnerID!, $search: String, $sort: String) {
  runner(id: $id) { id projectCount projects(search: $search, sort: $sort) { count nodes { id name } } }
}`;

    it('searches and orders the projects the runner\'s detail embeds, with no further call', async () => {
      expect(validate(schema, parse(RUNNER_PROJECTS))).toEqual([]);
      const projectRunners = await harness.oracle.get<RestRunner[]>('/runners/all?type=project_type&per_page=100', admin);
      const details = await Promise.all(projectRunners.map((runner) => harness.oracle.get<{ id: number; projects: Array<{ id: number; name: string; path: string }> }>(`/runners/${runner.id}`, admin)));
      const shared = details.find((runner) => runner.projects.length >= 2)!;
      expect(shared).toBeDefined();
      harness.simulator.resetRequests();
      const byName = await harness.gateway.query<{ runner: { projects: { nodes: Array<{ id: string; name: string }> } } }>(RUNNER_PROJECTS, { id: runnerGid(shared.id), sort: 'name_desc' }, admin);
      expect(byName.errors).toBeUndefined();
      const names = shared.projects.map((project) => project.name).sort((a, b) => b.localeCompare(a));
      expect(byName.data!.runner.projects.nodes.map((node) => node.name)).toEqual(names);
      expect(restCalls(harness.simulator)).toEqual([`GET /runners/${shared.id}`]);

      const term = shared.projects[0]!.name.slice(0, 4).toUpperCase();
      const searched = await harness.gateway.query<{ runner: { projects: { count: number; nodes: Array<{ name: string }> } } }>(RUNNER_PROJECTS, { id: runnerGid(shared.id), search: term }, admin);
      const matching = shared.projects.filter((project) => [project.name, project.path].some((value) => value.toLowerCase().includes(term.toLowerCase())));
      expect(searched.data!.runner.projects.count).toBe(matching.length);

      const refused = await harness.gateway.query(RUNNER_PROJECTS, { id: runnerGid(shared.id), sort: 'stars_desc' }, admin);
      expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'sort' });
    });
  });

  describe('the runner edit page', () => {
    const UPDATE_RUNNER = `
mutation runnerUpdate($input: RunnerUpdateInput!) {
  runnerUpdate(input: $input) { runner { id description projectCount projects { nodes { id } } } errors }
}`;

    it('validates against the schema', () => {
      expect(validate(schema, parse(UPDATE_RUNNER))).toEqual([]);
    });

    it('sets the projects a project runner is enabled in besides its owner, sending REST the difference', async () => {
      // An unlocked project runner in one project, and another project to share it with.
      const projectRunners = await harness.oracle.get<RestRunner[]>('/runners/all?type=project_type&per_page=100', admin);
      const details = await Promise.all(projectRunners.map((runner) => harness.oracle.get<RestRunner>(`/runners/${runner.id}`, admin)));
      const runner = details.find((candidate) => candidate.projects!.length === 1 && !candidate.locked)!;
      const owner = runner.projects![0]!.id;
      const others = (await harness.oracle.get<Array<{ id: number }>>('/projects?per_page=20', admin)).map((project) => project.id).filter((id) => id !== owner);
      expect(others.length).toBeGreaterThan(0);
      const projectGid = (id: number) => `gid://gitlab/Project/${id}`;
      harness.simulator.resetRequests();

      const added = await harness.gateway.query<{ runnerUpdate: { errors: string[]; runner: { projectCount: number; projects: { nodes: Array<{ id: string }> } } } }>(
        UPDATE_RUNNER,
        { input: { id: runnerGid(runner.id), description: 'shared with a sibling', associatedProjects: [projectGid(others[0]!)] } },
        admin,
      );
      expect(added.errors).toBeUndefined();
      expect(added.data!.runnerUpdate.errors).toEqual([]);
      // By project id, GitLab's default order.
      expect(added.data!.runnerUpdate.runner.projects.nodes.map((node) => node.id)).toEqual([owner, others[0]!].sort((a, b) => a - b).map(projectGid));
      // The PUT answers the detail, which tells the current projects; the detail is read again at the end.
      expect(restCalls(harness.simulator)).toEqual([`PUT /runners/${runner.id}`, `POST /projects/${others[0]!}/runners`, `GET /runners/${runner.id}`]);

      harness.simulator.resetRequests();
      const removed = await harness.gateway.query<{ runnerUpdate: { errors: string[]; runner: { projectCount: number } } }>(
        UPDATE_RUNNER,
        { input: { id: runnerGid(runner.id), associatedProjects: [] } },
        admin,
      );
      expect(removed.data!.runnerUpdate).toMatchObject({ errors: [], runner: { projectCount: 1 } });
      expect(restCalls(harness.simulator)).toEqual([`GET /runners/${runner.id}`, `DELETE /projects/${others[0]!}/runners/${runner.id}`, `GET /runners/${runner.id}`]);
      const after = await harness.oracle.get<RestRunner>(`/runners/${runner.id}`, admin);
      expect(after.projects!.map((project) => project.id)).toEqual([owner]);
    });

    it('refuses associated projects for a group runner in errors, and project IDs of another class before any REST call', async () => {
      const groupRunner = (await harness.oracle.get<RestRunner[]>('/runners/all?type=group_type&per_page=1', admin))[0]!;
      const result = await harness.gateway.query<{ runnerUpdate: { errors: string[] } }>(UPDATE_RUNNER, { input: { id: runnerGid(groupRunner.id), associatedProjects: [] } }, admin);
      expect(result.data!.runnerUpdate.errors).toEqual(['Only project runners can be associated with projects.']);
      harness.simulator.resetRequests();
      const refused = await harness.gateway.query(UPDATE_RUNNER, { input: { id: runnerGid(groupRunner.id), associatedProjects: ['gid://gitlab/Group/1'] } }, admin);
      expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
      expect(restCalls(harness.simulator)).toEqual([]);
    });
  });

  describe('pausing several runners', () => {
    it('pauses the runners the caller owns, one PUT each, and says which it could not', async () => {
      const owned = await harness.oracle.get<RestRunner[]>('/runners?paused=false&type=project_type&per_page=2', maintainer);
      const instance = await harness.oracle.get<RestRunner[]>('/runners/all?type=instance_type&paused=false&per_page=1', admin);
      const ids = [...owned.map((runner) => runner.id), instance[0]!.id];
      const result = await harness.gateway.query<{ runnerBulkPause: { updatedCount: number; updatedRunners: Array<{ id: string; paused: boolean; status: string }>; errors: string[] } }>(
        RUNNER_BULK_PAUSE,
        { input: { ids: ids.map(runnerGid), paused: true } },
        maintainer,
      );
      expect(result.errors).toBeUndefined();
      const payload = result.data!.runnerBulkPause;
      expect(payload.updatedCount).toBe(owned.length);
      expect(payload.updatedRunners.map((runner) => runner.id)).toEqual(owned.map((runner) => runnerGid(runner.id)));
      expect(payload.updatedRunners.every((runner) => runner.paused)).toBe(true);
      expect(payload.errors).toEqual([`Runner ${instance[0]!.id} was not paused: 403 Forbidden`]);
      expect(restCalls(harness.simulator).sort()).toEqual(ids.map((id) => `PUT /runners/${id}`).sort());
      for (const runner of owned) expect((await harness.oracle.get<RestRunner>(`/runners/${runner.id}`, maintainer)).paused).toBe(true);

      const resumed = await harness.gateway.query<{ runnerBulkPause: { updatedCount: number } }>(RUNNER_BULK_PAUSE, { input: { ids: owned.map((runner) => runnerGid(runner.id)), paused: false } }, maintainer);
      expect(resumed.data!.runnerBulkPause.updatedCount).toBe(owned.length);
    });
  });

  describe('registration tokens', () => {
    it('replaces a project\'s registration token, and only the new one registers a runner', async () => {
      const owned = await harness.oracle.get<RestRunner[]>('/runners?type=project_type&per_page=1', maintainer);
      const project = (await harness.oracle.get<RestRunner>(`/runners/${owned[0]!.id}`, maintainer)).projects![0]!;
      const before = await harness.oracle.get<{ runners_token: string }>(`/projects/${project.id}`, maintainer);
      const result = await harness.gateway.query<{ runnersRegistrationTokenReset: { token: string; errors: string[] } }>(
        REGISTRATION_TOKEN_RESET,
        { input: { type: 'PROJECT_TYPE', id: `gid://gitlab/Project/${project.id}` } },
        maintainer,
      );
      expect(result.errors).toBeUndefined();
      const { token, errors } = result.data!.runnersRegistrationTokenReset;
      expect(errors).toEqual([]);
      expect(token).not.toBe(before.runners_token);
      expect(restCalls(harness.simulator)).toEqual([`POST /projects/${project.id}/runners/reset_registration_token`]);
      const register = (registrationToken: string) =>
        fetch(`${harness.simulator.url}/runners`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: registrationToken }) });
      expect((await register(before.runners_token)).status).toBe(403);
      expect((await register(token)).status).toBe(201);
    });

    it('refuses an ID of the wrong class, or one the instance token does not take, before any REST call', async () => {
      for (const input of [{ type: 'GROUP_TYPE', id: 'gid://gitlab/Project/1' }, { type: 'INSTANCE_TYPE', id: 'gid://gitlab/Group/1' }, { type: 'PROJECT_TYPE' }]) {
        const result = await harness.gateway.query(REGISTRATION_TOKEN_RESET, { input }, admin);
        expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'id' });
      }
      expect(restCalls(harness.simulator)).toEqual([]);
    });
  });
});
