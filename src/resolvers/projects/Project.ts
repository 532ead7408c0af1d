import type { NamespaceResolvers, ProjectResolvers, ProjectStatisticsResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import type { GroupSchema } from '../../datasources/groups.js';
import { restConnection } from '../../connections/connection.js';
import { embedded, restList } from '../../cost/field-cost.js';
import { GROUP_OF_NAMESPACE, USER_LOADED, USER_SUMMARY } from '../../cost/shapes.js';
import { declared } from '../../fields/declaration.js';
import { FULL_RECORD_LOADERS } from '../full-records.js';
import { toGlobalId } from '../global-id.js';
import { invitationConnection, invitationList } from '../invitations/connection.js';
import { listField, type ParentList } from '../lookahead.js';
import { nullWhenNotFound } from '../lookups.js';
import { readRecordField } from '../record-fields.js';
import { runnerList, runnerListFilters, runnerListOrder, type RunnerFilterArgs } from '../runners/filters.js';
import { withRunnerPagesUnder } from '../runners/page-urls.js';
import type { ProjectSchema } from '../../datasources/projects.js';
import type { RunnerListFilters, RunnerSchema } from '../../datasources/runners.js';
import { memberConnection } from '../groups/members.js';
import { renderMarkdown } from './markdown.js';
import { projectListRowFields } from './list-row.js';
import { projectAbilities } from './permissions.js';
import { recordField } from '../../fields/patterns.js';

/** `GET /projects/:id/runners` takes the id or the full path: a project looked up by path sends it early. */
const projectRunnerList: ParentList<RunnerFilterArgs & Parameters<typeof runnerListOrder>[0], RunnerListFilters, RunnerSchema> = {
  // The order is checked with the filters, before any call (and before the lookahead sends a page).
  filters: (args) => (runnerListOrder(args), runnerListFilters(args)),
  order: runnerListOrder,
  page: (api, project, filters, page) => api.runners.forProject(project, filters, page),
};

export const Project: ProjectResolvers = {
  owner: recordField(embedded(USER_SUMMARY)),
  id: (project) => toGlobalId('Project', project.id),
  ...projectListRowFields,
  // POST /markdown of the description (in the project's context), once per distinct text.
  descriptionHtml: declared(
    { reads: ['description', 'path_with_namespace'], calls: 1, rest: ['GET /projects/:id', 'POST /markdown'] },
    async (project, _args, context) => {
      const [description, path] = await Promise.all([
        readRecordField(project, 'description', context, FULL_RECORD_LOADERS['Project']),
        readRecordField(project, 'path_with_namespace', context, FULL_RECORD_LOADERS['Project']),
      ]);
      return renderMarkdown(context, description as string | null, path as string);
    },
  ),
  // GET /user once per request, and GET /projects/:id for the caller's `permissions` (list records lack them).
  userPermissions: declared({ calls: 2, rest: ['GET /user', 'GET /projects/:id'] }, (project, _args, context) => projectAbilities(project, context)),
  // Statistics are on the record only when asked (GET /projects/:id?statistics=true), and only for Reporters and above.
  statistics: declared(
    { calls: 1, unlessParentHas: 'statistics', rest: ['GET /projects/:id'] },
    async (project, _args, { api }) => project.statistics ?? (await api.projects.withStatistics(project.id)).statistics ?? null,
  ),
  projectMembers: declared(
    { ...restList(USER_SUMMARY), rest: ['GET /projects/:id/members', 'GET /projects/:id/members/all'] },
    (project, args, context) => memberConnection({ kind: 'project', id: project.id }, args, context),
  ),
  fullPath: declared(
    { reads: ['path_with_namespace'], rest: ['GET /projects/:id'] },
    async (project, _args, context) => (await readRecordField(project, 'path_with_namespace', context, FULL_RECORD_LOADERS['Project'])) as string,
  ),
  group: declared({ reads: ['namespace'], returns: GROUP_OF_NAMESPACE, rest: ['GET /projects/:id'] }, async (project, _args, context) => {
    const namespace = (await readRecordField(project, 'namespace', context, FULL_RECORD_LOADERS['Project'])) as ProjectSchema['namespace'];
    if (!namespace || namespace.kind !== 'group') return null;
    // The namespace is the group's summary; any further field is fetched through the group loader.
    const group: GroupSchema = { id: namespace.id, full_path: namespace.full_path };
    if (namespace.name !== undefined) group.name = namespace.name;
    if (namespace.path !== undefined) group.path = namespace.path;
    if (namespace.web_url !== undefined) group.web_url = namespace.web_url;
    if (namespace.avatar_url !== undefined) group.avatar_url = namespace.avatar_url;
    if (namespace.parent_id !== undefined) group.parent_id = namespace.parent_id;
    return group;
  }),
  runners: declared(
    { ...runnerList, rest: ['GET /projects/:id/runners'] },
    listField(projectRunnerList, (pages, args, _filters, project) => withRunnerPagesUnder(project.web_url, restConnection(args, pages, runnerListOrder(args)))),
  ),
  // The project's `creator_id`, then the user loader.
  creator: declared({ reads: ['creator_id'], calls: 1, returns: USER_LOADED, rest: ['GET /projects/:id', 'GET /users/:id'] }, async (project, _args, context) => {
    const creatorId = await readRecordField(project, 'creator_id', context, FULL_RECORD_LOADERS['Project']);
    return typeof creatorId === 'number' ? nullWhenNotFound(context.loaders.user.load(creatorId)) : null;
  }),
  // REST names it `_links`, which the snake_case reading of `links` would miss.
  links: declared(
    { reads: ['_links'], rest: ['GET /projects/:id'] },
    async (project, _args, context) => ((await readRecordField(project, '_links', context, FULL_RECORD_LOADERS['Project'])) as ProjectSchema['_links']) ?? null,
  ),
  // Only list records asked with with_custom_attributes=true carry them; GET /projects/:id has none, so no fetch.
  customAttributes: (project) => project.custom_attributes ?? null,
  invitations: declared(
    { ...restList(), rest: ['GET /projects/:id/invitations'] },
    listField(invitationList('project'), (pages, args, _filters, project: ProjectSchema) => invitationConnection(args, { kind: 'project', idOrPath: project.id }, pages)),
  ),
};

export const Namespace: NamespaceResolvers = {
  id: (namespace) => toGlobalId('Namespace', namespace.id),
  // A user's namespace is named after the user; a group's full name is on the group's record (the group loader).
  fullName: declared({ calls: 1, rest: ['GET /groups/:id'] }, async (namespace, _args, { loaders }) => {
    if (namespace.kind === 'user') return namespace.name ?? namespace.path ?? '';
    const group = await loaders.group.load(namespace.id);
    return group.full_name ?? group.name ?? '';
  }),
  parentId: (namespace) => (namespace.parent_id ? toGlobalId('Namespace', namespace.parent_id) : null),
};

export const ProjectStatistics: ProjectStatisticsResolvers = {
  // REST's name for the job artifacts' size; GitLab's GraphQL keeps the older "build".
  buildArtifactsSize: (statistics) => statistics.job_artifacts_size ?? 0,
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Namespace, Project, ProjectStatistics };
