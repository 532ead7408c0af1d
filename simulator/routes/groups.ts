import { groupDetail } from '../entities/groups.js';
import { p } from '../http/params.js';
import { ok } from '../http/response.js';
import type { Router } from '../http/router.js';
import { visibleGroup } from './lookup.js';

export function registerGroupRoutes(router: Router): void {
  router.get(
    '/groups/:id',
    {
      auth: 'optional',
      params: { id: p.string().required(), with_projects: p.boolean().default(true), with_custom_attributes: p.boolean() },
    },
    (ctx) => ok(groupDetail(ctx, visibleGroup(ctx, ctx.params.id), ctx.params.with_projects)),
  );
}
