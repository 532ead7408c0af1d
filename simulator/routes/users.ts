import { userFull, userPublic } from '../entities/users.js';
import { notFound, unauthorized } from '../http/errors.js';
import { p } from '../http/params.js';
import { ok } from '../http/response.js';
import type { Router } from '../http/router.js';

export function registerUserRoutes(router: Router): void {
  router.get('/user', { auth: 'required', params: {} }, (ctx) => {
    if (!ctx.user) throw unauthorized();
    return ok(userFull(ctx, ctx.user));
  });

  router.get('/users/:id', { auth: 'optional', params: { id: p.integer().required() } }, (ctx) => {
    const user = ctx.state.users.get(ctx.params.id);
    if (!user) throw notFound('User');
    const full = ctx.user?.isAdmin === true || ctx.user?.id === user.id;
    return ok(full ? userFull(ctx, user) : userPublic(ctx, user));
  });
}
