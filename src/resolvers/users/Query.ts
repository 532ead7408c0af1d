import type { QueryResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { oneCall } from '../../cost/field-cost.js';
import { USER_LOADED, USER_SUMMARY } from '../../cost/shapes.js';
import { declared } from '../../fields/declaration.js';
import { userByIdOrUsername, userConnection, userListOrNamed } from './user-list.js';

const userQueries: Pick<QueryResolvers, 'currentUser' | 'user' | 'users'> = {
  // GET /user, primed into the user loader.
  currentUser: declared({ ...oneCall(USER_LOADED), rest: ['GET /user'] }, (_parent, _args, { credential, loaders }) =>
    credential ? loaders.currentUser() : null,
  ),
  // GET /users/:id through the user loader, or one GET /users?username=.
  user: declared(
    { ...oneCall((args) => (args['id'] ? USER_LOADED : USER_SUMMARY)), rest: ['GET /users/:id', 'GET /users'] },
    (_parent, args, context) => userByIdOrUsername(args, context),
  ),
  users: declared({ ...userListOrNamed, rest: ['GET /users', 'GET /users/:id'] }, (_parent, args, context) =>
    userConnection(args, context),
  ),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Query: userQueries };
