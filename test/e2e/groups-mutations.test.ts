import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

interface RestGroup {
  id: number;
  full_path: string;
  name: string;
  description: string;
  visibility: string;
  lfs_enabled: boolean;
  default_branch_protection: number;
  project_creation_level: string;
  subgroup_creation_level: string;
  two_factor_grace_period: number;
  shared_runners_minutes_limit: number | null;
  shared_runners_setting: string;
  membership_lock: boolean;
  parent_id: number | null;
}
interface RestProject {
  id: number;
  path_with_namespace: string;
  visibility: string;
}

const { admin, maintainer, developer, guest } = DEMO_TOKENS;

interface GroupPayload {
  errors: string[];
  group: { id: string; fullPath: string; name: string; visibility: string; defaultBranchProtection: string; parent: { fullPath: string } | null } | null;
}

const GROUP_FIELDS = 'id fullPath name visibility defaultBranchProtection parent { fullPath }';

describe('group and project mutations over real HTTP', () => {
  const harness = gatewayOverSimulator();
  const mutate = <T>(text: string, variables: Record<string, unknown>, token?: string) => harness.gateway.query<T>(text, variables, token);

  describe('groupCreate', () => {
    it('creates a subgroup with every field of the create table, and it persists', async () => {
      const result = await mutate<{ groupCreate: GroupPayload & { clientMutationId: string } }>(
        `mutation($input: GroupCreateInput!) { groupCreate(input: $input) { clientMutationId errors group { ${GROUP_FIELDS} } } }`,
        {
          input: {
            clientMutationId: 'create-1',
            name: 'Handbook',
            path: 'handbook',
            parentId: 'gid://gitlab/Group/1',
            description: 'How we work',
            membershipLock: true,
            visibility: 'public',
            shareWithGroupLock: true,
            requireTwoFactorAuthentication: true,
            twoFactorGracePeriod: 24,
            projectCreationLevel: 'MAINTAINER',
            autoDevopsEnabled: false,
            subgroupCreationLevel: 'OWNER',
            emailsDisabled: true,
            mentionsDisabled: true,
            lfsEnabled: false,
            requestAccessEnabled: false,
            defaultBranchProtection: 'PARTIAL',
            sharedRunnersMinutesLimit: 500,
            extraSharedRunnersMinutesLimit: 50,
          },
        },
        maintainer,
      );
      expect(result.errors).toBeUndefined();
      const payload = result.data!.groupCreate;
      expect(payload).toMatchObject({ clientMutationId: 'create-1', errors: [], group: { fullPath: 'gitlab-org/handbook', visibility: 'public', defaultBranchProtection: 'PARTIAL', parent: { fullPath: 'gitlab-org' } } });
      // One POST; the parent's path is a field of the new group's parent, fetched once.
      expect(restCalls(harness.simulator)).toEqual(['POST /groups', 'GET /groups/1']);
      const post = harness.simulator.requests[0]!;
      expect(post.method).toBe('POST');

      const saved = await harness.oracle.get<RestGroup>('/groups/gitlab-org%2Fhandbook', admin);
      expect(saved).toMatchObject({
        description: 'How we work',
        membership_lock: true,
        project_creation_level: 'maintainer',
        subgroup_creation_level: 'owner',
        two_factor_grace_period: 24,
        lfs_enabled: false,
        default_branch_protection: 1,
        shared_runners_minutes_limit: 500,
        parent_id: 1,
      });
      expect(payload.group!.id).toBe(`gid://gitlab/Group/${saved.id}`);
    });

    it('answers what REST refused (a taken path, a visibility above the parent\'s) in `errors`', async () => {
      const taken = await mutate<{ groupCreate: GroupPayload }>(`mutation { groupCreate(input: { name: "Frontend", path: "frontend", parentId: "gid://gitlab/Group/1" }) { errors group { id } } }`, {}, admin);
      expect(taken.errors).toBeUndefined();
      expect(taken.data!.groupCreate).toEqual({ errors: ['Failed to save group: Path has already been taken'], group: null });
      const visibility = await mutate<{ groupCreate: GroupPayload }>(
        `mutation { groupCreate(input: { name: "Loud", path: "loud", parentId: "gid://gitlab/Group/6", visibility: public }) { errors group { id } } }`,
        {},
        admin,
      );
      expect(visibility.data!.groupCreate).toEqual({ errors: ['Failed to save group: Visibility level public is not allowed since the parent group has a private visibility.'], group: null });
    });

    it('fails with FORBIDDEN where the parent does not let the caller create subgroups', async () => {
      const result = await mutate(`mutation { groupCreate(input: { name: "Nope", path: "nope", parentId: "gid://gitlab/Group/1" }) { errors } }`, {}, guest);
      expect(result.errors?.[0]).toMatchObject({ path: ['groupCreate'], extensions: { code: 'FORBIDDEN', restStatus: 403 } });
    });

    it.each([
      ['{ name: " ", path: "x" }', 'name'],
      ['{ name: "X", path: "x", parentId: "gid://gitlab/Project/1" }', 'parentId'],
      ['{ name: "X", path: "x", twoFactorGracePeriod: -1 }', 'twoFactorGracePeriod'],
      ['{ name: "X", path: "x", sharedRunnersMinutesLimit: -5 }', 'sharedRunnersMinutesLimit'],
    ])('refuses %s with BAD_USER_INPUT before any REST call', async (input, argumentName) => {
      const result = await mutate(`mutation { groupCreate(input: ${input}) { errors } }`, {}, admin);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName });
      expect(restCalls(harness.simulator)).toEqual([]);
    });
  });

  describe('groupUpdate', () => {
    it('updates by global ID with one REST call, every field of the update table passed through', async () => {
      const result = await mutate<{ groupUpdate: GroupPayload }>(
        `mutation($input: GroupUpdateInput!) { groupUpdate(input: $input) { errors group { id fullPath name visibility defaultBranchProtection } } }`,
        {
          input: {
            id: 'gid://gitlab/Group/11',
            name: 'Design Studio',
            description: 'Brand, product and motion design',
            membershipLock: false,
            shareWithGroupLock: true,
            requireTwoFactorAuthentication: false,
            twoFactorGracePeriod: 72,
            projectCreationLevel: 'NOONE',
            autoDevopsEnabled: true,
            subgroupCreationLevel: 'OWNER',
            emailsDisabled: false,
            mentionsDisabled: false,
            lfsEnabled: false,
            requestAccessEnabled: true,
            defaultBranchProtection: 'NONE',
            sharedRunnersMinutesLimit: 0,
            extraSharedRunnersMinutesLimit: 10,
            fileTemplateProjectId: 'gid://gitlab/Project/30',
            preventForkingOutsideGroup: true,
            sharedRunnersSetting: 'disabled_and_overridable',
          },
        },
        admin,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data!.groupUpdate).toEqual({
        errors: [],
        group: { id: 'gid://gitlab/Group/11', fullPath: 'design', name: 'Design Studio', visibility: 'internal', defaultBranchProtection: 'NONE' },
      });
      expect(restCalls(harness.simulator)).toEqual(['PUT /groups/11']);
      const saved = await harness.oracle.get<RestGroup & { file_template_project_id: number; prevent_forking_outside_group: boolean }>('/groups/11', admin);
      expect(saved).toMatchObject({
        name: 'Design Studio',
        project_creation_level: 'noone',
        default_branch_protection: 0,
        shared_runners_minutes_limit: 0,
        shared_runners_setting: 'disabled_and_overridable',
        file_template_project_id: 30,
        prevent_forking_outside_group: true,
      });
    });

    it('updates by full path with one look-up first, and a rename moves everything inside', async () => {
      const result = await mutate<{ groupUpdate: GroupPayload }>(
        `mutation { groupUpdate(input: { fullPath: "opensource/tools", path: "devtools" }) { errors group { fullPath projects(orderBy: ID, sortDirection: ASC) { nodes { fullPath } } } } }`,
        {},
        maintainer,
      );
      expect(result.errors).toBeUndefined();
      expect(restCalls(harness.simulator).slice(0, 2)).toEqual(['GET /groups/opensource%2Ftools', 'PUT /groups/10']);
      const projects = await harness.oracle.all<RestProject>('/groups/10/projects?order_by=id&sort=asc', maintainer);
      expect(projects.every((project) => project.path_with_namespace.startsWith('opensource/devtools/'))).toBe(true);
      expect(result.data!.groupUpdate).toEqual({
        errors: [],
        group: { fullPath: 'opensource/devtools', projects: { nodes: projects.map((project) => ({ fullPath: project.path_with_namespace })) } },
      });
      const old = await mutate<{ group: null }>(`{ group(fullPath: "opensource/tools") { id } }`, {}, maintainer);
      expect(old).toEqual({ data: { group: null } });
    });

    it('answers a visibility conflict in `errors`, and refuses callers who are not owners', async () => {
      const conflict = await mutate<{ groupUpdate: GroupPayload }>(`mutation { groupUpdate(input: { id: "gid://gitlab/Group/1", visibility: private }) { errors group { id } } }`, {}, admin);
      expect(conflict.data!.groupUpdate).toEqual({
        errors: [
          'Visibility level private is not allowed since there are sub-groups with higher visibility.',
          'Visibility level private is not allowed since this group contains projects with higher visibility.',
        ],
        group: null,
      });
      const forbidden = await mutate(`mutation { groupUpdate(input: { fullPath: "gitlab-org", description: "x" }) { errors } }`, {}, developer);
      expect(forbidden.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
    });

    it.each([
      ['{ description: "x" }', 'input'],
      ['{ id: "gid://gitlab/Group/1", fullPath: "gitlab-org", description: "x" }', 'input'],
      ['{ id: "gid://gitlab/Group/1" }', 'input'],
      ['{ id: "gid://gitlab/Group/1", fileTemplateProjectId: "gid://gitlab/Group/2" }', 'fileTemplateProjectId'],
      ['{ id: "gid://gitlab/Group/1", path: "" }', 'path'],
    ])('refuses %s with BAD_USER_INPUT before any REST call', async (input, argumentName) => {
      const result = await mutate(`mutation { groupUpdate(input: ${input}) { errors } }`, {}, admin);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName });
      expect(restCalls(harness.simulator)).toEqual([]);
    });
  });

  describe('projectTransfer', () => {
    it('moves a project into a group: its full path changes, and a private group lowers its visibility', async () => {
      const before = await harness.oracle.get<RestProject>('/projects/gitlab-org%2Ffrontend%2Fdesign-system', admin);
      expect(before.visibility).toBe('public');
      const result = await mutate<{ projectTransfer: { errors: string[]; project: { id: string; fullPath: string; visibility: string }; group: { fullPath: string; name: string } } }>(
        `mutation { projectTransfer(input: { projectPath: "gitlab-org/frontend/design-system", groupPath: "acme/platform" }) { errors project { id fullPath visibility } group { fullPath name } } }`,
        {},
        admin,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data!.projectTransfer).toEqual({
        errors: [],
        project: { id: `gid://gitlab/Project/${before.id}`, fullPath: 'acme/platform/design-system', visibility: 'private' },
        group: { fullPath: 'acme/platform', name: 'Platform' },
      });
      // The REST answer is the moved project and names its new group: nothing else to fetch.
      expect(restCalls(harness.simulator)).toEqual(['POST /groups/acme%2Fplatform/projects/gitlab-org%2Ffrontend%2Fdesign-system']);
      const moved = await harness.oracle.get<RestProject>(`/projects/${before.id}`, admin);
      expect(moved).toMatchObject({ path_with_namespace: 'acme/platform/design-system', visibility: 'private' });
      const old = await mutate(`{ project(fullPath: "gitlab-org/frontend/design-system") { id } }`, {}, admin);
      expect(old).toEqual({ data: { project: null } });
    });

    it('answers a path clash in `errors`, and refuses everyone but administrators', async () => {
      const clash = await mutate<{ projectTransfer: { errors: string[]; project: null } }>(
        `mutation { projectTransfer(input: { projectPath: "acme/website", groupPath: "opensource" }) { errors project { id } } }`,
        {},
        admin,
      );
      expect(clash.data!.projectTransfer).toEqual({ errors: ['Failed to transfer project: New namespace Project with same name or path in target namespace already exists'], project: null });
      const forbidden = await mutate(`mutation { projectTransfer(input: { projectPath: "maintainer/dotfiles", groupPath: "opensource" }) { errors } }`, {}, maintainer);
      expect(forbidden.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
    });

    it('refuses a malformed path before any REST call', async () => {
      const result = await mutate(`mutation { projectTransfer(input: { projectPath: "a b", groupPath: "opensource" }) { errors } }`, {}, admin);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'projectPath' });
      expect(restCalls(harness.simulator)).toEqual([]);
    });
  });
});
