// Every row of the Groups table in rest-v4-api.md.
import { groupDetail } from '../../entities/groups.js';
import { p } from '../../http/params.js';
import { ok } from '../../http/response.js';
import type { Router } from '../../http/router.js';
import { visibleGroup } from '../lookup.js';
import { registerGroupListRoutes } from './lists.js';
import { registerGroupProjectRoutes } from './projects.js';
import { registerGroupWriteRoutes } from './writes.js';

export function registerGroupsDomain(router: Router): void {
  registerGroupListRoutes(router);
  registerGroupProjectRoutes(router);
  registerGroupWriteRoutes(router);

  // Public groups without a token; private ones answer 404 to whoever may not see them (§7).
  router.get(
    '/groups/:id',
    {
      auth: 'optional',
      params: { id: p.string().required(), with_projects: p.boolean().default(true), with_custom_attributes: p.boolean().default(false) },
    },
    (ctx) =>
      ok(groupDetail(ctx, visibleGroup(ctx, ctx.params.id), { withProjects: ctx.params.with_projects, customAttributes: ctx.params.with_custom_attributes })),
  );
}
