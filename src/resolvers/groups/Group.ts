import type { FieldNode } from 'graphql';
import type { GroupResolvers, SharedWithGroupResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { restConnection, type PageFetcher } from '../../connections/connection.js';
import type { ConnectionArgs } from '../../connections/window.js';
import { embedded, restList } from '../../cost/field-cost.js';
import { GROUP_LOADED, GROUP_OF_SHARE, GROUP_RECORD, ID_ONLY, PROJECT_IN_GROUP_DETAIL, PROJECT_LOADED, USER_SUMMARY } from '../../cost/shapes.js';
import { declared } from '../../fields/declaration.js';
import type { GatewayContext } from '../../server/context.js';
import type { GroupListFilters, GroupProjectFilters, GroupSchema } from '../../datasources/groups.js';
import type { Page } from '../../datasources/pagination.js';
import type { ProjectSchema } from '../../datasources/projects.js';
import { FULL_RECORD_LOADERS } from '../full-records.js';
import { toGlobalId } from '../global-id.js';
import { invitationConnection, invitationList } from '../invitations/connection.js';
import { listField, type ParentList } from '../lookahead.js';
import { nullWhenNotFound } from '../lookups.js';
import { projectIds, projectListOrIds, projectsByIds, refuseFiltersBesideIds } from '../projects/project-list.js';
import { shortRecordSuffices } from '../projects/simple-record.js';
import { readRecordField } from '../record-fields.js';
import { runnerList, runnerListFilters, runnerListOrder } from '../runners/filters.js';
import { withRunnerPagesUnder } from '../runners/page-urls.js';
import { groupListFilters, groupProjectFilters, type GroupListArgs, type GroupProjectArgs } from './filters.js';
import { groupBoolean } from './lenient-boolean.js';
import { memberConnection } from './members.js';
import { groupAbilities } from './permissions.js';
import { renderMarkdown } from '../projects/markdown.js';

/** rest-v4-api.md "Limits": projects embedded in a group's detail. */
const MAX_EMBEDDED_PROJECTS = 100;

const readGroupField = (group: GroupSchema, key: string, context: GatewayContext) =>
  readRecordField(group, key, context, FULL_RECORD_LOADERS['Group']);

/** The REST filters of a project list; the short record (`simple=true`) when the selection allows it. */
function projectListFilters(args: GroupProjectArgs, fieldNodes: ReadonlyArray<FieldNode>): GroupProjectFilters {
  return { ...groupProjectFilters(args), ...(shortRecordSuffices({ fieldNodes }) ? { simple: true } : {}) };
}

/**
 * A project list of a group. Full records prime the project loader, so a project reached again
 * elsewhere in the query costs nothing; short records (`simple=true`, when the selection allows it)
 * never do, since they lack most fields.
 */
function projectList(args: ConnectionArgs, filters: GroupProjectFilters, context: GatewayContext, pages: PageFetcher<ProjectSchema>) {
  return restConnection(args, async (page) => {
    const result = await pages(page);
    if (!filters.simple) for (const project of result.items) context.loaders.project.prime(project);
    return result;
  });
}

// The group's lists that REST addresses by its id or full path alike, so `group(fullPath:)` can send
// them alongside the group's record (lookahead.ts). Not `runners`: `GET /groups/:id/runners` takes
// the integer id only (rest-v4-api.md "Runners").
const subgroupList: ParentList<GroupListArgs, GroupListFilters, GroupSchema> = {
  filters: (args) => groupListFilters(args),
  page: (api, group, filters, page) => api.groups.subgroups(group, filters, page),
};
/** `includeParentDescendants: false` lists the direct subgroups only, as GitLab's GroupsFinder does. */
type DescendantFilters = GroupListFilters & { childrenOnly: boolean };
const descendantGroupList: ParentList<GroupListArgs & { includeParentDescendants?: boolean | null }, DescendantFilters, GroupSchema> = {
  filters: (args) => ({ ...groupListFilters(args), childrenOnly: args.includeParentDescendants === false }),
  page: (api, group, { childrenOnly, ...filters }, page) => (childrenOnly ? api.groups.subgroups(group, filters, page) : api.groups.descendants(group, filters, page)),
};
/** A group's project list; `ids` names projects REST's list cannot filter by, read one by one instead. */
type GroupProjectListFilters = GroupProjectFilters & { ids?: number[] };
const NO_PROJECTS: Page<ProjectSchema> = { items: [], page: 1, perPage: 0, hasNextPage: false, total: 0 };
const projectsList: ParentList<GroupProjectArgs & { ids?: ReadonlyArray<string> | null }, GroupProjectListFilters, ProjectSchema> = {
  filters: (args, fieldNodes) => {
    const ids = projectIds(args.ids);
    if (ids === null) return projectListFilters(args, fieldNodes);
    refuseFiltersBesideIds(args, ['includeSubgroups']);
    return { ids, includeSubgroups: args.includeSubgroups === true };
  },
  // With `ids` the list is never asked (the lookahead's early page included): no REST call.
  page: (api, group, { ids, ...filters }, page) => (ids ? Promise.resolve(NO_PROJECTS) : api.groups.projects(group, filters, page)),
};

/** Whether a project lives in the group, or with `includeSubgroups` anywhere below it. */
function inGroup(project: ProjectSchema, groupPath: string, includeSubgroups: boolean): boolean {
  const namespace = project.namespace?.full_path?.toLowerCase();
  const path = groupPath.toLowerCase();
  return namespace === path || (includeSubgroups && namespace?.startsWith(`${path}/`) === true);
}
const sharedProjectsList: ParentList<GroupProjectArgs, GroupProjectFilters, ProjectSchema> = {
  filters: projectListFilters,
  page: (api, group, filters, page) => api.groups.sharedProjects(group, filters, page),
};

export const Group: GroupResolvers = {
  id: (group) => toGlobalId('Group', group.id),
  // POST /markdown of the description.
  descriptionHtml: declared(
    { reads: ['description'], calls: 1, rest: ['GET /groups/:id', 'POST /markdown'] },
    async (group, _args, context) => renderMarkdown(context, (await readGroupField(group, 'description', context)) as string | null),
  ),
  // GET /user once per request, and the caller's membership (GET /groups/:id/members/all/:user_id).
  userPermissions: declared(
    { reads: ['project_creation_level'], calls: 2, rest: ['GET /user', 'GET /groups/:id', 'GET /groups/:id/members/all/:user_id'] },
    (group, _args, context) => groupAbilities(group, context),
  ),
  groupMembers: declared(
    { ...restList(USER_SUMMARY), rest: ['GET /groups/:id/members', 'GET /groups/:id/members/all'] },
    (group, args, context) => memberConnection({ kind: 'group', id: group.id }, args, context),
  ),
  fullPath: declared({ reads: ['full_path'], rest: ['GET /groups/:id'] }, async (group, _args, context) => (await readGroupField(group, 'full_path', context)) as string),
  shareWithGroupLock: groupBoolean('share_with_group_lock'),
  requireTwoFactorAuthentication: groupBoolean('require_two_factor_authentication'),
  autoDevopsEnabled: groupBoolean('auto_devops_enabled'),
  emailsDisabled: groupBoolean('emails_disabled'),
  mentionsDisabled: groupBoolean('mentions_disabled'),
  lfsEnabled: groupBoolean('lfs_enabled'),
  requestAccessEnabled: groupBoolean('request_access_enabled'),
  membershipLock: groupBoolean('membership_lock'),
  preventForkingOutsideGroup: groupBoolean('prevent_forking_outside_group'),
  // `parent_id`, then the group loader.
  parent: declared({ reads: ['parent_id'], calls: 1, returns: GROUP_LOADED, rest: ['GET /groups/:id'] }, async (group, _args, context) => {
    const parentId = await readGroupField(group, 'parent_id', context);
    // REST sends an integer or null; the documentation's "nil" strings (list-shared-groups.json) are no id.
    return typeof parentId === 'number' ? nullWhenNotFound(context.loaders.group.load(parentId)) : null;
  }),
  // Built from `file_template_project_id` alone.
  fileTemplateProject: declared(
    { reads: ['file_template_project_id'], returns: ID_ONLY, rest: ['GET /groups/:id'] },
    async (group, _args, context) => {
      const projectId = await readGroupField(group, 'file_template_project_id', context);
      // Only the id is known; any other field of the project is fetched when asked for.
      return typeof projectId === 'number' ? { id: projectId } : null;
    },
  ),
  // Only list records asked with statistics=true carry them; GET /groups/:id never does, so no fetch.
  statistics: (group) => group.statistics ?? null,
  // The group detail `?with_custom_attributes=true`, unless a list record carries them.
  customAttributes: declared({ calls: 1, unlessParentHas: 'custom_attributes', rest: ['GET /groups/:id'] }, async (group, _args, { loaders }) => {
    if (group.custom_attributes) return group.custom_attributes;
    return (await loaders.groupWithCustomAttributes.load(group.id)).custom_attributes ?? null;
  }),
  // Both read the group detail `?with_projects=true`, one loader for the two.
  embeddedProjects: declared(
    { reads: ['projects'], loader: 'groupWithProjects', items: MAX_EMBEDDED_PROJECTS, returns: PROJECT_IN_GROUP_DETAIL, rest: ['GET /groups/:id'] },
    async (group, _args, { loaders }) => group.projects ?? (await loaders.groupWithProjects.load(group.id)).projects ?? null,
  ),
  embeddedSharedProjects: declared(
    { reads: ['shared_projects'], loader: 'groupWithProjects', items: MAX_EMBEDDED_PROJECTS, returns: PROJECT_IN_GROUP_DETAIL, rest: ['GET /groups/:id'] },
    async (group, _args, { loaders }) => group.shared_projects ?? (await loaders.groupWithProjects.load(group.id)).shared_projects ?? null,
  ),
  subgroups: declared({ ...restList(GROUP_RECORD), rest: ['GET /groups/:id/subgroups'] }, listField(subgroupList, (pages, args) => restConnection(args, pages))),
  descendantGroups: declared(
    { ...restList(GROUP_RECORD), rest: ['GET /groups/:id/descendant_groups', 'GET /groups/:id/subgroups'] },
    listField(descendantGroupList, (pages, args) => restConnection(args, pages)),
  ),
  // With `ids`, one GET /projects/:id each (and the group's `full_path` to keep those inside it).
  projects: declared(
    { ...projectListOrIds(PROJECT_LOADED), rest: ['GET /groups/:id/projects', 'GET /projects/:id', 'GET /groups/:id'] },
    listField(projectsList, async (pages, args, filters, group, context) => {
      if (!filters.ids) return projectList(args, filters, context, pages);
      const groupPath = (await readGroupField(group, 'full_path', context)) as string;
      return projectsByIds(args, filters.ids, context, (project) => inGroup(project, groupPath, filters.includeSubgroups === true));
    }),
  ),
  sharedProjects: declared(
    { ...restList(PROJECT_LOADED), rest: ['GET /groups/:id/projects/shared'] },
    listField(sharedProjectsList, (pages, args, filters, _group, context) => projectList(args, filters, context, pages)),
  ),
  runners: declared({ ...runnerList, rest: ['GET /groups/:id/runners'] }, (group, args, { api }) => {
    const filters = runnerListFilters(args);
    return withRunnerPagesUnder(group.web_url, restConnection(args, (page) => api.runners.forGroup(group.id, filters, page), runnerListOrder(args)));
  }),
  invitations: declared(
    { ...restList(), rest: ['GET /groups/:id/invitations'] },
    listField(invitationList('group'), (pages, args, _filters, group: GroupSchema) => invitationConnection(args, { kind: 'group', idOrPath: group.id }, pages)),
  ),
};

export const SharedWithGroup: SharedWithGroupResolvers = {
  // The share names the group; any field beyond these is fetched through the group loader.
  group: declared(embedded(GROUP_OF_SHARE), (share) => {
    const group: GroupSchema = { id: share.group_id };
    if (share.group_name !== undefined) group.name = share.group_name;
    if (share.group_full_path !== undefined) group.full_path = share.group_full_path;
    return group;
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Group, SharedWithGroup };
