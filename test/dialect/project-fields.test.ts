import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import type { ProjectFeatureAccessLevel, ProjectSchema } from '../../src/datasources/projects.js';
import type { ProjectAbilities } from '../../src/records/projects.js';
import { ProjectFeatureAccess } from '../../src/resolvers/projects/feature-access.js';
import { mayForkProject } from '../../src/resolvers/projects/permissions.js';
import { buildSchemaFromFiles } from '../../src/schema/sdl.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const schema = buildSchemaFromFiles();
const { admin, maintainer, developer, guest, outsider } = DEMO_TOKENS;

/** The repository page's permissions, as GitLab's frontend asks for them. */
const REPOSITORY_PERMISSIONS = /* GraphQL */ `
  query Permissions($projectPath: ID!) {
    project(fullPath: $projectPath) {
      userPermissions {
        pushCode
        forkProject
        createMergeRequestIn
      }
    }
  }
`;

const PROJECT_INFO = /* GraphQL */ `
  fragment ProjectInfoPermissions on ProjectPermissions {
    pushCode
    downloadCode
    createMergeRequestIn
    forkProject
  }
  query getProjectInfo($projectPath: ID!) {
    project(fullPath: $projectPath) {
      id
      userPermissions {
        ...ProjectInfoPermissions
      }
    }
  }
`;

/** A project list row's feature levels, as GitLab's project fragments select them. */
const PROJECT_FEATURES = /* GraphQL */ `
  fragment ProjectFeatures on Project {
    issuesAccessLevel {
      integerValue
      stringValue
    }
    repositoryAccessLevel {
      integerValue
      stringValue
    }
    mergeRequestsAccessLevel {
      integerValue
      stringValue
    }
    forkingAccessLevel {
      integerValue
      stringValue
    }
    wikiAccessLevel {
      integerValue
      stringValue
    }
    buildsAccessLevel {
      integerValue
      stringValue
    }
    snippetsAccessLevel {
      integerValue
      stringValue
    }
    pagesAccessLevel {
      integerValue
      stringValue
    }
  }
  query getProjectFeatures($projectPath: ID!) {
    project(fullPath: $projectPath) {
      id
      ...ProjectFeatures
    }
  }
`;

/** A row of a project list, as GitLab's organization and explore pages ask for one. */
const PROJECT_LIST_ROWS = /* GraphQL */ `
  fragment ProjectListRow on Project {
    id
    fullPath
    editPath
    openMergeRequestsCount
    openIssuesCount
    mergeRequestsAccessLevel {
      stringValue
    }
    maxAccessLevel {
      integerValue
      stringValue
    }
    userPermissions {
      removeProject
      viewEditPage
    }
  }
  query getProjectListRows($first: Int, $membership: Boolean) {
    projects(first: $first, membership: $membership) {
      nodes {
        ...ProjectListRow
      }
    }
  }
`;

const PROJECT_ROW_TWICE = /* GraphQL */ `
  query getProjectRowTwice($projectPath: ID!) {
    project(fullPath: $projectPath) {
      openMergeRequestsCount
      maxAccessLevel {
        integerValue
      }
    }
    again: project(fullPath: $projectPath) {
      openMergeRequestsCount
      maxAccessLevel {
        integerValue
      }
    }
  }
`;

/** The "your work" project tabs, as GitLab's frontend filters them. */
const YOUR_WORK_PROJECTS = /* GraphQL */ `
  query getYourWorkProjects($archived: ProjectArchived, $membership: Boolean, $personal: Boolean, $minAccessLevel: AccessLevelEnum, $first: Int) {
    projects(archived: $archived, membership: $membership, personal: $personal, minAccessLevel: $minAccessLevel, first: $first) {
      count
      nodes {
        id
        fullPath
        archived
      }
    }
  }
`;

const FEATURES = ['issues', 'repository', 'merge_requests', 'forking', 'wiki', 'builds', 'snippets', 'pages'] as const;
const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
const INTEGER: Readonly<Record<ProjectFeatureAccessLevel, number>> = { disabled: 0, private: 10, enabled: 20, public: 30 };

type Visibility = 'public' | 'internal' | 'private';

interface RestProject {
  id: number;
  visibility: Visibility;
  merge_requests_access_level: ProjectFeatureAccessLevel;
  can_create_merge_request_in?: boolean;
  permissions?: { project_access: { access_level: number } | null; group_access: { access_level: number } | null };
}

const abilities = (
  visibility: Visibility,
  level: number,
  features: { forking?: ProjectFeatureAccessLevel; repository?: ProjectFeatureAccessLevel } = {},
  caller: { signedIn?: boolean; external?: boolean } = {},
): ProjectAbilities => {
  const project: ProjectSchema = { id: 1, visibility };
  if (features.forking) project.forking_access_level = features.forking;
  if (features.repository) project.repository_access_level = features.repository;
  return { level, signedIn: caller.signedIn ?? true, external: caller.external ?? false, project };
};

const [NONE, GUEST, REPORTER, DEVELOPER, OWNER] = [0, 10, 20, 30, 50];

describe("a project's fork and merge request permissions in GitLab's dialect", () => {
  it.each([
    ['repository permissions', REPOSITORY_PERMISSIONS],
    ['project info', PROJECT_INFO],
    ['project features', PROJECT_FEATURES],
    ['project list rows', PROJECT_LIST_ROWS],
    ['project row twice', PROJECT_ROW_TWICE],
    ['your work projects', YOUR_WORK_PROJECTS],
  ])('the %s document validates against the schema', (_name, document) => {
    expect(validate(schema, parse(document))).toEqual([]);
  });

  // GitLab's ProjectPolicy: (public_user_access | reporter_access) & forking_allowed, prevented by
  // repository_disabled; each row changes one condition.
  it.each([
    ['an anonymous caller of a public project', abilities('public', NONE, {}, { signedIn: false }), false],
    ['a signed-in non-member of a public project', abilities('public', NONE), true],
    ['a signed-in non-member of an internal project', abilities('internal', NONE), true],
    ['an external non-member of an internal project', abilities('internal', NONE, {}, { external: true }), false],
    ['an external Reporter of an internal project', abilities('internal', REPORTER, {}, { external: true }), true],
    ['a Guest of a private project', abilities('private', GUEST), false],
    ['a Reporter of a private project', abilities('private', REPORTER), true],
    ['a Developer of a private project', abilities('private', DEVELOPER), true],
    ['an administrator (an Owner) of a private project', abilities('private', OWNER), true],
    ['a Reporter with forking disabled', abilities('private', REPORTER, { forking: 'disabled' }), false],
    ['a non-member of a public project with forking private', abilities('public', NONE, { forking: 'private' }), false],
    ['a Guest of a public project with forking private', abilities('public', GUEST, { forking: 'private' }), true],
    ['a Reporter with forking enabled', abilities('private', REPORTER, { forking: 'enabled' }), true],
    ['a Reporter with the repository disabled', abilities('public', REPORTER, { repository: 'disabled' }), false],
    ['a non-member of a public project with the repository private', abilities('public', NONE, { repository: 'private' }), false],
    ['a Guest of a public project with the repository private', abilities('public', GUEST, { repository: 'private' }), true],
    ['a Guest of an internal project with the repository private', abilities('internal', GUEST, { repository: 'private' }), true],
    ['a Reporter of a private project with the repository private', abilities('private', REPORTER, { repository: 'private' }), true],
    ['an administrator with the repository private', abilities('private', OWNER, { repository: 'private' }), true],
  ])('forkProject for %s is %s as GitLab decides', (_name, input, expected) => {
    expect(mayForkProject(input)).toBe(expected);
  });

  it.each([
    ['disabled', 0, 'disabled'],
    ['private', 10, 'private'],
    ['enabled', 20, 'enabled'],
    ['public', 30, 'public'],
  ] as const)("reads REST's %s as GitLab's ProjectFeatureAccess %i, by name the enum value of %s", (level, integerValue, stringValue) => {
    const resolve = (field: 'integerValue' | 'stringValue') => (ProjectFeatureAccess[field] as unknown as (parent: ProjectFeatureAccessLevel) => unknown)(level);
    expect([resolve('integerValue'), resolve('stringValue')]).toEqual([integerValue, stringValue]);
  });

  describe('over real HTTP', () => {
    const harness = gatewayOverSimulator();

    const ROLE: Readonly<Record<number, string>> = { 0: 'NO_ACCESS', 10: 'GUEST', 20: 'REPORTER', 30: 'DEVELOPER', 40: 'MAINTAINER', 50: 'OWNER' };

    it.each([
      ['the developer', developer],
      ['an administrator, whose role is their membership only', admin],
    ])("answers %s's project list rows as REST does: the list's records carry the role, and one count of open merge requests per project", async (_who, token) => {
      const result = await harness.gateway.query<{ projects: { nodes: Array<Record<string, unknown>> } }>(PROJECT_LIST_ROWS, { first: 8, membership: token === developer ? true : null }, token);
      expect(result.errors).toBeUndefined();
      const calls = restCalls(harness.simulator);
      const rows = result.data!.projects.nodes;
      expect(rows).toHaveLength(8);
      const me = await harness.oracle.get<{ is_admin?: boolean }>('/user', token);
      const expected = [];
      for (const row of rows) {
        const id = Number(String(row['id']).split('/').pop());
        const rest = await harness.oracle.get<RestProject & { web_url: string; open_issues_count: number }>(`/projects/${id}`, token);
        const mergeRequests = await harness.oracle.call<unknown[]>('GET', `/projects/${id}/merge_requests?state=opened&per_page=1`, token);
        const level = Math.max(rest.permissions?.project_access?.access_level ?? 0, rest.permissions?.group_access?.access_level ?? 0);
        expected.push({
          id: row['id'],
          fullPath: row['fullPath'],
          editPath: `${new URL(rest.web_url).pathname}/edit`,
          openMergeRequestsCount: mergeRequests.status === 200 ? Number(mergeRequests.headers.get('x-total')) : null,
          openIssuesCount: rest.open_issues_count,
          mergeRequestsAccessLevel: { stringValue: rest.merge_requests_access_level.toUpperCase() },
          maxAccessLevel: { integerValue: level, stringValue: ROLE[level] },
          // An administrator has every role's abilities (owner_access), whatever their membership.
          userPermissions: { removeProject: me.is_admin === true || level >= OWNER, viewEditPage: me.is_admin === true || level >= 40 },
        });
        expect(calls.filter((call) => call === `GET /projects/${id}/merge_requests`)).toHaveLength(1);
      }
      expect(rows).toEqual(expected);
      // The list, a count per project, and the caller's own record for the abilities.
      expect(calls).toHaveLength(2 + rows.length);
    });

    it('counts open merge requests and reads the role once per project in a request, and answers null where merge requests are off', async () => {
      const result = await harness.gateway.query<{ project: unknown; again: unknown }>(PROJECT_ROW_TWICE, { projectPath: 'opensource/tools/linter' }, developer);
      expect(result.errors).toBeUndefined();
      const rest = await harness.oracle.get<RestProject>('/projects/26', developer);
      expect(rest.merge_requests_access_level).toBe('disabled');
      const level = Math.max(rest.permissions?.project_access?.access_level ?? 0, rest.permissions?.group_access?.access_level ?? 0);
      expect(result.data!.project).toEqual({ openMergeRequestsCount: null, maxAccessLevel: { integerValue: level } });
      expect(result.data!.again).toEqual(result.data!.project);
      expect(restCalls(harness.simulator).sort()).toEqual(['GET /projects/opensource%2Ftools%2Flinter', 'GET /projects/26/merge_requests'].sort());
    });

    it.each([
      ['only archived projects', { archived: 'ONLY' }, 'archived=true'],
      ['no archived project', { archived: 'EXCLUDE' }, 'archived=false'],
      ['archived projects and the others', { archived: 'INCLUDE' }, ''],
      ['the projects the caller maintains', { minAccessLevel: 'MAINTAINER', membership: true }, 'min_access_level=40&membership=true'],
      ["the caller's archived projects", { archived: 'ONLY', membership: true }, 'archived=true&membership=true'],
    ])('lists %s as REST does, in one REST call', async (_name, variables, restQuery) => {
      const result = await harness.gateway.query<{ projects: { count: number; nodes: Array<{ id: string; fullPath: string; archived: boolean }> } }>(YOUR_WORK_PROJECTS, { ...variables, first: 100 }, maintainer);
      expect(result.errors).toBeUndefined();
      expect(restCalls(harness.simulator)).toEqual(['GET /projects']);
      const rest = await harness.oracle.all<{ id: number; path_with_namespace: string; archived: boolean }>(`/projects?order_by=id&sort=desc&${restQuery}`, maintainer);
      expect(result.data!.projects.nodes).toEqual(rest.map((project) => ({ id: `gid://gitlab/Project/${project.id}`, fullPath: project.path_with_namespace, archived: project.archived })));
      expect(result.data!.projects.count).toBe(rest.length);
    });

    it.each([
      ['the maintainer', maintainer, 'maintainer'],
      ['the developer, who has none', developer, 'developer'],
    ])("lists %s's personal projects from REST's list of the caller's namespace", async (_who, token, username) => {
      const result = await harness.gateway.query<{ projects: { count: number; nodes: Array<{ id: string; fullPath: string; archived: boolean }> } }>(YOUR_WORK_PROJECTS, { personal: true, first: 20 }, token);
      expect(result.errors).toBeUndefined();
      const me = await harness.oracle.get<{ id: number; username: string }>('/user', token);
      expect(me.username).toBe(username);
      expect(restCalls(harness.simulator)).toEqual(['GET /user', `GET /users/${me.id}/projects`]);
      const rest = await harness.oracle.all<{ id: number; path_with_namespace: string; archived: boolean }>(`/users/${me.id}/projects?order_by=id&sort=desc`, token);
      expect(result.data!.projects.nodes).toEqual(rest.map((project) => ({ id: `gid://gitlab/Project/${project.id}`, fullPath: project.path_with_namespace, archived: project.archived })));
      expect(result.data!.projects.count).toBe(rest.length);
    });

    it('lists every project to anonymous callers asking for personal ones, who have none of their own, as GitLab does', async () => {
      const result = await harness.gateway.query<{ projects: { count: number } }>(YOUR_WORK_PROJECTS, { personal: true, first: 1 });
      expect(result.errors).toBeUndefined();
      // The instance list (and the row's full record, since anonymous callers get short ones), no user's list.
      expect(restCalls(harness.simulator).filter((call) => !/^GET \/projects\/\d+$/.test(call))).toEqual(['GET /projects']);
      expect(result.data!.projects.count).toBe((await harness.oracle.all('/projects')).length);
    });

    it('finds the archived project apart from the others', async () => {
      const only = await harness.gateway.query<{ projects: { nodes: Array<{ archived: boolean }> } }>(YOUR_WORK_PROJECTS, { archived: 'ONLY', first: 100 }, maintainer);
      const excluded = await harness.gateway.query<{ projects: { nodes: Array<{ archived: boolean }> } }>(YOUR_WORK_PROJECTS, { archived: 'EXCLUDE', first: 100 }, maintainer);
      expect(only.data!.projects.nodes.length).toBeGreaterThan(0);
      expect(only.data!.projects.nodes.every((project) => project.archived)).toBe(true);
      expect(excluded.data!.projects.nodes.some((project) => project.archived)).toBe(false);
    });

    it('gives anonymous callers no role, without asking REST for one', async () => {
      const result = await harness.gateway.query<{ project: { openMergeRequestsCount: number | null; maxAccessLevel: { integerValue: number } } }>(PROJECT_ROW_TWICE, { projectPath: 'gitlab-org/gitlab' });
      expect(result.errors).toBeUndefined();
      const mergeRequests = await harness.oracle.call<unknown[]>('GET', '/projects/1/merge_requests?state=opened&per_page=1');
      expect(result.data!.project).toEqual({ openMergeRequestsCount: Number(mergeRequests.headers.get('x-total')), maxAccessLevel: { integerValue: 0 } });
      expect(restCalls(harness.simulator).sort()).toEqual(['GET /projects/1/merge_requests', 'GET /projects/gitlab-org%2Fgitlab'].sort());
    });

    it.each(['gitlab-org/gitlab', 'gitlab-org/security-fixes', 'opensource/tools/linter', 'design/brand-assets'])(
      "answers every feature level of %s as GitLab's ProjectFeatureAccess, from the one REST read of the project",
      async (path) => {
        const result = await harness.gateway.query<{ project: Record<string, { integerValue: number; stringValue: string }> }>(PROJECT_FEATURES, { projectPath: path }, admin);
        expect(result.errors).toBeUndefined();
        expect(restCalls(harness.simulator)).toEqual([`GET /projects/${encodeURIComponent(path)}`]);
        const rest = await harness.oracle.get<Record<string, ProjectFeatureAccessLevel>>(`/projects/${encodeURIComponent(path)}`, admin);
        const expected = Object.fromEntries(
          FEATURES.map((feature) => {
            const level = rest[`${feature}_access_level`]!;
            return [`${camel(feature)}AccessLevel`, { integerValue: INTEGER[level], stringValue: level.toUpperCase() }];
          }),
        );
        expect(result.data!.project).toEqual({ id: `gid://gitlab/Project/${String(rest['id'])}`, ...expected });
      },
    );

    const cases = ['gitlab-org/gitlab', 'gitlab-org/omnibus-gitlab', 'gitlab-org/security-fixes', 'opensource/tools/linter'].flatMap((path) =>
      (
        [
          ['admin', admin],
          ['maintainer', maintainer],
          ['developer', developer],
          ['guest', guest],
          ['outsider', outsider],
          ['anonymous', undefined],
        ] as const
      ).map(([who, token]) => [path, who, token] as const),
    );

    it.each(cases)('answers %s for the %s from one REST read of the project and of the caller', async (path, _who, token) => {
      const read = await harness.oracle.call<RestProject>('GET', `/projects/${encodeURIComponent(path)}`, token);
      const result = await harness.gateway.query<{ project: { id: string; userPermissions: Record<string, boolean> } | null }>(PROJECT_INFO, { projectPath: path }, token);
      expect(result.errors).toBeUndefined();
      if (read.status !== 200) {
        // The private project hides from outsiders and anonymous callers, the internal one from anonymous callers.
        const hidden = path === 'gitlab-org/security-fixes' ? token === undefined || token === outsider : path === 'gitlab-org/omnibus-gitlab' && token === undefined;
        expect(hidden).toBe(true);
        expect(result.data!.project).toBeNull();
        return;
      }
      const rest = read.body;
      const me = token ? await harness.oracle.get<{ is_admin?: boolean }>('/user', token) : null;
      const level = me?.is_admin ? OWNER : Math.max(rest.permissions?.project_access?.access_level ?? 0, rest.permissions?.group_access?.access_level ?? 0);
      const signedIn = token !== undefined;
      const nonMemberAccess = signedIn && rest.visibility !== 'private';
      // The demo's forking and repository features are on for everyone who sees a project.
      const downloadCode = level >= REPORTER || rest.visibility === 'public' || (rest.visibility === 'internal' && signedIn);
      expect(result.data!.project!.userPermissions).toEqual({
        pushCode: level >= DEVELOPER,
        downloadCode,
        createMergeRequestIn: rest.can_create_merge_request_in === true,
        forkProject: level >= REPORTER || nonMemberAccess,
      });
      // GitLab's create_merge_request_in, which REST's can_create_merge_request_in answers.
      expect(rest.can_create_merge_request_in === true).toBe(signedIn && (level >= GUEST || nonMemberAccess) && downloadCode && rest.merge_requests_access_level !== 'disabled');
      expect(restCalls(harness.simulator).sort()).toEqual((signedIn ? [`GET /projects/${encodeURIComponent(path)}`, 'GET /user'] : [`GET /projects/${encodeURIComponent(path)}`]).sort());
    });
  });
});
