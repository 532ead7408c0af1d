import type { User } from '../data/model.js';
import { userDetailsWithAdmin, userFull, userPublic, userStatusEntity, userWithAdmin } from '../entities/users.js';
import { forbidden, notFound, unauthorized } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { p } from '../http/params.js';
import { ok } from '../http/response.js';
import type { RequestContext, Router } from '../http/router.js';

/** `:user_id` of the status route: an id or a username, as GitLab's `find_user` takes either. */
export function userByIdOrUsername(ctx: RequestContext<unknown>, idOrUsername: string): User | undefined {
  return /^\d+$/.test(idOrUsername) ? ctx.state.users.get(Number(idOrUsername)) : ctx.state.findUserByUsername(idOrUsername);
}

/**
 * GitLab's `User.search` (UsersFinder): a leading `@` dropped, then a name or username containing
 * the text, any case, or an e-mail equal to it: any of the user's e-mails for administrators
 * (`with_private_emails`), the public e-mail for everyone else. E-mails never match in part.
 */
function matchesUserSearch(user: User, search: string, withPrivateEmails: boolean): boolean {
  const text = search.replace(/^@/, '').toLowerCase();
  if (text === '') return false;
  const email = withPrivateEmails ? user.email : user.publicEmail;
  return user.name.toLowerCase().includes(text) || user.username.toLowerCase().includes(text) || email.toLowerCase() === text;
}

export function registerUserRoutes(router: Router): void {
  router.get('/user', { auth: 'required', params: {} }, (ctx) => {
    if (!ctx.user) throw unauthorized();
    // UserWithAdmin for administrators, UserPublic (no `is_admin`) for everyone else.
    return ok(ctx.user.isAdmin ? userWithAdmin(ctx, ctx.user) : userFull(ctx, ctx.user));
  });

  // GitLab's `GET /users`: `username` matches exactly (case-insensitively), `search` is
  // `User.search` (see matchesUserSearch); newest first (order_by id, sort desc). Anonymous callers
  // may only ask for a username, so that nobody lists the instance's users without signing in.
  // `admins` keeps the administrators only when an administrator asks (UsersFinder#by_admins);
  // anyone else gets the list as if it were not given.
  router.get('/users', { auth: 'optional', paginated: true, params: { username: p.string(), search: p.string(), active: p.boolean(), blocked: p.boolean(), admins: p.boolean() } }, (ctx) => {
    const { username, search, active, blocked, admins } = ctx.params;
    const onlyAdmins = admins === true && ctx.user?.isAdmin === true;
    if (!ctx.user && !username) throw forbidden('Not authorized to access /api/v4/users');
    const users = [...ctx.state.users.values()]
      .filter((user) => username === undefined || user.username.toLowerCase() === username.toLowerCase())
      .filter((user) => search === undefined || matchesUserSearch(user, search, ctx.user?.isAdmin === true))
      .filter((user) => !active || user.state === 'active')
      .filter((user) => !blocked || user.state === 'blocked')
      .filter((user) => !onlyAdmins || user.isAdmin)
      .sort((a, b) => b.id - a.id);
    return paginate(ctx, users, (user) => (ctx.user?.isAdmin ? userWithAdmin(ctx, user) : userPublic(ctx, user)));
  });

  router.get('/users/:id', { auth: 'optional', params: { id: p.integer().required() } }, (ctx) => {
    const user = ctx.state.users.get(ctx.params.id);
    if (!user) throw notFound('User');
    if (ctx.user?.isAdmin) return ok(userDetailsWithAdmin(ctx, user));
    return ok(ctx.user?.id === user.id ? userFull(ctx, user) : userPublic(ctx, user));
  });

  // A user who never set a status answers every field null (`present user.status || {}`).
  router.get('/users/:user_id/status', { auth: 'optional', params: { user_id: p.string().required() } }, (ctx) => {
    const user = userByIdOrUsername(ctx, ctx.params.user_id);
    if (!user) throw notFound('User');
    return ok(userStatusEntity(user.status));
  });
}
