// Caller credentials (rest-conventions §7): `PRIVATE-TOKEN` header, `Authorization: Bearer`,
// or the `private_token` / `access_token` query parameters.
import type { IncomingHttpHeaders } from 'node:http';
import type { PersonalAccessToken, User } from '../data/model.js';
import type { SimulatorState } from '../data/state.js';
import { forbidden, messageError, oauthError, unauthorized } from './errors.js';

export interface Credentials {
  user: User | null;
  token: PersonalAccessToken | null;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The token the request carries, if any, in GitLab's order of precedence. */
export function tokenFromRequest(headers: IncomingHttpHeaders, rawQuery: string): string | null {
  const privateToken = header(headers, 'private-token');
  if (privateToken) return privateToken;
  const authorization = header(headers, 'authorization');
  const bearer = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  if (bearer?.[1]) return bearer[1];
  const query = new URLSearchParams(rawQuery);
  return query.get('private_token') || query.get('access_token') || null;
}

/** §7 "Sudo": `Sudo` header or `sudo` query parameter, a username or a user id. */
export function sudoFromRequest(headers: IncomingHttpHeaders, rawQuery: string): string | null {
  return header(headers, 'sudo') || new URLSearchParams(rawQuery).get('sudo') || null;
}

/** A token expires at the end of its `expires_at` day. */
function isExpired(state: SimulatorState, token: PersonalAccessToken): boolean {
  return token.expiresAt !== null && token.expiresAt < state.now.toISOString().slice(0, 10);
}

/**
 * Resolves a token to its user. An unknown token is a 401 even where anonymous access is allowed;
 * revoked and expired tokens get the OAuth-style bodies of §6.5; a `read_api` token may only
 * GET/HEAD (§7 "Scope").
 */
export function authenticate(state: SimulatorState, tokenValue: string | null, method: string, sudo: string | null = null): Credentials {
  if (tokenValue === null) return { user: null, token: null };
  const token = state.tokens.get(tokenValue);
  const user = token ? state.users.get(token.userId) : undefined;
  if (!token || !user || user.state !== 'active') throw unauthorized();
  if (token.revoked) {
    throw oauthError(401, 'invalid_token', 'Token was revoked. You have to re-authorize from the user.');
  }
  if (isExpired(state, token)) {
    throw oauthError(401, 'invalid_token', 'Token is expired. You can either do re-authorization or token refresh.');
  }
  const readOnly = method === 'GET' || method === 'HEAD';
  const allowed = token.scopes.includes('api') || (readOnly && token.scopes.includes('read_api'));
  if (!allowed) {
    throw oauthError(403, 'insufficient_scope', 'The request requires higher privileges than provided by the access token.', {
      scope: 'api',
    });
  }
  if (sudo !== null) return { user: sudoUser(state, user, token, sudo), token };
  return { user, token };
}

/**
 * The user Rack::Attack's `throttled_user_id` finds for a request, before any endpoint runs: the
 * owner of a usable token (PRIVATE-TOKEN, Bearer, `private_token`/`access_token`), or a running
 * job's user for a job token (`JOB-TOKEN`, `job_token`). Null when none resolves (no token, an
 * unknown, revoked or expired one), so that the request counts against its IP. Sudo changes whom
 * the endpoint acts as, not whose quota the call spends: GitLab keys on the token's owner.
 */
export function requesterId(state: SimulatorState, headers: IncomingHttpHeaders, rawQuery: string): number | null {
  const tokenValue = tokenFromRequest(headers, rawQuery);
  if (tokenValue !== null) {
    const token = state.tokens.get(tokenValue);
    const user = token ? state.users.get(token.userId) : undefined;
    const usable = token && !token.revoked && !isExpired(state, token);
    return usable && user?.state === 'active' ? user.id : null;
  }
  const jobToken = header(headers, 'job-token') || new URLSearchParams(rawQuery).get('job_token');
  const job = jobToken ? state.jobs.get(state.jobTokens.get(jobToken) ?? -1) : undefined;
  return job?.status === 'running' ? job.userId : null;
}

/** An administrator with a `sudo`-scoped token acts as another user. */
function sudoUser(state: SimulatorState, admin: User, token: PersonalAccessToken, target: string): User {
  if (!admin.isAdmin) throw forbidden('Must be admin to use sudo');
  if (!token.scopes.includes('sudo')) {
    throw oauthError(403, 'insufficient_scope', 'The request requires higher privileges than provided by the access token.', {
      scope: 'sudo',
    });
  }
  const user = /^\d+$/.test(target) ? state.users.get(Number(target)) : state.findUserByUsername(target);
  if (!user) throw messageError(404, `404 User with ID or username '${target}' Not Found`);
  return user;
}
