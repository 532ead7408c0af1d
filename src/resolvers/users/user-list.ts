// `Query.users` and `Query.user` over REST's `GET /users`, as GitLab's UsersResolver takes its arguments: the list
// with `search`, `admins` and `active`, or the users named by `usernames` (REST's exact `username`
// filter, one call each) or by `ids` (REST's lists have no id filter: `GET /users/:id` each).
import type { QueryUserArgs, QueryUsersArgs } from '../../__generated__/resolvers-types.js';
import { arrayConnection, restConnection, type Connection } from '../../connections/connection.js';
import { windowFor } from '../../connections/window.js';
import type { FieldArgs, FieldCost } from '../../cost/field-cost.js';
import { USER_LOADED, USER_SUMMARY } from '../../cost/shapes.js';
import { windowCost } from '../../cost/window-cost.js';
import type { UserListFilters, UserSchema } from '../../datasources/users.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import type { GatewayContext } from '../../server/context.js';
import { idFromGlobalId } from '../global-id.js';
import { nullWhenNotFound } from '../lookups.js';

/** At most this many `ids` or `usernames`: each is one REST read. */
export const MAX_NAMED_USERS = 100;

/** How many users `Query.users` names by `usernames` or `ids`; null when it lists instead. */
const namedUsersOf = (args: FieldArgs): number | null => {
  const named = Array.isArray(args['usernames']) ? args['usernames'] : Array.isArray(args['ids']) ? args['ids'] : null;
  return named === null ? null : Math.min(named.length, MAX_NAMED_USERS);
};

/**
 * `Query.users`: GET /users?username= per username, GET /users/:id per id (the user loader), or the
 * REST list's window of summaries.
 */
export const userListOrNamed: FieldCost = {
  calls: (args) => namedUsersOf(args) ?? windowCost(args).calls,
  items: (args) => namedUsersOf(args) ?? windowCost(args).items,
  returns: (args) => (Array.isArray(args['ids']) ? USER_LOADED : USER_SUMMARY),
};

/** An empty search asks REST for every user, which is not what a client typing nothing means by it. */
function searchText(search: string | null | undefined): string | undefined {
  if (search === null || search === undefined) return undefined;
  if (!search.trim()) throw badUserInput('`search` must not be empty; leave it out to list every user.', 'search');
  return search;
}

/** REST's `active` filter works one way only: `active=false` lists every user, not the others. */
function activeOnly(active: boolean | null | undefined): true | undefined {
  if (active === false) throw badUserInput('REST lists only active users (`active: true`); it cannot list the users that are not active.', 'active');
  return active === true ? true : undefined;
}

function checkedCount<T>(values: ReadonlyArray<T>, argumentName: string): ReadonlyArray<T> {
  if (values.length > MAX_NAMED_USERS) throw badUserInput(`\`${argumentName}\` takes at most ${MAX_NAMED_USERS} users.`, argumentName);
  return values;
}

/** The REST filters of the list, checked before any REST call. */
export function userListFilters(args: QueryUsersArgs): UserListFilters {
  return { search: searchText(args.search), admins: args.admins === true ? true : undefined, active: activeOnly(args.active) };
}

/** Newest first, as REST lists users (`id` descending; GitLab's `created_desc` default). */
const newestFirst = (users: Array<UserSchema | null>): UserSchema[] =>
  users.filter((user): user is UserSchema => user !== null).sort((a, b) => b.id - a.id);

/**
 * The users with these usernames that REST's list filters keep: one `GET /users?username=` each
 * (REST matches a username exactly, any case, so each answers none or one user), with the other
 * filters alongside so that REST applies them as it would to the whole list.
 */
async function usersByUsernames(args: QueryUsersArgs, usernames: ReadonlyArray<string>, filters: UserListFilters, context: GatewayContext): Promise<Connection<UserSchema>> {
  const distinct = [...new Set(usernames.map((username) => username.toLowerCase()))];
  const found = await Promise.all(distinct.map((username) => userWithUsername(username, filters, context)));
  return arrayConnection(args, newestFirst(found));
}

/** The user REST's exact `username` filter finds (none or one), with the list's other filters. */
async function userWithUsername(username: string, filters: UserListFilters, { api }: GatewayContext): Promise<UserSchema | null> {
  return (await api.users.all({ ...filters, username }, { page: 1, perPage: 1 })).items[0] ?? null;
}

/** `Query.user`: by global ID through the user loader, or by username; exactly one of the two, as GitLab requires. */
export function userByIdOrUsername(args: QueryUserArgs, context: GatewayContext): Promise<UserSchema | null> {
  const id = args.id ?? null;
  const username = args.username ?? null;
  if ((id === null) === (username === null)) throw badUserInput('Provide either a user `id` or a `username`, not both and not neither.', 'id');
  if (id !== null) return nullWhenNotFound(context.loaders.user.load(idFromGlobalId(id, 'User', 'id')));
  if (!username?.trim()) throw badUserInput('`username` must not be empty.', 'username');
  return userWithUsername(username, {}, context);
}

/** The users with these IDs, read through the user loader; `active` is their own `state`. */
async function usersByIds(args: QueryUsersArgs, ids: ReadonlyArray<number>, filters: UserListFilters, { loaders }: GatewayContext): Promise<Connection<UserSchema>> {
  if (filters.search !== undefined || filters.admins) {
    throw badUserInput("REST's user list has no id filter, so `ids` is read one user at a time and takes no `search` or `admins`.", 'ids');
  }
  const users = await Promise.all(ids.map((id) => nullWhenNotFound(loaders.user.load(id))));
  return arrayConnection(
    args,
    newestFirst(users).filter((user) => !filters.active || user.state === 'active'),
  );
}

/** `Query.users`: REST's instance list, or the users named by `usernames` or `ids`. */
export function userConnection(args: QueryUsersArgs, context: GatewayContext): Promise<Connection<UserSchema>> {
  const filters = userListFilters(args);
  // The named users are windowed once read: their paging arguments are checked before the reads.
  windowFor(args);
  if (args.ids && args.usernames) throw badUserInput('Provide either a list of usernames or ids, not both.', 'ids');
  if (args.usernames) return usersByUsernames(args, checkedCount(args.usernames, 'usernames'), filters, context);
  if (args.ids) {
    const ids = [...new Set(checkedCount(args.ids, 'ids').map((id) => idFromGlobalId(id, 'User', 'ids')))];
    return usersByIds(args, ids, filters, context);
  }
  return restConnection(args, (page) => context.api.users.all(filters, page));
}
