import type { QueryResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { userByIdOrUsername, userConnection } from './user-list.js';

const userQueries: Pick<QueryResolvers, 'currentUser' | 'user' | 'users'> = {
  currentUser: (_parent, _args, { credential, loaders }) => (credential ? loaders.currentUser() : null),
  user: (_parent, args, context) => userByIdOrUsername(args, context),
  users: (_parent, args, context) => userConnection(args, context),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Query: userQueries };
