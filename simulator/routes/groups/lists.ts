// GET /groups, /groups/:id/subgroups and /groups/:id/descendant_groups (rest-v4-api.md "Groups").
// Reads work without a token and then show public groups only (rest-v4-api.md "Authentication" 1).
import { groupRecord } from '../../entities/groups.js';
import { paginate } from '../../http/pagination.js';
import { p } from '../../http/params.js';
import type { RequestContext, Router } from '../../http/router.js';
import { visibleGroup } from '../lookup.js';
import { descendantsOf, findGroups, groupListParams, type GroupListParams } from './finder.js';

function present(ctx: RequestContext<GroupListParams>, groups: ReturnType<typeof findGroups>) {
  const presentation = { statistics: ctx.params.statistics === true, customAttributes: ctx.params.with_custom_attributes === true };
  // The offset cap of rest-conventions §3 names the type: groups also support keyset pagination.
  return paginate(ctx, groups, (g) => groupRecord(ctx, g, presentation), { offsetCap: { typeName: 'Group' } });
}

export function registerGroupListRoutes(router: Router): void {
  router.get('/groups', { auth: 'optional', paginated: true, params: { ...groupListParams, top_level_only: p.boolean() } }, (ctx) =>
    present(ctx, findGroups(ctx, [...ctx.state.groups.values()], ctx.params)),
  );

  router.get('/groups/:id/subgroups', { auth: 'optional', paginated: true, params: { id: p.string().required(), ...groupListParams } }, (ctx) => {
    const parent = visibleGroup(ctx, ctx.params.id);
    const children = [...ctx.state.groups.values()].filter((g) => g.parentId === parent.id);
    return present(ctx, findGroups(ctx, children, ctx.params));
  });

  router.get(
    '/groups/:id/descendant_groups',
    { auth: 'optional', paginated: true, params: { id: p.string().required(), ...groupListParams } },
    (ctx) => present(ctx, findGroups(ctx, descendantsOf(ctx, visibleGroup(ctx, ctx.params.id)), ctx.params)),
  );
}
