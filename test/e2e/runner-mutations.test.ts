import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';
import { graphqlStatusOf } from '../support/runner-watch.js';

interface RestRunner {
  id: number;
  runner_type: string;
  status: string;
  active: boolean;
  paused?: boolean;
  description: string;
  locked: boolean;
  tag_list: string[];
  projects: Array<{ id: number; path_with_namespace: string }>;
}

const gid = (id: number) => `gid://gitlab/Ci::Runner/${id}`;
const RUNNER_FIELDS = 'id description paused active status tagList runUntagged locked accessLevel maximumTimeout maintenanceNote';

describe('runner mutations over real HTTP', () => {
  const harness = gatewayOverSimulator();

  /** A runner the caller owns, of the given type, that no other test of this file touches. */
  const claimed = new Set<number>();
  async function ownedRunner(token: string, type: string, accept: (runner: RestRunner) => boolean = () => true, list = '/runners'): Promise<RestRunner> {
    const owned = await harness.oracle.all<RestRunner>(`${list}?type=${type}`, token);
    for (const summary of owned) {
      if (claimed.has(summary.id)) continue;
      const detail = await harness.oracle.get<RestRunner>(`/runners/${summary.id}`, token);
      if (accept(detail)) {
        claimed.add(detail.id);
        return detail;
      }
    }
    throw new Error(`no ${type} runner for this caller`);
  }

  describe('runnerUpdate', () => {
    it('pauses and resumes a runner, and the change reads back through REST', async () => {
      const token = DEMO_TOKENS.maintainer;
      const runner = await ownedRunner(token, 'group_type', (candidate) => candidate.active);
      const paused = await harness.gateway.query<{ runnerUpdate: { errors: string[]; runner: { paused: boolean; status: string } } }>(
        `mutation($id: CiRunnerID!) { runnerUpdate(input: { id: $id, paused: true, clientMutationId: "m1" }) { clientMutationId errors runner { paused active status } } }`,
        { id: gid(runner.id) },
        token,
      );
      expect(paused.errors).toBeUndefined();
      // GitLab's GraphQL leaves pausing to `paused`: the status stays how the runner last talked to the server.
      const status = graphqlStatusOf(await harness.oracle.get<{ status: string; online: boolean | null }>(`/runners/${runner.id}`, token));
      expect(status).not.toBe('PAUSED');
      expect(paused.data?.runnerUpdate).toEqual({ clientMutationId: 'm1', errors: [], runner: { paused: true, active: false, status } });
      expect(restCalls(harness.simulator)).toEqual([`PUT /runners/${runner.id}`]);
      expect(await harness.oracle.get<RestRunner>(`/runners/${runner.id}`, token)).toMatchObject({ active: false, status: 'paused' });

      const resumed = await harness.gateway.query<{ runnerUpdate: { runner: { paused: boolean; status: string } } }>(
        `mutation($id: CiRunnerID!) { runnerUpdate(input: { id: $id, paused: false }) { runner { paused status } } }`,
        { id: gid(runner.id) },
        token,
      );
      const afterResume = await harness.oracle.get<RestRunner>(`/runners/${runner.id}`, token);
      expect(resumed.data?.runnerUpdate.runner).toEqual({ paused: false, status: afterResume.status.toUpperCase() });
      expect(afterResume.status).not.toBe('paused');
    });

    it('changes every field the interface allows in one call', async () => {
      const token = DEMO_TOKENS.maintainer;
      const runner = await ownedRunner(token, 'project_type');
      const result = await harness.gateway.query<{ runnerUpdate: { runner: Record<string, unknown> } }>(
        `mutation($id: CiRunnerID!) { runnerUpdate(input: { id: $id, description: "renamed", tagList: ["docker", "arm64"], runUntagged: false,
            locked: true, accessLevel: REF_PROTECTED, maximumTimeout: 7200, maintenanceNote: "disk swap on Friday" }) { runner { ${RUNNER_FIELDS} } } }`,
        { id: gid(runner.id) },
        token,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data?.runnerUpdate.runner).toMatchObject({
        description: 'renamed',
        tagList: ['docker', 'arm64'],
        runUntagged: false,
        locked: true,
        accessLevel: 'REF_PROTECTED',
        maximumTimeout: 7200,
        maintenanceNote: 'disk swap on Friday',
      });
      expect(await harness.oracle.get(`/runners/${runner.id}`, token)).toMatchObject({
        description: 'renamed',
        tag_list: ['docker', 'arm64'],
        access_level: 'ref_protected',
        maximum_timeout: 7200,
      });
    });

    it('reads the new state in the same request after the write', async () => {
      const token = DEMO_TOKENS.maintainer;
      const runner = await ownedRunner(token, 'group_type');
      const result = await harness.gateway.query<{ runnerUpdate: { runner: { description: string } } }>(
        `mutation($id: CiRunnerID!) { runnerUpdate(input: { id: $id, description: "fresh" }) { runner { description version } } }`,
        { id: gid(runner.id) },
        token,
      );
      expect(result.data?.runnerUpdate.runner.description).toBe('fresh');
      // The PUT answer is the detail record: `version` needs no second fetch.
      expect(restCalls(harness.simulator)).toEqual([`PUT /runners/${runner.id}`]);
    });

    it('refuses a caller whose role is too low, and contradictory or empty input before any REST call', async () => {
      const maintainerRunner = await ownedRunner(DEMO_TOKENS.maintainer, 'group_type');
      const developersRunners = (await harness.oracle.all<RestRunner>('/runners', DEMO_TOKENS.developer)).map((runner) => runner.id);
      expect(developersRunners).not.toContain(maintainerRunner.id);
      harness.simulator.resetRequests();
      const denied = await harness.gateway.query(
        `mutation($id: CiRunnerID!) { runnerUpdate(input: { id: $id, description: "nope" }) { runner { id } } }`,
        { id: gid(maintainerRunner.id) },
        DEMO_TOKENS.developer,
      );
      expect(denied.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
      expect(await harness.oracle.get<RestRunner>(`/runners/${maintainerRunner.id}`, DEMO_TOKENS.maintainer)).toMatchObject({ description: maintainerRunner.description });

      harness.simulator.resetRequests();
      for (const input of [`paused: true, active: true`, ``, `maximumTimeout: -1`]) {
        const refused = await harness.gateway.query(`mutation { runnerUpdate(input: { id: "${gid(maintainerRunner.id)}", ${input} }) { runner { id } } }`, {}, DEMO_TOKENS.maintainer);
        expect(refused.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
      }
      expect(restCalls(harness.simulator)).toEqual([]);
    });

    it('returns REST\'s validation refusals in the payload, as every mutation of the graph does', async () => {
      const runner = await ownedRunner(DEMO_TOKENS.admin, 'instance_type', () => true, '/runners/all');
      // The embedded server refuses a timeout under ten minutes, as GitLab does.
      const result = await harness.gateway.query(`mutation { runnerUpdate(input: { id: "${gid(runner.id)}", maximumTimeout: 5 }) { errors runner { id } } }`, {}, DEMO_TOKENS.admin);
      expect(result.errors).toBeUndefined();
      expect(result.data).toEqual({ runnerUpdate: { errors: [expect.stringMatching(/^Maximum timeout /) as string], runner: null } });
      expect((await harness.oracle.get<{ maximum_timeout: number | null }>(`/runners/${runner.id}`, DEMO_TOKENS.admin)).maximum_timeout).not.toBe(5);
    });
  });

  describe('runnerDelete', () => {
    it('deletes a runner the caller owns, and refuses one it does not', async () => {
      const runner = await ownedRunner(DEMO_TOKENS.maintainer, 'group_type');
      const denied = await harness.gateway.query(`mutation { runnerDelete(input: { id: "${gid(runner.id)}" }) { errors } }`, {}, DEMO_TOKENS.guest);
      expect(denied.errors?.[0]?.extensions?.['code']).toBe('FORBIDDEN');
      const deleted = await harness.gateway.query(`mutation { runnerDelete(input: { id: "${gid(runner.id)}" }) { errors } }`, {}, DEMO_TOKENS.maintainer);
      expect(deleted).toEqual({ data: { runnerDelete: { errors: [] } } });
      expect((await harness.oracle.call('GET', `/runners/${runner.id}`, DEMO_TOKENS.admin)).status).toBe(404);
      const gone = await harness.gateway.query(`{ runner(id: "${gid(runner.id)}") { id } }`, {}, DEMO_TOKENS.admin);
      expect(gone).toEqual({ data: { runner: null } });
    });
  });

  describe('registration, verification and unregistration by token', () => {
    it('registers with the instance registration token, verifies the new token, then unregisters it', async () => {
      const registered = await harness.gateway.query<{ runnerRegister: { id: string; token: string; errors: string[] } }>(
        `mutation($token: String!) { runnerRegister(input: { registrationToken: $token, description: "ci-box", tagList: ["docker"], paused: true,
            info: { name: "gitlab-runner", version: "17.0.0", platform: "linux", architecture: "amd64" } }) { id token tokenExpiresAt errors } }`,
        { token: DEMO_TOKENS.runnerRegistration },
      );
      expect(registered.errors).toBeUndefined();
      const { id, token } = registered.data!.runnerRegister;
      expect(token).toMatch(/^glrt-/);
      const runnerId = Number(id.split('/').pop());
      expect(await harness.oracle.get(`/runners/${runnerId}`, DEMO_TOKENS.admin)).toMatchObject({
        description: 'ci-box',
        runner_type: 'instance_type',
        active: false,
        tag_list: ['docker'],
        version: '17.0.0',
      });

      const verified = await harness.gateway.query(`mutation($token: String!) { runnerVerify(input: { token: $token }) { valid runnerId } }`, { token });
      expect(verified).toEqual({ data: { runnerVerify: { valid: true, runnerId: id } } });

      const unregistered = await harness.gateway.query(`mutation($token: String!) { runnerUnregister(input: { token: $token }) { errors } }`, { token });
      expect(unregistered).toEqual({ data: { runnerUnregister: { errors: [] } } });
      const after = await harness.gateway.query(`mutation($token: String!) { runnerVerify(input: { token: $token }) { valid runnerId } }`, { token });
      expect(after).toEqual({ data: { runnerVerify: { valid: false, runnerId: null } } });
      // Runner tokens travel in request bodies only: never in a URL the upstream logs.
      expect(harness.simulator.requests.every((request) => !JSON.stringify(request).includes(token))).toBe(true);
    });

    it('registers a group runner with the group\'s registration token', async () => {
      const group = [...harness.simulator.state.groups.values()][0]!;
      const result = await harness.gateway.query<{ runnerRegister: { id: string } }>(
        `mutation($token: String!) { runnerRegister(input: { registrationToken: $token }) { id } }`,
        { token: group.runnersToken },
      );
      const runnerId = Number(result.data!.runnerRegister.id.split('/').pop());
      expect(await harness.oracle.get(`/runners/${runnerId}`, DEMO_TOKENS.admin)).toMatchObject({ runner_type: 'group_type' });
    });

    it('answers wrong tokens with FORBIDDEN, or with valid: false for verification', async () => {
      const register = await harness.gateway.query(`mutation { runnerRegister(input: { registrationToken: "GR1348941-wrong" }) { id } }`);
      expect(register.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
      expect(JSON.stringify(register)).not.toContain('GR1348941-wrong');
      const unregister = await harness.gateway.query(`mutation { runnerUnregister(input: { token: "glrt-wrong" }) { errors } }`);
      expect(unregister.errors?.[0]?.extensions?.['code']).toBe('FORBIDDEN');
      const verify = await harness.gateway.query(`mutation { runnerVerify(input: { token: "glrt-wrong" }) { valid } }`);
      expect(verify).toEqual({ data: { runnerVerify: { valid: false } } });
      const empty = await harness.gateway.query(`mutation { runnerVerify(input: { token: " " }) { valid } }`);
      expect(empty.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    });
  });

  describe('enabling and disabling a runner in a project', () => {
    it('enables a project runner in another project of the caller, then disables it there', async () => {
      const token = DEMO_TOKENS.maintainer;
      // A locked runner cannot be enabled in another project, as on GitLab.
      const runner = await ownedRunner(token, 'project_type', (candidate) => candidate.projects.length === 1 && !candidate.locked);
      let target: string | undefined;
      for (const project of harness.simulator.state.projects.values()) {
        if (project.id === runner.projects[0]!.id) continue;
        if ((await harness.oracle.call('GET', `/projects/${project.id}/runners`, token)).status === 200) {
          target = harness.simulator.state.projectFullPath(project);
          break;
        }
      }
      expect(target).toBeDefined();
      const enabled = await harness.gateway.query<{ runnerAssignToProject: { errors: string[]; runner: { id: string; projects: { nodes: Array<{ fullPath: string }> } } } }>(
        `mutation($runner: CiRunnerID!, $project: ID!) { runnerAssignToProject(input: { runnerId: $runner, projectPath: $project }) { errors runner { id projects { nodes { fullPath } } } } }`,
        { runner: gid(runner.id), project: target },
        token,
      );
      expect(enabled.errors, JSON.stringify(enabled.errors)).toBeUndefined();
      expect(enabled.data!.runnerAssignToProject.runner.projects.nodes.map((project) => project.fullPath)).toContain(target);

      const again = await harness.gateway.query(
        `mutation($runner: CiRunnerID!, $project: ID!) { runnerAssignToProject(input: { runnerId: $runner, projectPath: $project }) { errors runner { id } } }`,
        { runner: gid(runner.id), project: target },
        token,
      );
      expect(again).toEqual({ data: { runnerAssignToProject: { errors: [expect.stringMatching(/already been taken/) as string], runner: null } } });

      const disabled = await harness.gateway.query(
        `mutation($runner: CiRunnerID!, $project: ID!) { runnerUnassignFromProject(input: { runnerId: $runner, projectPath: $project }) { errors } }`,
        { runner: gid(runner.id), project: target },
        token,
      );
      expect(disabled).toEqual({ data: { runnerUnassignFromProject: { errors: [] } } });
      const detail = await harness.oracle.get<RestRunner>(`/runners/${runner.id}`, token);
      expect(detail.projects.map((project) => project.path_with_namespace)).not.toContain(target);
    });

    it('answers disabling a runner in its only project with an entry in errors, and changes nothing', async () => {
      const token = DEMO_TOKENS.maintainer;
      const runner = await ownedRunner(token, 'project_type', (candidate) => candidate.projects.length === 1);
      const result = await harness.gateway.query<{ runnerUnassignFromProject: { errors: string[] } }>(
        `mutation($runner: CiRunnerID!, $project: ID!) { runnerUnassignFromProject(input: { runnerId: $runner, projectPath: $project }) { errors } }`,
        { runner: gid(runner.id), project: runner.projects[0]!.path_with_namespace },
        token,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data!.runnerUnassignFromProject.errors).toEqual([expect.stringMatching(/only one project/i)]);
      expect((await harness.oracle.get<RestRunner>(`/runners/${runner.id}`, token)).projects).toHaveLength(1);
    });
  });
});
