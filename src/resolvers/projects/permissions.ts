import type { ProjectPermissionsResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import type { ProjectFeatureAccessLevel, ProjectSchema } from '../../datasources/projects.js';
import type { ProjectAbilities } from '../../records/projects.js';
import type { GatewayContext } from '../../server/context.js';
import { FULL_RECORD_LOADERS } from '../full-records.js';
import { callerOf, type Caller } from '../caller.js';

/** GitLab's access levels (Gitlab::Access). */
const GUEST = 10;
const REPORTER = 20;
const DEVELOPER = 30;
const MAINTAINER = 40;
const OWNER = 50;

/** The record with the caller's `permissions`: as given, or its own `GET /projects/:id`, once per request. */
function withPermissions(project: ProjectSchema, context: GatewayContext): Promise<ProjectSchema> {
  return 'permissions' in project ? Promise.resolve(project) : context.loaders.projectWithPermissions.load(project.id);
}

/**
 * GitLab's `maxAccessLevel`: the caller's highest membership role (`max_member_access_for_project`),
 * read from REST's `permissions`. Anonymous callers have none; an administrator who is no member has
 * none either, since GitLab counts memberships here, not the administrator's reach.
 */
export async function callerMaxAccessLevel(project: ProjectSchema, context: GatewayContext): Promise<number> {
  if (!context.credential) return 0;
  const { permissions } = await withPermissions(project, context);
  return Math.max(permissions?.project_access?.access_level ?? 0, permissions?.group_access?.access_level ?? 0);
}

export async function projectAbilities(project: ProjectSchema, context: GatewayContext, known?: Caller | null): Promise<ProjectAbilities> {
  // A caller already read is passed in: without batching, the loader would not share `GET /user`.
  const caller = known === undefined ? await callerOf(context) : known;
  // Anonymous callers have no `permissions` anywhere; the record only needs its visibility and features.
  const full = caller ? await withPermissions(project, context) : ((await FULL_RECORD_LOADERS['Project']!(project, context)) as ProjectSchema);
  const access = Math.max(full.permissions?.project_access?.access_level ?? 0, full.permissions?.group_access?.access_level ?? 0);
  return { level: caller?.isAdmin ? OWNER : access, signedIn: caller !== null, external: caller?.isExternal === true, project: full };
}

/** A feature is on for members unless it is `disabled`; `private` keeps it from non-members. */
function featureOn(level: ProjectFeatureAccessLevel | undefined, enabledFlag: boolean | undefined): boolean {
  if (level !== undefined) return level !== 'disabled';
  return enabledFlag !== false;
}

/** Non-members may use a feature of a public project, or of an internal one when signed in, unless it is private. */
function openToNonMembers(abilities: ProjectAbilities, level: ProjectFeatureAccessLevel | undefined): boolean {
  const { visibility } = abilities.project;
  const visible = visibility === 'public' || (visibility === 'internal' && abilities.signedIn);
  return visible && level !== 'private' && level !== 'disabled';
}

/**
 * GitLab's ProjectFeature#feature_available? for the caller: a `private` feature is available to
 * members of at least `privateMinimum` (administrators count as Owners), an `enabled` or `public`
 * one to everyone who sees the project, a `disabled` one to nobody. A record that does not say
 * counts as `enabled`, the default of every feature.
 */
function featureAvailable(abilities: ProjectAbilities, level: ProjectFeatureAccessLevel | undefined, privateMinimum: number): boolean {
  if (level === 'disabled') return false;
  if (level === 'private') return abilities.level >= privateMinimum;
  return true;
}

/**
 * GitLab's `public_user_access`: a signed-in caller of a public project, or of an internal one
 * unless external. It grants non-members guest access and, with it, forking.
 */
function publicUserAccess(abilities: ProjectAbilities): boolean {
  const { visibility } = abilities.project;
  return abilities.signedIn && (visibility === 'public' || (visibility === 'internal' && !abilities.external));
}

/**
 * GitLab's ProjectPolicy `fork_project`: `(public_user_access | reporter_access) & forking_allowed`,
 * prevented by `repository_disabled`. A private repository is the members' from Guest on, or from
 * Reporter on in a private project (PRIVATE_FEATURES_MIN_ACCESS_LEVEL_FOR_PRIVATE_PROJECT).
 */
export function mayForkProject(abilities: ProjectAbilities): boolean {
  const { project } = abilities;
  const forkingAllowed = featureAvailable(abilities, project.forking_access_level, GUEST);
  const repositoryMinimum = project.visibility === 'private' ? REPORTER : GUEST;
  const repositoryAllowed = featureAvailable(abilities, project.repository_access_level, repositoryMinimum);
  return (publicUserAccess(abilities) || abilities.level >= REPORTER) && forkingAllowed && repositoryAllowed;
}

const atLeast = (minimum: number) => (abilities: ProjectAbilities) => abilities.level >= minimum;

const issuesOn = (a: ProjectAbilities) => featureOn(a.project.issues_access_level, a.project.issues_enabled);
const wikiOn = (a: ProjectAbilities) => featureOn(a.project.wiki_access_level, a.project.wiki_enabled);
const repositoryOn = (a: ProjectAbilities) => featureOn(a.project.repository_access_level, true);
const mergeRequestsOn = (a: ProjectAbilities) => featureOn(a.project.merge_requests_access_level, a.project.merge_requests_enabled) && repositoryOn(a);
const buildsOn = (a: ProjectAbilities) => featureOn(a.project.builds_access_level, a.project.jobs_enabled);
const snippetsOn = (a: ProjectAbilities) => featureOn(a.project.snippets_access_level, a.project.snippets_enabled);
const owner = atLeast(OWNER);

/** GitLab's ProjectPolicy `push_code`: Developers and above, with the repository on, in a project that is not archived. */
export function mayPushCode(abilities: ProjectAbilities): boolean {
  return abilities.level >= DEVELOPER && repositoryOn(abilities) && abilities.project.archived !== true;
}

/** GitLab's `create_merge_request_in`, which REST answers itself for the caller (`can_create_merge_request_in`). */
export function mayCreateMergeRequestIn(abilities: ProjectAbilities): boolean {
  return abilities.project.can_create_merge_request_in === true;
}

/** GitLab's ProjectPolicy, for the abilities REST gives a source for. */
export const ProjectPermissions: ProjectPermissionsResolvers = {
  // The project was fetched for the caller, so they may read it.
  readProject: () => true,
  createIssue: (a) => a.level >= GUEST && issuesOn(a),
  uploadFile: atLeast(GUEST),
  readWiki: (a) => wikiOn(a) && (a.level >= GUEST || openToNonMembers(a, a.project.wiki_access_level)),
  downloadCode: (a) => repositoryOn(a) && (a.level >= REPORTER || openToNonMembers(a, a.project.repository_access_level)),
  createSnippet: (a) => a.level >= REPORTER && snippetsOn(a),
  pushCode: mayPushCode,
  createMergeRequestIn: mayCreateMergeRequestIn,
  forkProject: mayForkProject,
  createMergeRequestFrom: (a) => a.level >= DEVELOPER && mergeRequestsOn(a) && a.project.archived !== true,
  createWiki: (a) => a.level >= DEVELOPER && wikiOn(a) && a.project.archived !== true,
  updateWiki: (a) => a.level >= DEVELOPER && wikiOn(a) && a.project.archived !== true,
  createPipeline: (a) => a.level >= DEVELOPER && buildsOn(a) && a.project.archived !== true,
  adminProject: atLeast(MAINTAINER),
  // `rule { can?(:admin_project) }.enable :view_edit_page`.
  viewEditPage: atLeast(MAINTAINER),
  adminWiki: (a) => a.level >= MAINTAINER && wikiOn(a),
  pushToDeleteProtectedBranch: (a) => a.level >= MAINTAINER && a.project.archived !== true,
  renameProject: owner,
  changeNamespace: owner,
  changeVisibilityLevel: owner,
  archiveProject: owner,
  removeProject: owner,
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { ProjectPermissions };
