// `Query.projects` over REST's `GET /projects`, and the project lists named by `ids`, which REST's
// lists cannot filter by: those are read one project at a time through the project loader.
import type { GraphQLResolveInfo } from 'graphql';
import type { ProjectArchived, QueryProjectsArgs } from '../../__generated__/resolvers-types.js';
import { arrayConnection, restConnection, type Connection } from '../../connections/connection.js';
import type { ConnectionArgs } from '../../connections/window.js';
import type { FieldCost } from '../../cost/field-cost.js';
import type { RecordShape } from '../../cost/shapes.js';
import { windowCost } from '../../cost/window-cost.js';
import type { ProjectListFilters, ProjectSchema } from '../../datasources/projects.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import type { GatewayContext } from '../../server/context.js';
import { idFromGlobalId } from '../global-id.js';
import { nullWhenNotFound } from '../lookups.js';
import { shortRecordSuffices } from './simple-record.js';

/** At most this many `ids`: each is one REST read. */
export const MAX_PROJECT_IDS = 100;

/**
 * What a project list costs that `ids` may name instead: then one GET /projects/:id per id (REST's
 * lists have no id filter), otherwise the REST list's window.
 */
export const projectListOrIds = (returns: RecordShape): FieldCost => ({
  calls: (args) => (Array.isArray(args['ids']) ? Math.min(args['ids'].length, MAX_PROJECT_IDS) : windowCost(args).calls),
  items: (args) => (Array.isArray(args['ids']) ? Math.min(args['ids'].length, MAX_PROJECT_IDS) : windowCost(args).items),
  returns,
});

/**
 * GitLab's project `sort` strings (`<field>_<direction>`, Project.sort_by_attribute) that REST's
 * `GET /projects` orders by for every caller, as its `order_by` and `sort`. The storage orders are
 * REST's for administrators only, so they are not among them.
 */
const PROJECT_SORTS: Readonly<Record<string, { orderBy: string; sort: 'asc' | 'desc' }>> = {
  id_asc: { orderBy: 'id', sort: 'asc' },
  id_desc: { orderBy: 'id', sort: 'desc' },
  name_asc: { orderBy: 'name', sort: 'asc' },
  name_desc: { orderBy: 'name', sort: 'desc' },
  path_asc: { orderBy: 'path', sort: 'asc' },
  path_desc: { orderBy: 'path', sort: 'desc' },
  created_asc: { orderBy: 'created_at', sort: 'asc' },
  created_desc: { orderBy: 'created_at', sort: 'desc' },
  updated_asc: { orderBy: 'updated_at', sort: 'asc' },
  updated_desc: { orderBy: 'updated_at', sort: 'desc' },
  latest_activity_asc: { orderBy: 'last_activity_at', sort: 'asc' },
  latest_activity_desc: { orderBy: 'last_activity_at', sort: 'desc' },
  stars_asc: { orderBy: 'star_count', sort: 'asc' },
  stars_desc: { orderBy: 'star_count', sort: 'desc' },
  similarity: { orderBy: 'similarity', sort: 'desc' },
};

/** GitLab's default: `id_desc`, or `similarity` when searching. */
function projectOrder(sort: string | null | undefined, search: string | undefined): { orderBy: string; sort: 'asc' | 'desc' } {
  const name = sort ?? (search ? 'similarity' : 'id_desc');
  const order = PROJECT_SORTS[name];
  if (!order) throw badUserInput(`\`sort\` must be one of ${Object.keys(PROJECT_SORTS).join(', ')}; got "${name.slice(0, 50)}".`, 'sort');
  return order;
}

/** An empty search asks REST for everything, which is not what a client typing nothing means by it. */
function searchText(search: string | null | undefined): string | undefined {
  if (search === null || search === undefined) return undefined;
  if (!search.trim()) throw badUserInput('`search` must not be empty; leave it out to list every project.', 'search');
  return search;
}

/** Topics go to REST comma-separated, so a topic holding a comma cannot be asked for. */
function topicNames(topics: ReadonlyArray<string> | null | undefined): ReadonlyArray<string> | undefined {
  if (!topics || topics.length === 0) return undefined;
  for (const topic of topics) {
    if (!topic.trim() || topic.includes(',')) throw badUserInput('`topics` must be names without commas.', 'topics');
  }
  return topics;
}

const given = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);

/** GitLab's ProjectArchived as REST's `archived`: ONLY is `true`, EXCLUDE `false`, INCLUDE leaves it out. */
const ARCHIVED_FILTER: Readonly<Record<ProjectArchived, boolean | undefined>> = { only: true, exclude: false, include: undefined };

/** The REST filters of `Query.projects`, checked before any REST call. */
export function projectListFilters(args: QueryProjectsArgs, info: Pick<GraphQLResolveInfo, 'fieldNodes'>): ProjectListFilters {
  const search = searchText(args.search);
  return {
    membership: given(args.membership),
    search,
    searchNamespaces: given(args.searchNamespaces),
    ...projectOrder(args.sort, search),
    topics: topicNames(args.topics),
    withIssuesEnabled: given(args.withIssuesEnabled),
    withMergeRequestsEnabled: given(args.withMergeRequestsEnabled),
    archived: args.archived ? ARCHIVED_FILTER[args.archived] : undefined,
    minAccessLevel: given(args.minAccessLevel),
    ...(shortRecordSuffices(info) ? { simple: true } : {}),
  };
}

/** The numeric ids of `ids`, each checked as a project's global ID; null when not given. */
export function projectIds(ids: ReadonlyArray<string> | null | undefined): number[] | null {
  if (ids === null || ids === undefined) return null;
  if (ids.length > MAX_PROJECT_IDS) throw badUserInput(`\`ids\` takes at most ${MAX_PROJECT_IDS} projects.`, 'ids');
  return [...new Set(ids.map((id) => idFromGlobalId(id, 'Project', 'ids')))];
}

/** `ids` is answered by reads of single projects, so no filter of the list can go with it. */
export function refuseFiltersBesideIds(args: object, allowed: ReadonlyArray<string>): void {
  const paging = ['first', 'after', 'last', 'before', 'ids'];
  const others = Object.entries(args)
    .filter(([name, value]) => !paging.includes(name) && !allowed.includes(name) && value !== null && value !== undefined)
    .map(([name]) => name);
  if (others.length > 0) {
    throw badUserInput(`REST's project lists have no id filter, so \`ids\` is read one project at a time and takes no \`${others.join('`, `')}\`.`, 'ids');
  }
}

/**
 * The projects named by id that the caller may see and `keep` accepts, newest (highest id) first,
 * as GitLab orders by default: one `GET /projects/:id` each, batched and cached by the project loader.
 */
export async function projectsByIds(
  args: ConnectionArgs,
  ids: ReadonlyArray<number>,
  { loaders }: GatewayContext,
  keep: (project: ProjectSchema) => boolean = () => true,
): Promise<Connection<ProjectSchema>> {
  const projects = await Promise.all(ids.map((id) => nullWhenNotFound(loaders.project.load(id))));
  const found = projects.filter((project): project is ProjectSchema => project !== null && keep(project));
  return arrayConnection(
    args,
    found.sort((a, b) => b.id - a.id),
  );
}

/** `Query.projects`: REST's instance list, or the projects named by `ids`. */
export function projectConnection(args: QueryProjectsArgs, context: GatewayContext, info: Pick<GraphQLResolveInfo, 'fieldNodes'>): Promise<Connection<ProjectSchema>> {
  const ids = projectIds(args.ids);
  if (ids !== null) {
    refuseFiltersBesideIds(args, []);
    return projectsByIds(args, ids, context);
  }
  const filters = projectListFilters(args, info);
  // Anonymous callers get short records whatever was asked, and those must not stand in for full ones.
  const primes = !filters.simple && context.credential !== null;
  // GitLab's `personal` narrows to the caller's own namespace, and means nothing without a caller.
  const personal = args.personal === true && context.credential !== null;
  return restConnection(args, async (page) => {
    const result = personal
      ? await context.api.projects.personalOf((await context.loaders.currentUser()).id, filters, page)
      : await context.api.projects.all(filters, page);
    if (primes) for (const project of result.items) context.loaders.project.prime(project);
    return result;
  });
}
