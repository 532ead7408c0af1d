// The group credentials inventory of GitLab.com (doc/api/groups.md "Credentials inventory
// management"; ee/lib/api/manage/groups.rb): `/groups/:id/manage/...`. Every route authenticates
// (401), finds the group as the caller may see it (404) and needs the right to administer it (403:
// Owners and administrators), in that order, as the API's `before` block does.
import {
  isActive,
  isEnterpriseUserOf,
  listedTokenById,
  listedTokens,
  rotateToken,
  servesUnderRoot,
  servesWithin,
  type ListedToken,
} from '../data/credentials-inventory.js';
import { canAdminGroup } from '../data/access.js';
import type { Group } from '../data/model.js';
import type { SimulatorState } from '../data/state.js';
import {
  enterpriseSshKeyEntity,
  personalAccessTokenEntity,
  resourceAccessTokenEntity,
  withTokenValue,
} from '../entities/credentials-inventory.js';
import { badRequest, forbidden, grapeError, messageError } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { p, type ParamsOf } from '../http/params.js';
import { ok } from '../http/response.js';
import type { RequestContext, Router } from '../http/router.js';
import { visibleGroup } from './lookup.js';

function managedGroup(ctx: RequestContext<unknown>, idOrPath: string): Group {
  const group = visibleGroup(ctx, idOrPath);
  if (!canAdminGroup(ctx.state, ctx.user, group)) throw forbidden();
  return group;
}

/** `access_token_params` of API::Helpers::PersonalAccessTokensHelpers, plus the group. */
const TOKEN_LIST_PARAMS = {
  id: p.string().required(),
  revoked: p.boolean(),
  state: p.string().values(['active', 'inactive']),
  created_before: p.string(),
  created_after: p.string(),
  last_used_before: p.string(),
  last_used_after: p.string(),
  expires_before: p.string(),
  expires_after: p.string(),
  search: p.string(),
  sort: p.string(),
};

const SSH_KEY_LIST_PARAMS = {
  id: p.string().required(),
  created_before: p.string(),
  created_after: p.string(),
  expires_before: p.string(),
  expires_after: p.string(),
};

/** A Grape `DateTime` parameter as epoch milliseconds; `{"error":"<name> is invalid"}` otherwise. */
function time(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Date.parse(value);
  if (Number.isNaN(parsed)) throw grapeError(400, `${name} is invalid`);
  return parsed;
}

/** A Grape `Date` parameter as `YYYY-MM-DD`. */
function day(name: string, value: string | undefined): string | undefined {
  const parsed = time(name, value);
  return parsed === undefined ? undefined : new Date(parsed).toISOString().slice(0, 10);
}

/**
 * Both bounds of every window are inclusive (the finders' `>=` and `<=`); a record without the
 * value (never used, never expires) matches neither bound, as in SQL.
 */
function within<T extends number | string>(value: T | null, after: T | undefined, before: T | undefined): boolean {
  if (after === undefined && before === undefined) return true;
  if (value === null) return false;
  return (after === undefined || value >= after) && (before === undefined || value <= before);
}

const epoch = (iso: string | null) => (iso === null ? null : Date.parse(iso));

/** PersonalAccessTokensFinder: the filters, then `sort` (default `created_asc`), ties by id. */
function filterTokens(state: SimulatorState, tokens: ListedToken[], params: ParamsOf<typeof TOKEN_LIST_PARAMS>): ListedToken[] {
  const created = [time('created_after', params.created_after), time('created_before', params.created_before)] as const;
  const lastUsed = [time('last_used_after', params.last_used_after), time('last_used_before', params.last_used_before)] as const;
  const expires = [day('expires_after', params.expires_after), day('expires_before', params.expires_before)] as const;
  const search = params.search?.toLowerCase();
  const matching = tokens.filter(
    (token) =>
      within(epoch(token.createdAt), ...created) &&
      within(epoch(token.lastUsedAt), ...lastUsed) &&
      within(token.expiresAt, ...expires) &&
      (params.revoked === undefined || token.revoked === params.revoked) &&
      (params.state === undefined || isActive(state, token) === (params.state === 'active')) &&
      (search === undefined || token.name.toLowerCase().includes(search)),
  );
  return matching.sort(tokenOrder(params.sort ?? 'created_asc'));
}

/** PostgreSQL's order: ascending puts nulls last, descending first. */
function compareNullable(a: string | null, b: string | null, descending: boolean): number {
  if (a === b) return 0;
  if (a === null) return descending ? -1 : 1;
  if (b === null) return descending ? 1 : -1;
  return (a < b ? -1 : 1) * (descending ? -1 : 1);
}

/** What each documented `sort` value orders by; any other value orders as `created_asc`. */
const SORT_KEYS: Record<string, (token: ListedToken) => string | null> = {
  created: (token) => token.createdAt,
  expires: (token) => token.expiresAt,
  last_used: (token) => token.lastUsedAt,
  name: (token) => token.name.toLowerCase(),
};

function tokenOrder(sort: string): (a: ListedToken, b: ListedToken) => number {
  const [, field = 'created', direction = 'asc'] = /^(created|expires|last_used|name)_(asc|desc)$/.exec(sort) ?? [];
  const key = SORT_KEYS[field]!;
  return (a, b) => compareNullable(key(a), key(b), direction === 'desc') || a.id - b.id;
}

export function registerCredentialsInventoryRoutes(router: Router): void {
  router.get('/groups/:id/manage/personal_access_tokens', { auth: 'required', paginated: true, params: TOKEN_LIST_PARAMS }, (ctx) => {
    const group = managedGroup(ctx, ctx.params.id);
    const tokens = listedTokens(ctx.state).filter((token) => isEnterpriseUserOf(ctx.state, token.userId, group));
    return paginate(ctx, filterTokens(ctx.state, tokens, ctx.params), (token) => personalAccessTokenEntity(ctx.state, token));
  });

  router.get('/groups/:id/manage/resource_access_tokens', { auth: 'required', paginated: true, params: TOKEN_LIST_PARAMS }, (ctx) => {
    const group = managedGroup(ctx, ctx.params.id);
    const tokens = listedTokens(ctx.state).filter((token) => {
      const source = ctx.state.tokenBots.get(token.userId);
      return source !== undefined && servesWithin(ctx.state, source, group);
    });
    return paginate(ctx, filterTokens(ctx.state, tokens, ctx.params), (token) => resourceAccessTokenEntity(ctx.state, token));
  });

  router.get('/groups/:id/manage/ssh_keys', { auth: 'required', paginated: true, params: SSH_KEY_LIST_PARAMS }, (ctx) => {
    const group = managedGroup(ctx, ctx.params.id);
    const created = [time('created_after', ctx.params.created_after), time('created_before', ctx.params.created_before)] as const;
    const expires = [time('expires_after', ctx.params.expires_after), time('expires_before', ctx.params.expires_before)] as const;
    const keys = [...ctx.state.sshKeys.values()].filter(
      (key) =>
        key.kind === 'ssh' &&
        isEnterpriseUserOf(ctx.state, key.userId, group) &&
        within(epoch(key.createdAt), ...created) &&
        within(epoch(key.expiresAt), ...expires),
    );
    return paginate(ctx, keys, enterpriseSshKeyEntity);
  });

  router.post(
    '/groups/:id/manage/personal_access_tokens/:token_id/rotate',
    { auth: 'required', params: { id: p.string().required(), token_id: p.integer().required(), expires_at: p.string() } },
    (ctx) => {
      const group = managedGroup(ctx, ctx.params.id);
      const expiresAt = day('expires_at', ctx.params.expires_at);
      // `PersonalAccessToken.find`: ActiveRecord::RecordNotFound's body.
      const token = listedTokenById(ctx.state, ctx.params.token_id);
      if (!token) throw messageError(404, '404 Not found');
      // The rotate ability does not look at the group, so the API checks the user belongs to it.
      if (!isEnterpriseUserOf(ctx.state, token.userId, group)) throw forbidden();
      const outcome = rotateToken(ctx.state, token, expiresAt);
      if ('refusal' in outcome) throw badRequest(outcome.refusal);
      return ok(withTokenValue(personalAccessTokenEntity(ctx.state, outcome.token), outcome.token));
    },
  );

  router.post(
    '/groups/:id/manage/resource_access_tokens/:token_id/rotate',
    { auth: 'required', params: { id: p.string().required(), token_id: p.integer().required(), expires_at: p.string() } },
    (ctx) => {
      const group = managedGroup(ctx, ctx.params.id);
      const expiresAt = day('expires_at', ctx.params.expires_at);
      const token = listedTokenById(ctx.state, ctx.params.token_id);
      if (!token) throw messageError(404, '404 Not found');
      // `validate_bot_tokens`, with its two reasons.
      const source = ctx.state.tokenBots.get(token.userId);
      if (!source) throw forbidden('Cannot revoke resource access token: Token does not belong to bot user');
      if (!servesUnderRoot(ctx.state, source, group)) {
        throw forbidden("Cannot access resource access token: Token belongs to a resource outside group's hierarchy");
      }
      const outcome = rotateToken(ctx.state, token, expiresAt);
      if ('refusal' in outcome) throw badRequest(outcome.refusal);
      return ok(withTokenValue(resourceAccessTokenEntity(ctx.state, outcome.token), outcome.token));
    },
  );
}
