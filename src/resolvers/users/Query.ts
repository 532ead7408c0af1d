import type { QueryResolvers } from '../../__generated__/resolvers-types.js';
import { userConnection } from './user-list.js';

export const userQueries: Pick<QueryResolvers, 'currentUser' | 'users'> = {
  currentUser: (_parent, _args, { credential, loaders }) => (credential ? loaders.currentUser() : null),
  users: (_parent, args, context) => userConnection(args, context),
};
