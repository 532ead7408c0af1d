import type { QueryResolvers } from '../../__generated__/resolvers-types.js';

export const userQueries: Pick<QueryResolvers, 'currentUser'> = {
  async currentUser(_parent, _args, { api, credential, loaders }) {
    if (!credential) return null;
    const user = await api.users.current();
    loaders.user.prime(user.id, user);
    return user;
  },
};
