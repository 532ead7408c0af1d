import { projectRecord } from '../entities/projects.js';
import { p } from '../http/params.js';
import { ok } from '../http/response.js';
import type { Router } from '../http/router.js';
import { visibleProject } from './lookup.js';

export function registerProjectRoutes(router: Router): void {
  // Public projects to anyone, internal to any signed-in user, private to members and admins.
  router.get('/projects/:id', { auth: 'optional', params: { id: p.string().required() } }, (ctx) =>
    ok(projectRecord(ctx, visibleProject(ctx, ctx.params.id))),
  );
}
