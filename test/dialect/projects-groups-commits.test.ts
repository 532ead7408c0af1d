import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { buildSchemaFromFiles } from '../../src/schema/sdl.js';
import { branchSearch } from '../../src/resolvers/commits/references.js';
import { commitDescription, gravatarUrl } from '../../src/resolvers/commits/Commit.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const schema = buildSchemaFromFiles();
const { admin, maintainer, developer, guest, outsider } = DEMO_TOKENS;
const PROJECT = 'gitlab-org/gitlab';
const GROUP = 'gitlab-org';

/** Documents in the style of GitLab's frontend: named operations, fragments, GitLab's scalars. */
const PROJECT_PAGE = /* GraphQL */ `
  fragment ProjectPermissionsFields on ProjectPermissions {
    readProject
    createIssue
    downloadCode
    pushCode
    createMergeRequestIn
    createMergeRequestFrom
    adminProject
    archiveProject
    removeProject
  }
  query getProjectPage($fullPath: ID!) {
    project(fullPath: $fullPath) {
      id
      name
      nameWithNamespace
      fullPath
      webUrl
      visibility
      topics
      description
      descriptionHtml
      namespace { id fullName fullPath }
      userPermissions { ...ProjectPermissionsFields }
      statistics { storageSize repositorySize commitCount buildArtifactsSize }
    }
  }
`;

const PROJECT_MEMBERS = /* GraphQL */ `
  query getProjectMembers($fullPath: ID!, $relations: [ProjectMemberRelation!], $search: String) {
    project(fullPath: $fullPath) {
      projectMembers(relations: $relations, search: $search, first: 100) {
        nodes {
          id
          user { id username }
          accessLevel { integerValue stringValue }
          ... on ProjectMember { project { id } }
        }
      }
    }
  }
`;

const GROUP_PAGE = /* GraphQL */ `
  query getGroupPage($fullPath: ID!) {
    group(fullPath: $fullPath) {
      id
      name
      fullName
      fullPath
      webUrl
      visibility
      descriptionHtml
      userPermissions { readGroup createProjects createCustomEmoji }
      groupMembers(first: 100) { nodes { id user { username } accessLevel { integerValue stringValue } } }
      descendantGroups(includeParentDescendants: false, first: 100) { nodes { fullPath } }
      projects(sort: ACTIVITY_DESC, first: 5) { nodes { fullPath visibility } }
    }
  }
`;

const COMMIT_PAGE = /* GraphQL */ `
  fragment CommitFields on Commit {
    id
    sha
    shortId
    title
    titleHtml
    description
    descriptionHtml
    message
    webPath
    webUrl
    authorName
    authorEmail
    authorGravatar
    authoredDate
  }
  query pathLastCommit($projectPath: ID!, $path: String, $ref: String!, $searchPattern: String!, $commitSha: String!) {
    project(fullPath: $projectPath) {
      id
      repository {
        tree(path: $path, ref: $ref) { lastCommit { ...CommitFields } }
        branchNames(searchPattern: $searchPattern, offset: 0, limit: 10)
      }
      commitReferences(commitSha: $commitSha) {
        containingBranches(excludeTipped: true, limit: 10) { names }
        containingTags(excludeTipped: false, limit: 10) { names }
        tippingBranches(limit: 10) { names }
        tippingTags(limit: 10) { names }
      }
    }
  }
`;

interface RestProject {
  id: number;
  name_with_namespace: string;
  visibility: string;
  description: string | null;
  default_branch: string;
  web_url: string;
  permissions?: { project_access: { access_level: number } | null; group_access: { access_level: number } | null };
  statistics?: { storage_size: number; repository_size: number; commit_count: number; job_artifacts_size: number };
}
interface RestMember {
  id: number;
  username: string;
  access_level: number;
}
interface RestCommit {
  id: string;
  short_id: string;
  title: string;
  message: string;
  web_url: string;
  author_email: string;
}

const LEVEL_NAMES: Record<number, string> = { 10: 'GUEST', 20: 'REPORTER', 30: 'DEVELOPER', 40: 'MAINTAINER', 50: 'OWNER' };

describe("GitLab's frontend documents for projects, groups and commits", () => {
  it.each([
    ['project page', PROJECT_PAGE],
    ['project members', PROJECT_MEMBERS],
    ['group page', GROUP_PAGE],
    ['commit page', COMMIT_PAGE],
  ])('the %s document validates against the schema', (_name, document) => {
    expect(validate(schema, parse(document))).toEqual([]);
  });

  it("cuts a commit's description as GitLab's Commit#description does", () => {
    expect(commitDescription('One line')).toBeNull();
    expect(commitDescription('Title\n\nBody text\n')).toBe('\nBody text');
    const long = `${'x'.repeat(100)}\nrest`;
    expect(commitDescription(long)).toBe(long);
    expect(gravatarUrl(' Jane@Example.com ')).toBe('https://www.gravatar.com/avatar/9e26471d35a78862c17e467d87cddedf?s=80&d=identicon');
  });

  it.each([
    ['*fix*', 'fix'],
    ['fix*', '^fix'],
    ['*fix', 'fix$'],
    ['main', '^main$'],
    ['*', undefined],
  ])('reads the branch pattern %s as the REST search %s', (pattern, search) => {
    expect(branchSearch(pattern)).toBe(search);
  });

  describe('over real HTTP', () => {
    const harness = gatewayOverSimulator({ limits: { maxRestCalls: 250_000 } });

    it.each([
      ['admin', admin],
      ['maintainer', maintainer],
      ['developer', developer],
      ['guest', guest],
      ['outsider', outsider],
      ['anonymous', undefined],
    ])('a project page for the %s: names, visibility and the permissions of their access level', async (_who, token) => {
      const result = await harness.gateway.query<{ project: Record<string, unknown> & { userPermissions: Record<string, boolean>; statistics: Record<string, number> | null } }>(PROJECT_PAGE, { fullPath: PROJECT }, token);
      expect(result.errors).toBeUndefined();
      const rest = await harness.oracle.get<RestProject>(`/projects/${encodeURIComponent(PROJECT)}?statistics=true`, token);
      const me = token ? await harness.oracle.get<{ is_admin?: boolean }>('/user', token) : null;
      const level = me?.is_admin ? 50 : Math.max(rest.permissions?.project_access?.access_level ?? 0, rest.permissions?.group_access?.access_level ?? 0);
      const project = result.data!.project;
      expect(project['visibility']).toBe(rest.visibility);
      expect(project['nameWithNamespace']).toBe(rest.name_with_namespace);
      // REST renders markdown for signed-in callers only: anonymous ones get null.
      expect(project['descriptionHtml']).toBe(
        rest.description && token ? (await harness.oracle.call<{ html: string }>('POST', `/markdown?gfm=true&project=${encodeURIComponent(PROJECT)}&text=${encodeURIComponent(rest.description)}`, token)).body.html : null,
      );
      expect(project.userPermissions).toEqual({
        readProject: true,
        createIssue: level >= 10,
        downloadCode: level >= 20 || rest.visibility === 'public' || (rest.visibility === 'internal' && token !== undefined),
        pushCode: level >= 30,
        // GitLab's create_merge_request_in: guest access and download_code, which any signed-in caller has in a public project.
        createMergeRequestIn: token !== undefined && rest.visibility === 'public',
        createMergeRequestFrom: level >= 30,
        adminProject: level >= 40,
        archiveProject: level >= 50,
        removeProject: level >= 50,
      });
      expect(project.statistics).toEqual(
        rest.statistics
          ? { storageSize: rest.statistics.storage_size, repositorySize: rest.statistics.repository_size, commitCount: rest.statistics.commit_count, buildArtifactsSize: rest.statistics.job_artifacts_size }
          : null,
      );
    });

    it.each([
      [['DIRECT'], 'members'],
      [['DIRECT', 'INHERITED'], 'members/all'],
    ])('lists project members for relations %j from REST /%s', async (relations, restList) => {
      const result = await harness.gateway.query<{ project: { projectMembers: { nodes: Array<{ id: string; user: { username: string }; accessLevel: { integerValue: number; stringValue: string } }> } } }>(
        PROJECT_MEMBERS,
        { fullPath: PROJECT, relations },
        maintainer,
      );
      expect(result.errors).toBeUndefined();
      const rest = await harness.oracle.all<RestMember>(`/projects/${encodeURIComponent(PROJECT)}/${restList}`, maintainer);
      const { id: projectId } = await harness.oracle.get<RestProject>(`/projects/${encodeURIComponent(PROJECT)}`, maintainer);
      expect(result.data!.project.projectMembers.nodes).toEqual(
        rest.map((member) => ({
          id: `gid://gitlab/ProjectMember/${projectId}-${member.id}`,
          user: { id: `gid://gitlab/User/${member.id}`, username: member.username },
          accessLevel: { integerValue: member.access_level, stringValue: LEVEL_NAMES[member.access_level] },
          project: { id: `gid://gitlab/Project/${projectId}` },
        })),
      );
    });

    it('refuses member relations REST has no list for, before any REST call', async () => {
      harness.simulator.resetRequests();
      const result = await harness.gateway.query(PROJECT_MEMBERS, { fullPath: PROJECT, relations: ['INHERITED'] }, maintainer);
      expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
      expect(restCalls(harness.simulator).filter((call) => call.includes('/members'))).toEqual([]);
    });

    it.each([
      ['maintainer', maintainer],
      ['developer', developer],
      ['guest', guest],
    ])('a group page for the %s: members, direct subgroups and permissions', async (_who, token) => {
      const result = await harness.gateway.query<{
        group: {
          visibility: string;
          userPermissions: { readGroup: boolean; createProjects: boolean; createCustomEmoji: boolean };
          groupMembers: { nodes: Array<{ user: { username: string }; accessLevel: { integerValue: number } }> };
          descendantGroups: { nodes: Array<{ fullPath: string }> };
        };
      }>(GROUP_PAGE, { fullPath: GROUP }, token);
      expect(result.errors).toBeUndefined();
      const group = await harness.oracle.get<{ id: number; visibility: string; project_creation_level: string }>(`/groups/${GROUP}`, token);
      const me = await harness.oracle.get<{ id: number }>('/user', token);
      const membership = await harness.oracle.call<{ access_level: number }>('GET', `/groups/${group.id}/members/all/${me.id}`, token);
      const level = membership.status === 200 ? membership.body.access_level : 0;
      const minimum = group.project_creation_level === 'maintainer' ? 40 : 30;
      expect(result.data!.group.visibility).toBe(group.visibility);
      expect(result.data!.group.userPermissions).toEqual({
        readGroup: true,
        createProjects: group.project_creation_level !== 'noone' && level >= minimum,
        createCustomEmoji: level >= 30,
      });
      const members = await harness.oracle.all<RestMember>(`/groups/${GROUP}/members/all`, token);
      expect(result.data!.group.groupMembers.nodes.map((node) => [node.user.username, node.accessLevel.integerValue])).toEqual(members.map((member) => [member.username, member.access_level]));
      const subgroups = await harness.oracle.all<{ full_path: string }>(`/groups/${GROUP}/subgroups`, token);
      expect(result.data!.group.descendantGroups.nodes.map((node) => node.fullPath)).toEqual(subgroups.map((subgroup) => subgroup.full_path));
    });

    it("a commit page: the tree's last commit, branch names and the refs of the commit", async () => {
      const project = await harness.oracle.get<RestProject>(`/projects/${encodeURIComponent(PROJECT)}`, developer);
      const [last] = await harness.oracle.get<RestCommit[]>(`/projects/${project.id}/repository/commits?ref_name=${project.default_branch}&per_page=1`, developer);
      harness.simulator.resetRequests();
      const result = await harness.gateway.query<{
        project: {
          repository: { tree: { lastCommit: Record<string, unknown> }; branchNames: string[] };
          commitReferences: Record<string, { names: string[] }>;
        };
      }>(COMMIT_PAGE, { projectPath: PROJECT, path: '', ref: project.default_branch, searchPattern: '*', commitSha: last!.id }, developer);
      expect(result.errors).toBeUndefined();
      const commit = result.data!.project.repository.tree.lastCommit;
      expect(commit['sha']).toBe(last!.id);
      expect(commit['shortId']).toBe(last!.short_id);
      expect(commit['webUrl']).toBe(last!.web_url);
      expect(commit['webPath']).toBe(new URL(last!.web_url).pathname);
      expect(commit['description']).toBe(commitDescription(last!.message));
      expect(commit['authorGravatar']).toBe(gravatarUrl(last!.author_email));
      expect(typeof commit['titleHtml']).toBe('string');

      const branches = await harness.oracle.all<{ name: string; commit: { id: string } }>(`/projects/${project.id}/repository/branches`, developer);
      const tags = await harness.oracle.all<{ name: string; commit: { id: string } }>(`/projects/${project.id}/repository/tags`, developer);
      const containing = await harness.oracle.all<{ type: string; name: string }>(`/projects/${project.id}/repository/commits/${last!.id}/refs?type=all`, developer);
      const tipping = branches.filter((branch) => branch.commit.id === last!.id).map((branch) => branch.name);
      expect(result.data!.project.repository.branchNames).toEqual(branches.map((branch) => branch.name).slice(0, 10));
      expect(result.data!.project.commitReferences).toEqual({
        containingBranches: { names: containing.filter((ref) => ref.type === 'branch' && !tipping.includes(ref.name)).map((ref) => ref.name).slice(0, 10) },
        containingTags: { names: containing.filter((ref) => ref.type === 'tag').map((ref) => ref.name).slice(0, 10) },
        tippingBranches: { names: tipping.slice(0, 10) },
        tippingTags: { names: tags.filter((tag) => tag.commit.id === last!.id).map((tag) => tag.name).slice(0, 10) },
      });
    });

    it('asks REST to render nothing for an anonymous caller, since its Markdown API needs a sign-in', async () => {
      const result = await harness.gateway.query<{ project: { descriptionHtml: string | null } }>(PROJECT_PAGE, { fullPath: PROJECT });
      expect(result.errors).toBeUndefined();
      expect(result.data!.project.descriptionHtml).toBeNull();
      expect(restCalls(harness.simulator).filter((call) => call.includes('/markdown'))).toEqual([]);
    });

    it('renders a description once per distinct text, however many fields ask', async () => {
      harness.simulator.resetRequests();
      const result = await harness.gateway.query(`query twice($fullPath: ID!) { a: project(fullPath: $fullPath) { descriptionHtml } b: project(fullPath: $fullPath) { descriptionHtml } }`, { fullPath: PROJECT }, developer);
      expect(result.errors).toBeUndefined();
      expect(restCalls(harness.simulator).filter((call) => call === 'POST /markdown')).toHaveLength(1);
    });
  });
});
