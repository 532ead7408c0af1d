import type {
  AccessLevelEnum,
  CustomAttributeFilter,
  GroupProjectsOrderBy,
  GroupsOrderBy,
  NamespaceProjectSort,
  SortDirection,
  VisibilityLevelsEnum,
} from '../../__generated__/resolvers-types.js';
import type { GroupListFilters, GroupProjectFilters } from '../../datasources/groups.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { idFromGlobalId } from '../global-id.js';

/** Arguments of `groups`, `Group.subgroups` and `Group.descendantGroups`. */
export interface GroupListArgs {
  skipGroups?: ReadonlyArray<string> | null;
  allAvailable?: boolean | null;
  search?: string | null;
  orderBy?: GroupsOrderBy | null;
  sort?: SortDirection | null;
  statistics?: boolean | null;
  withCustomAttributes?: boolean | null;
  owned?: boolean | null;
  minAccessLevel?: AccessLevelEnum | null;
  topLevelOnly?: boolean | null;
  customAttributes?: ReadonlyArray<CustomAttributeFilter> | null;
}

/** Arguments of `Group.projects` and `Group.sharedProjects`. */
export interface GroupProjectArgs {
  archived?: boolean | null;
  visibility?: VisibilityLevelsEnum | null;
  orderBy?: GroupProjectsOrderBy | null;
  sort?: NamespaceProjectSort | null;
  sortDirection?: SortDirection | null;
  search?: string | null;
  owned?: boolean | null;
  starred?: boolean | null;
  withIssuesEnabled?: boolean | null;
  withMergeRequestsEnabled?: boolean | null;
  withShared?: boolean | null;
  includeSubgroups?: boolean | null;
  minAccessLevel?: AccessLevelEnum | null;
  withCustomAttributes?: boolean | null;
  withSecurityReports?: boolean | null;
}

const given = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);

/** `custom_attributes[key]=value` pairs; a key given twice could only match one value, so it is refused. */
function customAttributeFilter(filters: ReadonlyArray<CustomAttributeFilter> | null | undefined): Record<string, string> | undefined {
  if (!filters || filters.length === 0) return undefined;
  const pairs: Record<string, string> = {};
  for (const { key, value } of filters) {
    if (!key.trim()) throw badUserInput('`customAttributes` keys must not be empty.', 'customAttributes');
    if (key in pairs) throw badUserInput(`\`customAttributes\` names the key "${key}" twice.`, 'customAttributes');
    pairs[key] = value;
  }
  return pairs;
}

/** An empty search asks REST for everything, which is not what a client typing nothing means by it. */
function searchText(search: string | null | undefined): string | undefined {
  if (search === null || search === undefined) return undefined;
  if (!search.trim()) throw badUserInput('`search` must not be empty; leave it out to list everything.', 'search');
  return search;
}

/** The REST filters of a group list, checked before any REST call. */
export function groupListFilters(args: GroupListArgs): GroupListFilters {
  return {
    skipGroups: args.skipGroups?.map((id) => idFromGlobalId(id, 'Group', 'skipGroups')),
    allAvailable: given(args.allAvailable),
    search: searchText(args.search),
    orderBy: given(args.orderBy),
    sort: given(args.sort),
    statistics: given(args.statistics),
    withCustomAttributes: given(args.withCustomAttributes),
    owned: given(args.owned),
    minAccessLevel: given(args.minAccessLevel),
    topLevelOnly: given(args.topLevelOnly),
    customAttributes: customAttributeFilter(args.customAttributes),
  };
}

/**
 * GitLab's `NamespaceProjectSort` as REST's `order_by` and `sort`: activity and similarity have
 * REST orders; the storage orders do not (REST orders only the instance's project list by storage).
 */
function namespaceProjectOrder(args: GroupProjectArgs): { orderBy?: string | undefined; sort?: string | undefined } {
  if (args.sort === null || args.sort === undefined) return { orderBy: given(args.orderBy), sort: given(args.sortDirection) };
  if (args.orderBy !== null && args.orderBy !== undefined) throw badUserInput('Give `sort` or `orderBy`, not both.', 'sort');
  // Codegen's enum values are REST's strings: ACTIVITY_DESC is `activity_desc`.
  switch (args.sort) {
    case 'activity_desc':
      return { orderBy: 'last_activity_at', sort: 'desc' };
    case 'similarity':
      return { orderBy: 'similarity', sort: given(args.sortDirection) };
    default:
      throw badUserInput("REST cannot order a group's projects by storage size; use ACTIVITY_DESC, SIMILARITY or `orderBy`.", 'sort');
  }
}

/** The REST filters of a group's project list, checked before any REST call. */
export function groupProjectFilters(args: GroupProjectArgs): GroupProjectFilters {
  return {
    archived: given(args.archived),
    visibility: given(args.visibility),
    ...namespaceProjectOrder(args),
    search: searchText(args.search),
    owned: given(args.owned),
    starred: given(args.starred),
    withIssuesEnabled: given(args.withIssuesEnabled),
    withMergeRequestsEnabled: given(args.withMergeRequestsEnabled),
    withShared: given(args.withShared),
    includeSubgroups: given(args.includeSubgroups),
    minAccessLevel: given(args.minAccessLevel),
    withCustomAttributes: given(args.withCustomAttributes),
    withSecurityReports: given(args.withSecurityReports),
  };
}
