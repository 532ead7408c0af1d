import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

interface RestGroup {
  id: number;
  full_path: string;
  name: string;
  visibility: string;
  parent_id: number | null;
  runners_token?: string;
  statistics?: Record<string, number>;
  custom_attributes?: Array<{ key: string; value: string }>;
  shared_with_groups?: Array<{ group_full_path: string; group_access_level: number; expires_at: string | null }>;
  projects?: Array<{ path_with_namespace: string }>;
  shared_projects?: Array<{ path_with_namespace: string }>;
}
interface RestProject {
  id: number;
  path_with_namespace: string;
  visibility: string;
  star_count: number;
  archived: boolean;
  custom_attributes?: Array<{ key: string; value: string }>;
}
interface RestRunner {
  id: number;
  description: string;
  status: string;
  projects?: Array<{ id: number; path_with_namespace: string }>;
}
interface Connection<T> {
  count: number | null;
  nodes: T[];
}

const { admin, maintainer, developer, guest, outsider } = DEMO_TOKENS;
const groupGid = (id: number) => `gid://gitlab/Group/${id}`;
const encode = (path: string) => encodeURIComponent(path);
const ROLE: Record<number, string> = { 10: 'GUEST', 20: 'REPORTER', 30: 'DEVELOPER', 40: 'MAINTAINER', 50: 'OWNER' };

describe('groups and projects over real HTTP', () => {
  // Some queries here walk wide trees (50 subgroups x 50 projects x runners) on purpose: their
  // estimated REST calls are far above the default cost limit, which test/e2e/limits.test.ts covers.
  const harness = gatewayOverSimulator({ limits: { maxRestCalls: 250_000 } });
  const query = <T>(text: string, variables: Record<string, unknown>, token?: string) => harness.gateway.query<T>(text, variables, token);

  describe('a nested query', () => {
    it('answers group -> subgroups -> projects -> runners with one REST call per list and none per project', async () => {
      const token = maintainer;
      const result = await query<{
        group: {
          fullPath: string;
          subgroups: Connection<{ id: string; fullPath: string; projects: Connection<{ id: string; fullPath: string; visibility: string; starCount: number; runners: Connection<{ id: string; status: string }> }> }>;
        };
      }>(
        `query($path: ID!) { group(fullPath: $path) { fullPath subgroups(first: 50) { count nodes { id fullPath
           projects(first: 50) { count nodes { id fullPath visibility starCount
             runners(first: 5) { count nodes { id status(legacyMode: "14.5") } } } } } } } }`,
        { path: 'gitlab-org' },
        token,
      );
      expect(result.errors).toBeUndefined();
      const calls = restCalls(harness.simulator);

      const { oracle } = harness;
      const subgroups = await oracle.all<RestGroup>('/groups/gitlab-org/subgroups', token);
      const nodes = result.data!.group.subgroups.nodes;
      expect(subgroups.length).toBeGreaterThan(1);
      expect(nodes.map((node) => node.id)).toEqual(subgroups.map((group) => groupGid(group.id)));
      let projectCount = 0;
      for (const [index, subgroup] of subgroups.entries()) {
        const projects = await oracle.all<RestProject>(`/groups/${subgroup.id}/projects`, token);
        projectCount += projects.length;
        const projectNodes = nodes[index]!.projects.nodes;
        expect(projectNodes.map((node) => [node.fullPath, node.visibility, node.starCount])).toEqual(
          projects.map((project) => [project.path_with_namespace, project.visibility, project.star_count]),
        );
        for (const [projectIndex, project] of projects.entries()) {
          const runners = await oracle.call<RestRunner[]>('GET', `/projects/${project.id}/runners?per_page=5&page=1`, token);
          expect(projectNodes[projectIndex]!.runners.count).toBe(Number(runners.headers.get('x-total')));
          // REST's own status (paused included), as GitLab's legacyMode answers it.
          expect(projectNodes[projectIndex]!.runners.nodes).toEqual(runners.body.map((runner) => ({ id: `gid://gitlab/Ci::Runner/${runner.id}`, status: runner.status.toUpperCase() })));
        }
      }
      expect(projectCount).toBeGreaterThan(subgroups.length);
      // The group, its subgroup list, one project list per subgroup and one runner list per
      // project; every project field comes from its list record.
      expect(calls).toHaveLength(2 + subgroups.length + projectCount);
      expect(new Set(calls).size).toBe(calls.length);
      expect(calls.filter((call) => /^GET \/projects\/[^/]+$/.test(call))).toEqual([]);
    });

    it('fetches a project reached through a list and through a runner once: from the list, for free', async () => {
      const token = admin;
      const result = await query<{
        group: { projects: Connection<{ fullPath: string; runners: Connection<{ id: string; projects: Connection<{ fullPath: string; visibility: string; archived: boolean }> }> }> };
      }>(
        `{ group(fullPath: "gitlab-org") { projects(first: 100, includeSubgroups: true) { nodes { fullPath
             runners(first: 100, type: PROJECT_TYPE) { nodes { id projects { nodes { fullPath visibility archived } } } } } } } }`,
        {},
        token,
      );
      expect(result.errors).toBeUndefined();
      const calls = restCalls(harness.simulator);

      const { oracle } = harness;
      const listed = await oracle.all<RestProject>('/groups/gitlab-org/projects?include_subgroups=true', token);
      const listedIds = new Set(listed.map((project) => project.id));
      const runnerIds = new Set<number>();
      const embedded = new Set<number>();
      for (const project of listed) {
        for (const runner of await oracle.all<RestRunner>(`/projects/${project.id}/runners?type=project_type`, token)) {
          runnerIds.add(runner.id);
          for (const reference of (await oracle.get<RestRunner>(`/runners/${runner.id}`, token)).projects ?? []) embedded.add(reference.id);
        }
      }
      const outside = [...embedded].filter((id) => !listedIds.has(id));
      // The same runner under several projects, and the same project under several runners.
      expect(runnerIds.size).toBeLessThan(result.data!.group.projects.nodes.reduce((sum, node) => sum + node.runners.nodes.length, 0));
      expect([...embedded].filter((id) => listedIds.has(id)).length).toBeGreaterThan(1);

      expect(calls.filter((call) => call.startsWith('GET /runners/'))).toHaveLength(runnerIds.size);
      for (const id of listedIds) expect(calls).not.toContain(`GET /projects/${id}`);
      for (const id of outside) expect(calls.filter((call) => call === `GET /projects/${id}`)).toHaveLength(1);
      expect(calls).toHaveLength(2 + listed.length + runnerIds.size + outside.length);

      for (const node of result.data!.group.projects.nodes) {
        for (const runner of node.runners.nodes) {
          for (const reference of runner.projects.nodes) {
            const project = await oracle.get<RestProject>(`/projects/${encode(reference.fullPath)}`, token);
            expect(reference).toEqual({ fullPath: project.path_with_namespace, visibility: project.visibility, archived: project.archived });
          }
        }
      }
    });

    it('fetches a project asked for under two aliases once', async () => {
      const result = await query(`{ a: project(fullPath: "gitlab-org/gitlab") { name } b: project(fullPath: "GitLab-org/GitLab") { visibility starCount } }`, {}, developer);
      expect(result.errors).toBeUndefined();
      expect(restCalls(harness.simulator)).toEqual(['GET /projects/gitlab-org%2Fgitlab']);
    });

    it('asks for the short project record only when the selection needs nothing else', async () => {
      // The group's record and its project list, both by path (the list is sent with the record).
      const simpleQuery = (call: { path: string; query: Record<string, string | string[]> }) => `${call.path} simple=${String(call.query['simple'])}`;
      const short = await query<{ group: { projects: Connection<{ id: string; fullPath: string; name: string; webUrl: string }> } }>(
        `{ group(fullPath: "gitlab-org") { projects(first: 3) { nodes { id fullPath name webUrl } edges { node { path } } } } }`,
        {},
        maintainer,
      );
      expect(short.errors).toBeUndefined();
      expect(harness.simulator.requests.map(simpleQuery).sort()).toEqual(['/groups/gitlab-org simple=undefined', '/groups/gitlab-org/projects simple=true']);
      const expected = (await harness.oracle.get<RestProject[]>('/groups/gitlab-org/projects?per_page=3&page=1', maintainer)).map((project) => project.path_with_namespace);
      expect(short.data!.group.projects.nodes.map((node) => node.fullPath)).toEqual(expected);

      for (const text of [
        `{ group(fullPath: "gitlab-org") { projects(first: 3) { nodes { fullPath visibility } } } }`,
        `{ group(fullPath: "gitlab-org") { projects(first: 3) { edges { node { fullPath archived } } } } }`,
        `{ group(fullPath: "gitlab-org") { projects(first: 3) { nodes { ...P } } } } fragment P on Project { fullPath }`,
      ]) {
        harness.simulator.resetRequests();
        const full = await query(text, {}, maintainer);
        expect(full.errors).toBeUndefined();
        expect(harness.simulator.requests.map(simpleQuery).sort()).toEqual(['/groups/gitlab-org simple=undefined', '/groups/gitlab-org/projects simple=undefined']);
      }
    });
  });

  describe('group lists', () => {
    it.each([
      ['allAvailable: true', 'all_available=true', '', outsider],
      ['allAvailable: false', 'all_available=false', '', admin],
      ['search: "open"', 'search=open', '', undefined],
      ['orderBy: PATH', 'order_by=path', 'order_by=id', admin],
      ['orderBy: ID, sort: DESC', 'order_by=id&sort=desc', '', admin],
      ['orderBy: SIMILARITY, search: "in"', 'order_by=similarity&search=in', 'search=in', admin],
      ['owned: true', 'owned=true', '', maintainer],
      ['minAccessLevel: MAINTAINER', 'min_access_level=40', '', developer],
      ['owned: true, allAvailable: true', 'owned=true&all_available=true', 'all_available=true', maintainer],
      ['topLevelOnly: true', 'top_level_only=true', '', admin],
      ['skipGroups: ["gid://gitlab/Group/1", "gid://gitlab/Group/9"]', 'skip_groups[]=1&skip_groups[]=9', '', undefined],
      ['customAttributes: [{ key: "department", value: "engineering" }]', 'custom_attributes[department]=engineering', '', admin],
    ])('groups(%s) answers what REST answers for %s, which differs from the unfiltered list', async (args, restQuery, baselineQuery, token) => {
      const { oracle } = harness;
      const expected = await oracle.all<RestGroup>(`/groups?${restQuery}`, token);
      const baseline = await oracle.all<RestGroup>(`/groups${baselineQuery ? `?${baselineQuery}` : ''}`, token);
      expect(expected.map((group) => group.id)).not.toEqual(baseline.map((group) => group.id));
      const result = await query<{ groups: Connection<{ id: string }> }>(`{ groups(first: 100, ${args}) { count nodes { id } } }`, {}, token);
      expect(result.errors).toBeUndefined();
      expect(result.data!.groups.nodes.map((node) => node.id)).toEqual(expected.map((group) => groupGid(group.id)));
      expect(result.data!.groups.count).toBe(expected.length);
      expect(restCalls(harness.simulator)).toHaveLength(1);
    });

    it.each([
      ['subgroups', 'allAvailable: true', 'subgroups?all_available=true', 'subgroups', outsider],
      ['subgroups', 'search: "front"', 'subgroups?search=front', 'subgroups', developer],
      ['descendantGroups', 'orderBy: ID, sort: DESC', 'descendant_groups?order_by=id&sort=desc', 'descendant_groups', admin],
      ['descendantGroups', 'skipGroups: ["gid://gitlab/Group/4"]', 'descendant_groups?skip_groups[]=4', 'descendant_groups', admin],
      ['descendantGroups', 'minAccessLevel: OWNER', 'descendant_groups?min_access_level=50', 'descendant_groups', maintainer],
    ])('Group.%s(%s) answers what REST answers', async (field, args, restPath, baselinePath, token) => {
      const { oracle } = harness;
      const expected = await oracle.all<RestGroup>(`/groups/1/${restPath}`, token);
      const baseline = await oracle.all<RestGroup>(`/groups/1/${baselinePath}`, token);
      expect(expected.map((group) => group.id)).not.toEqual(baseline.map((group) => group.id));
      const result = await query<{ group: Record<string, Connection<{ id: string }>> }>(`{ group(fullPath: "gitlab-org") { ${field}(first: 100, ${args}) { count nodes { id } } } }`, {}, token);
      expect(result.errors).toBeUndefined();
      expect(result.data!.group[field]!.nodes.map((node) => node.id)).toEqual(expected.map((group) => groupGid(group.id)));
    });

    it('gives statistics and custom attributes to administrators, and null to everyone else', async () => {
      const text = `{ groups(first: 100, statistics: true, withCustomAttributes: true) { nodes { fullPath statistics { storageSize repositorySize wikiSize lfsObjectsSize jobArtifactsSize pipelineArtifactsSize packagesSize snippetsSize uploadsSize } customAttributes { key value } } } }`;
      const forAdmin = await query<{ groups: Connection<{ fullPath: string; statistics: Record<string, number>; customAttributes: Array<{ key: string; value: string }> }> }>(text, {}, admin);
      expect(forAdmin.errors).toBeUndefined();
      const expected = await harness.oracle.all<RestGroup>('/groups?statistics=true&with_custom_attributes=true', admin);
      expect(forAdmin.data!.groups.nodes).toEqual(
        expected.map((group) => ({
          fullPath: group.full_path,
          statistics: {
            storageSize: group.statistics!['storage_size'],
            repositorySize: group.statistics!['repository_size'],
            wikiSize: group.statistics!['wiki_size'],
            lfsObjectsSize: group.statistics!['lfs_objects_size'],
            jobArtifactsSize: group.statistics!['job_artifacts_size'],
            pipelineArtifactsSize: group.statistics!['pipeline_artifacts_size'],
            packagesSize: group.statistics!['packages_size'],
            snippetsSize: group.statistics!['snippets_size'],
            uploadsSize: group.statistics!['uploads_size'],
          },
          customAttributes: group.custom_attributes,
        })),
      );
      // A group's storage passes 2^31 bytes, which GraphQL's Int could not carry.
      expect(Math.max(...forAdmin.data!.groups.nodes.map((node) => node.statistics['storageSize'] ?? 0))).toBeGreaterThan(2 ** 31);
      expect(restCalls(harness.simulator)).toHaveLength(1);

      harness.simulator.resetRequests();
      const forMaintainer = await query<{ groups: Connection<{ statistics: unknown; customAttributes: unknown }> }>(
        `{ groups(first: 100, statistics: true, withCustomAttributes: true) { nodes { statistics { storageSize } customAttributes { key } } } }`,
        {},
        maintainer,
      );
      expect(forMaintainer.errors).toBeUndefined();
      expect(forMaintainer.data!.groups.nodes.every((node) => node.statistics === null && node.customAttributes === null)).toBe(true);
    });

    it('reads a single group\'s custom attributes with one more call, for administrators', async () => {
      const result = await query<{ group: { customAttributes: unknown; name: string } }>(`{ group(fullPath: "gitlab-org") { name customAttributes { key value } } }`, {}, admin);
      expect(result.errors).toBeUndefined();
      const detail = await harness.oracle.get<RestGroup>('/groups/1?with_custom_attributes=true', admin);
      expect(result.data!.group.customAttributes).toEqual(detail.custom_attributes);
      expect(restCalls(harness.simulator)).toEqual(['GET /groups/gitlab-org', 'GET /groups/1']);
    });
  });

  describe('group project lists', () => {
    it.each([
      ['archived: true', 'archived=true', '', 'gitlab-org', admin],
      ['archived: false', 'archived=false', '', 'gitlab-org', admin],
      ['includeSubgroups: true, visibility: internal', 'include_subgroups=true&visibility=internal', 'include_subgroups=true', 'gitlab-org', admin],
      ['orderBy: NAME, sortDirection: ASC', 'order_by=name&sort=asc', '', 'gitlab-org', admin],
      ['orderBy: PATH', 'order_by=path', '', 'gitlab-org', admin],
      ['orderBy: ID, sortDirection: ASC', 'order_by=id&sort=asc', '', 'gitlab-org', admin],
      ['orderBy: CREATED_AT, sortDirection: ASC', 'order_by=created_at&sort=asc', '', 'gitlab-org', admin],
      ['includeSubgroups: true, orderBy: UPDATED_AT', 'include_subgroups=true&order_by=updated_at', 'include_subgroups=true', 'gitlab-org', admin],
      ['orderBy: LAST_ACTIVITY_AT, sortDirection: ASC', 'order_by=last_activity_at&sort=asc', '', 'gitlab-org', admin],
      ['orderBy: SIMILARITY, search: "git"', 'order_by=similarity&search=git', 'search=git', 'gitlab-org', admin],
      ['search: "git"', 'search=git', '', 'gitlab-org', admin],
      ['owned: true', 'owned=true', '', 'design', admin],
      ['includeSubgroups: true, starred: true', 'include_subgroups=true&starred=true', 'include_subgroups=true', 'gitlab-org', maintainer],
      ['withIssuesEnabled: true', 'with_issues_enabled=true', '', 'opensource/tools', developer],
      ['withMergeRequestsEnabled: true', 'with_merge_requests_enabled=true', '', 'opensource/tools', undefined],
      ['withShared: false', 'with_shared=false', '', 'design', maintainer],
      ['includeSubgroups: true', 'include_subgroups=true', '', 'gitlab-org', admin],
      ['includeSubgroups: true, minAccessLevel: MAINTAINER', 'include_subgroups=true&min_access_level=40', 'include_subgroups=true', 'gitlab-org', developer],
    ])('Group.projects(%s) answers what REST answers for %s, which differs from the unfiltered list', async (args, restQuery, baselineQuery, path, token) => {
      const { oracle } = harness;
      const expected = await oracle.all<RestProject>(`/groups/${encode(path)}/projects?${restQuery}`, token);
      const baseline = await oracle.all<RestProject>(`/groups/${encode(path)}/projects${baselineQuery ? `?${baselineQuery}` : ''}`, token);
      expect(expected.map((project) => project.id)).not.toEqual(baseline.map((project) => project.id));
      const result = await query<{ group: { projects: Connection<{ fullPath: string; visibility: string }> } }>(
        `query($path: ID!) { group(fullPath: $path) { projects(first: 100, ${args}) { count nodes { fullPath visibility } } } }`,
        { path },
        token,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data!.group.projects.nodes.map((node) => node.fullPath)).toEqual(expected.map((project) => project.path_with_namespace));
      expect(result.data!.group.projects.count).toBe(expected.length);
    });

    it('passes withSecurityReports (ULTIMATE) and withCustomAttributes through', async () => {
      const result = await query<{ group: { projects: Connection<{ fullPath: string; customAttributes: unknown }> } }>(
        `{ group(fullPath: "gitlab-org") { projects(first: 100, withSecurityReports: true, withCustomAttributes: true, orderBy: ID, sortDirection: ASC) { nodes { fullPath customAttributes { key value } } } } }`,
        {},
        admin,
      );
      expect(result.errors).toBeUndefined();
      const listCall = harness.simulator.requests.find((request) => request.path === '/groups/gitlab-org/projects')!;
      expect(listCall.query).toMatchObject({ with_security_reports: 'true', with_custom_attributes: 'true' });
      const expected = await harness.oracle.all<RestProject>('/groups/1/projects?with_custom_attributes=true&order_by=id&sort=asc', admin);
      expect(result.data!.group.projects.nodes).toEqual(expected.map((project) => ({ fullPath: project.path_with_namespace, customAttributes: project.custom_attributes })));
      expect(result.data!.group.projects.nodes[0]!.customAttributes).toEqual([{ key: 'tier', value: 'critical' }]);
    });

    it('lists projects shared with a group, with their filters', async () => {
      const result = await query<{ group: { sharedProjects: Connection<{ fullPath: string; sharedWithGroups: Array<{ group: { fullPath: string }; groupAccessLevel: string }> }>; none: Connection<{ fullPath: string }> } }>(
        `{ group(fullPath: "design") { sharedProjects { count nodes { fullPath sharedWithGroups { group { fullPath } groupAccessLevel } } } none: sharedProjects(search: "nothing-like-this") { count nodes { fullPath } } } }`,
        {},
        maintainer,
      );
      expect(result.errors).toBeUndefined();
      const expected = await harness.oracle.all<RestProject & { shared_with_groups: Array<{ group_full_path: string; group_access_level: number }> }>('/groups/design/projects/shared', maintainer);
      expect(expected.length).toBeGreaterThan(0);
      expect(result.data!.group.sharedProjects.nodes).toEqual(
        expected.map((project) => ({
          fullPath: project.path_with_namespace,
          sharedWithGroups: project.shared_with_groups.map((share) => ({ group: { fullPath: share.group_full_path }, groupAccessLevel: ROLE[share.group_access_level] })),
        })),
      );
      expect(result.data!.group.none).toEqual({ count: 0, nodes: [] });
    });
  });

  describe('group fields', () => {
    it('maps the group record, its enums and its shares', async () => {
      const result = await query<{ group: Record<string, unknown> }>(
        `{ group(fullPath: "gitlab-org/frontend") { id fullPath name path fullName description visibility shareWithGroupLock requireTwoFactorAuthentication
             twoFactorGracePeriod projectCreationLevel autoDevopsEnabled subgroupCreationLevel emailsDisabled mentionsDisabled lfsEnabled
             defaultBranchProtection avatarUrl webUrl requestAccessEnabled createdAt membershipLock sharedRunnersSetting preventForkingOutsideGroup
             sharedRunnersMinutesLimit extraSharedRunnersMinutesLimit markedForDeletionOn fileTemplateProject { id }
             sharedWithGroups { group { fullPath name } groupName groupFullPath groupAccessLevel expiresAt }
             parent { fullPath parent { fullPath } } } }`,
        {},
        developer,
      );
      expect(result.errors).toBeUndefined();
      const rest = await harness.oracle.get<RestGroup & Record<string, unknown>>('/groups/gitlab-org%2Ffrontend?with_projects=false', developer);
      expect(result.data!.group).toEqual({
        id: groupGid(rest.id),
        fullPath: rest.full_path,
        name: rest.name,
        path: rest['path'],
        fullName: rest['full_name'],
        description: rest['description'],
        visibility: 'public',
        shareWithGroupLock: rest['share_with_group_lock'],
        requireTwoFactorAuthentication: rest['require_two_factor_authentication'],
        twoFactorGracePeriod: rest['two_factor_grace_period'],
        projectCreationLevel: 'DEVELOPER',
        autoDevopsEnabled: null,
        subgroupCreationLevel: 'MAINTAINER',
        emailsDisabled: null,
        mentionsDisabled: null,
        lfsEnabled: true,
        defaultBranchProtection: 'FULL',
        avatarUrl: null,
        webUrl: rest['web_url'],
        requestAccessEnabled: rest['request_access_enabled'],
        createdAt: rest['created_at'],
        membershipLock: false,
        sharedRunnersSetting: 'enabled',
        preventForkingOutsideGroup: null,
        sharedRunnersMinutesLimit: null,
        extraSharedRunnersMinutesLimit: null,
        markedForDeletionOn: null,
        fileTemplateProject: null,
        sharedWithGroups: [{ group: { fullPath: 'design', name: 'Design' }, groupName: 'Design', groupFullPath: 'design', groupAccessLevel: 'REPORTER', expiresAt: null }],
        parent: { fullPath: 'gitlab-org', parent: null },
      });
      // The group, then its parent; the share named its group's path and name, so no call for them.
      expect(restCalls(harness.simulator)).toEqual(['GET /groups/gitlab-org%2Ffrontend', 'GET /groups/1']);
    });

    it('answers the deprecated embedded projects from one more detail call', async () => {
      const result = await query<{ group: { embeddedProjects: Array<{ fullPath: string }>; embeddedSharedProjects: Array<{ fullPath: string }> } }>(
        `{ group(fullPath: "design") { name embeddedProjects { fullPath } embeddedSharedProjects { fullPath } } }`,
        {},
        maintainer,
      );
      expect(result.errors).toBeUndefined();
      const detail = await harness.oracle.get<RestGroup>('/groups/design', maintainer);
      expect(result.data!.group.embeddedProjects).toEqual(detail.projects!.map((project) => ({ fullPath: project.path_with_namespace })));
      expect(result.data!.group.embeddedSharedProjects).toEqual(detail.shared_projects!.map((project) => ({ fullPath: project.path_with_namespace })));
      const calls = harness.simulator.requests.map((request) => `${request.path}?with_projects=${String(request.query['with_projects'])}`);
      expect(calls).toEqual(['/groups/design?with_projects=false', '/groups/11?with_projects=true']);
    });

    it('maps the project record', async () => {
      const result = await query<{ project: Record<string, unknown> }>(
        `{ project(fullPath: "gitlab-org/gitlab") { id fullPath name nameWithNamespace path description defaultBranch topics tagList visibility archived webUrl
             httpUrlToRepo sshUrlToRepo readmeUrl avatarUrl starCount forksCount openIssuesCount creator { username } owner { username } publicJobs
             sharedWithGroups { groupFullPath } requestAccessEnabled issuesEnabled mergeRequestsEnabled wikiEnabled jobsEnabled snippetsEnabled
             sharedRunnersEnabled lfsEnabled emailsDisabled issuesAccessLevel { integerValue stringValue } repositoryAccessLevel { stringValue }
             mergeRequestsAccessLevel { stringValue } forkingAccessLevel { stringValue } wikiAccessLevel { stringValue } buildsAccessLevel { stringValue }
             snippetsAccessLevel { stringValue } pagesAccessLevel { integerValue stringValue } links { self issues mergeRequests repoBranches labels events members clusterAgents }
             emptyRepo resolveOutdatedDiffDiscussions containerRegistryEnabled containerExpirationPolicy { cadence enabled keepN olderThan nameRegex nameRegexKeep nextRunAt }
             canCreateMergeRequestIn importStatus ciDefaultGitDepth ciForwardDeploymentEnabled buildTimeout autoCancelPendingPipelines buildCoverageRegex ciConfigPath
             onlyAllowMergeIfPipelineSucceeds onlyAllowMergeIfAllDiscussionsAreResolved removeSourceBranchAfterMerge printingMergeRequestLinkEnabled mergeMethod
             suggestionCommitMessage autoDevopsEnabled autoDevopsDeployStrategy autocloseReferencedIssues repositoryStorage createdAt lastActivityAt
             namespace { fullPath kind } group { fullPath } customAttributes { key } } }`,
        {},
        developer,
      );
      expect(result.errors).toBeUndefined();
      const rest = await harness.oracle.get<Record<string, unknown> & { _links: Record<string, string>; container_expiration_policy: Record<string, unknown> }>('/projects/gitlab-org%2Fgitlab', developer);
      expect(result.data!.project).toMatchObject({
        id: `gid://gitlab/Project/${String(rest['id'])}`,
        fullPath: rest['path_with_namespace'],
        topics: rest['topics'],
        tagList: rest['tag_list'],
        readmeUrl: rest['readme_url'],
        creator: { username: 'root' },
        owner: null,
        issuesAccessLevel: { integerValue: 20, stringValue: 'ENABLED' },
        pagesAccessLevel: { integerValue: 30, stringValue: 'PUBLIC' },
        links: { self: rest._links['self'], mergeRequests: rest._links['merge_requests'], clusterAgents: rest._links['cluster_agents'] },
        containerExpirationPolicy: { cadence: rest.container_expiration_policy['cadence'], keepN: rest.container_expiration_policy['keep_n'] },
        ciDefaultGitDepth: rest['ci_default_git_depth'],
        mergeMethod: rest['merge_method'],
        namespace: { fullPath: 'gitlab-org', kind: 'group' },
        group: { fullPath: 'gitlab-org' },
        customAttributes: null,
      });
      // The project, and its creator's public profile.
      expect(restCalls(harness.simulator)).toEqual(['GET /projects/gitlab-org%2Fgitlab', 'GET /users/1']);
    });
  });

  describe('who sees what', () => {
    // Tokens in the demo data: guest, developer and maintainer hold those roles in gitlab-org,
    // acme, opensource and design; the maintainer owns opensource; only the administrator sees
    // secret-lab; the outsider belongs to nothing.
    it.each([
      ['anonymous', undefined, { acme: false, secret: false, ownerToken: false, orgToken: false }],
      ['outsider', outsider, { acme: false, secret: false, ownerToken: false, orgToken: false }],
      ['guest', guest, { acme: true, secret: false, ownerToken: false, orgToken: false }],
      ['developer', developer, { acme: true, secret: false, ownerToken: false, orgToken: false }],
      ['maintainer (and owner of opensource)', maintainer, { acme: true, secret: false, ownerToken: true, orgToken: false }],
      ['administrator', admin, { acme: true, secret: true, ownerToken: true, orgToken: true }],
    ] as const)('%s sees what REST shows them, and nothing more', async (_who, token, sees) => {
      const result = await query<{
        groups: Connection<{ fullPath: string; visibility: string }>;
        acme: { fullPath: string } | null;
        secret: { fullPath: string } | null;
        opensource: { runnersToken: string | null };
        org: { runnersToken: string | null; statistics: unknown; projects: Connection<{ fullPath: string; visibility: string }> };
      }>(
        `{ groups(first: 100) { nodes { fullPath visibility } }
           acme: group(fullPath: "acme") { fullPath }
           secret: group(fullPath: "secret-lab") { fullPath }
           opensource: group(fullPath: "opensource") { runnersToken }
           org: group(fullPath: "gitlab-org") { runnersToken statistics { storageSize } projects(first: 100, includeSubgroups: true) { nodes { fullPath visibility } } } }`,
        {},
        token,
      );
      expect(result.errors).toBeUndefined();
      const data = result.data!;
      const { oracle } = harness;
      expect(data.groups.nodes.map((node) => node.fullPath)).toEqual((await oracle.all<RestGroup>('/groups', token)).map((group) => group.full_path));
      expect(data.org.projects.nodes.map((node) => node.fullPath)).toEqual(
        (await oracle.all<RestProject>('/groups/gitlab-org/projects?include_subgroups=true', token)).map((project) => project.path_with_namespace),
      );
      expect({ acme: data.acme !== null, secret: data.secret !== null, ownerToken: data.opensource.runnersToken !== null, orgToken: data.org.runnersToken !== null }).toEqual(sees);
      expect(data.org.statistics).toBeNull();
      if (token === undefined) {
        expect(data.groups.nodes.every((node) => node.visibility === 'public')).toBe(true);
        expect(data.org.projects.nodes.every((node) => node.visibility === 'public')).toBe(true);
      }
      if (token === outsider) {
        expect(data.groups.nodes).toEqual([]);
        expect(data.org.projects.nodes.some((node) => node.visibility === 'private')).toBe(false);
      }
    });
  });

  describe('nodes', () => {
    it('fetches groups, projects, runners and users by global ID, null for what the caller may not see', async () => {
      const result = await query<{ nodes: Array<{ __typename: string; id: string } | null> }>(
        `{ nodes(ids: ["gid://gitlab/Group/1", "gid://gitlab/Project/6", "gid://gitlab/Ci::Runner/1", "gid://gitlab/User/3", "gid://gitlab/Group/12"]) {
             __typename id ... on Group { fullPath } ... on Project { fullPath } } }`,
        {},
        maintainer,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data!.nodes).toEqual([
        { __typename: 'Group', id: 'gid://gitlab/Group/1', fullPath: 'gitlab-org' },
        { __typename: 'Project', id: 'gid://gitlab/Project/6', fullPath: 'gitlab-org/frontend/web-ui' },
        { __typename: 'CiRunner', id: 'gid://gitlab/Ci::Runner/1' },
        { __typename: 'UserCore', id: 'gid://gitlab/User/3' },
        null,
      ]);
      expect(restCalls(harness.simulator).sort()).toEqual(['GET /groups/1', 'GET /groups/12', 'GET /projects/6', 'GET /runners/1', 'GET /users/3']);
    });
  });

  describe('bad input', () => {
    it.each([
      ['{ groups(first: 101) { nodes { id } } }', 'first'],
      ['{ groups(skipGroups: ["gid://gitlab/Project/1"]) { nodes { id } } }', 'skipGroups'],
      ['{ groups(skipGroups: ["1"]) { nodes { id } } }', 'skipGroups'],
      ['{ groups(search: " ") { nodes { id } } }', 'search'],
      ['{ groups(customAttributes: [{ key: "a", value: "1" }, { key: "a", value: "2" }]) { nodes { id } } }', 'customAttributes'],
      ['{ group(fullPath: "gitlab-org//frontend") { id } }', 'fullPath'],
    ])('refuses %s with BAD_USER_INPUT before any REST call', async (text, argumentName) => {
      const result = await query(text, {}, admin);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName });
      expect(restCalls(harness.simulator)).toEqual([]);
    });

    it('refuses a bad nested argument before that list\'s REST call', async () => {
      const result = await query(`{ group(fullPath: "gitlab-org") { name projects(search: "") { nodes { id } } } }`, {}, admin);
      expect(result.errors?.[0]).toMatchObject({ path: ['group', 'projects'], extensions: { code: 'BAD_USER_INPUT', argumentName: 'search' } });
      expect(result.data).toEqual({ group: null });
      expect(restCalls(harness.simulator)).toEqual(['GET /groups/gitlab-org']);
    });

    it('answers null for a group the caller may not see', async () => {
      const result = await query<{ group: null }>(`{ group(fullPath: "acme") { id } }`, {}, outsider);
      expect(result).toEqual({ data: { group: null } });
    });
  });
});
