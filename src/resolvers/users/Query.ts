import type { QueryResolvers } from '../../__generated__/resolvers-types.js';

export const userQueries: Pick<QueryResolvers, 'currentUser'> = {
  currentUser: (_parent, _args, { credential, loaders }) => (credential ? loaders.currentUser() : null),
};
