// Which groups a group list answers, as GitLab's GroupsFinder and lib/api/groups.rb
// `find_groups` decide it (rest-v4-api.md "Groups"): `all_available` defaults to false for signed-in
// users and to true for administrators; `owned` and `min_access_level` take precedence over it;
// anonymous callers get public groups only.
import { canReadGroup, groupAccessLevel } from '../../data/access.js';
import { AccessLevel, type Group } from '../../data/model.js';
import { similarityScore } from '../../data/similarity.js';
import { grapeError } from '../../http/errors.js';
import { p, type ParamsOf } from '../../http/params.js';
import type { ParamHash } from '../../http/query.js';
import type { RequestContext } from '../../http/router.js';

/** Every value of Gitlab::Access.all_values, which `min_access_level` accepts. */
export const ACCESS_LEVEL_VALUES = [0, 5, 10, 20, 30, 40, 50] as const;

/** Parameters shared by GET /groups, /groups/:id/subgroups and /groups/:id/descendant_groups. */
export const groupListParams = {
  // Grape's CommaSeparatedToIntegerArray: `skip_groups[]=1&skip_groups[]=2` or `skip_groups=1,2`.
  skip_groups: p.stringArray().commaSeparated(),
  all_available: p.boolean(),
  search: p.string(),
  order_by: p.string().values(['name', 'path', 'id', 'similarity']).default('name'),
  sort: p.string().values(['asc', 'desc']).default('asc'),
  statistics: p.boolean().default(false),
  with_custom_attributes: p.boolean().default(false),
  owned: p.boolean().default(false),
  min_access_level: p.integer().values(ACCESS_LEVEL_VALUES),
  custom_attributes: p.hash(),
};

export type GroupListParams = ParamsOf<typeof groupListParams> & { top_level_only?: boolean | undefined };

function skippedIds(values: string[] | undefined): Set<number> {
  const ids = new Set<number>();
  for (const value of values ?? []) {
    if (!/^\d+$/.test(value)) throw grapeError(400, 'skip_groups is invalid');
    ids.add(Number(value));
  }
  return ids;
}

/** `custom_attributes[key]=value`: every pair must match. Only administrators may filter by them. */
function matchesCustomAttributes(group: Group, wanted: ParamHash): boolean {
  return Object.entries(wanted).every(
    ([key, value]) =>
      (typeof value === 'string' || typeof value === 'number') &&
      (group.customAttributes ?? []).some((attribute) => attribute.key === key && attribute.value === String(value)),
  );
}

/** Who the caller is to the candidates: the GroupsFinder rules, before the filters. */
function accessible(ctx: RequestContext<unknown>, candidates: Group[], params: GroupListParams): Group[] {
  const { state, user } = ctx;
  const level = (group: Group) => groupAccessLevel(state, user, group);
  if (params.owned) return user ? candidates.filter((g) => level(g) >= AccessLevel.OWNER) : [];
  if (params.min_access_level !== undefined) {
    const min = params.min_access_level;
    return user ? candidates.filter((g) => level(g) > AccessLevel.NO_ACCESS && level(g) >= min) : [];
  }
  const admin = user?.isAdmin === true;
  const allAvailable = params.all_available ?? admin;
  if (admin && allAvailable) return candidates;
  // Members see the groups they belong to; with all_available (and always when anonymous) also
  // every group their visibility lets them read.
  const includeVisible = allAvailable || user === null;
  return candidates.filter((g) => (user !== null && level(g) >= AccessLevel.GUEST) || (includeVisible && canReadGroup(state, user, g)));
}

function compareText(a: string, b: string): number {
  return a.localeCompare(b, 'en');
}

/** order_by name, path or id with `sort` (ties by id ascending); similarity ranks by the search and ignores `sort`. */
function order(groups: Group[], params: GroupListParams): Group[] {
  const search = params.search?.trim();
  if (params.order_by === 'similarity' && search) {
    const scores = new Map(groups.map((g) => [g.id, similarityScore(search, g)]));
    return groups.sort((a, b) => (scores.get(b.id) ?? 0) - (scores.get(a.id) ?? 0) || a.id - b.id);
  }
  // Without a search, similarity orders by name (lib/api/groups.rb `group_without_similarity_options`).
  const direction = params.sort === 'desc' ? -1 : 1;
  const key = params.order_by === 'similarity' ? 'name' : params.order_by;
  return groups.sort((a, b) => {
    const primary = key === 'id' ? a.id - b.id : compareText(key === 'path' ? a.path : a.name, key === 'path' ? b.path : b.name);
    return direction * primary || a.id - b.id;
  });
}

/** The groups a list answers, filtered and ordered; `candidates` are all groups, or a group's children or descendants. */
export function findGroups(ctx: RequestContext<unknown>, candidates: Group[], params: GroupListParams): Group[] {
  const admin = ctx.user?.isAdmin === true;
  const skipped = skippedIds(params.skip_groups);
  const search = params.search?.trim().toLowerCase();
  const groups = accessible(ctx, candidates, params).filter(
    (g) =>
      !skipped.has(g.id) &&
      (!search || g.name.toLowerCase().includes(search) || g.path.toLowerCase().includes(search)) &&
      (!params.top_level_only || g.parentId === null) &&
      // Custom attributes are an administrators' filter; GitLab ignores it for everyone else.
      (!admin || !params.custom_attributes || matchesCustomAttributes(g, params.custom_attributes)),
  );
  return order(groups, params);
}

/** The group and every group below it, without the group itself. */
export function descendantsOf(ctx: RequestContext<unknown>, group: Group): Group[] {
  return ctx.state.groupSubtree(group).slice(1);
}
