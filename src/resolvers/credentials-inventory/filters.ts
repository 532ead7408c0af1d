import type { AccessTokenSort, AccessTokenState } from '../../__generated__/resolvers-types.js';
import type { AccessTokenFilters, SshKeyFilters } from '../../datasources/credentials-inventory.js';
import { badUserInput } from '../../errors/graphql-errors.js';

/** Arguments of `Group.managedPersonalAccessTokens` and `Group.managedResourceAccessTokens`. */
export interface AccessTokenListArgs {
  createdAfter?: string | null;
  createdBefore?: string | null;
  lastUsedAfter?: string | null;
  lastUsedBefore?: string | null;
  expiresAfter?: string | null;
  expiresBefore?: string | null;
  revoked?: boolean | null;
  state?: AccessTokenState | null;
  search?: string | null;
  sort?: AccessTokenSort | null;
}

/** Arguments of `Group.managedSshKeys`. */
export interface SshKeyListArgs {
  createdAfter?: string | null;
  createdBefore?: string | null;
  expiresAfter?: string | null;
  expiresBefore?: string | null;
}

const given = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);

/**
 * A time window whose start is after its end can match nothing (REST includes both bounds); such
 * bounds are almost always swapped, so they are refused rather than answered with an empty list.
 */
function checkWindow(after: string | null | undefined, before: string | null | undefined, argumentName: string): void {
  if (after && before && Date.parse(after) > Date.parse(before)) {
    throw badUserInput(`\`${argumentName}After\` is later than \`${argumentName}Before\`: nothing can match.`, `${argumentName}After`);
  }
}

/** The token list filters in REST's names, checked before any REST call. */
export function accessTokenFilters(args: AccessTokenListArgs): AccessTokenFilters {
  checkWindow(args.createdAfter, args.createdBefore, 'created');
  checkWindow(args.lastUsedAfter, args.lastUsedBefore, 'lastUsed');
  checkWindow(args.expiresAfter, args.expiresBefore, 'expires');
  if (args.search !== null && args.search !== undefined && !args.search.trim()) {
    throw badUserInput('`search` must not be blank; leave it out to list every token.', 'search');
  }
  return {
    created_after: given(args.createdAfter),
    created_before: given(args.createdBefore),
    last_used_after: given(args.lastUsedAfter),
    last_used_before: given(args.lastUsedBefore),
    expires_after: given(args.expiresAfter),
    expires_before: given(args.expiresBefore),
    revoked: given(args.revoked),
    state: given(args.state),
    search: given(args.search),
    sort: given(args.sort),
  };
}

export function sshKeyFilters(args: SshKeyListArgs): SshKeyFilters {
  checkWindow(args.createdAfter, args.createdBefore, 'created');
  checkWindow(args.expiresAfter, args.expiresBefore, 'expires');
  return {
    created_after: given(args.createdAfter),
    created_before: given(args.createdBefore),
    expires_after: given(args.expiresAfter),
    expires_before: given(args.expiresBefore),
  };
}
