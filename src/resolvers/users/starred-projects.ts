import type { UserCoreResolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';

export const userStarredProjectFields: Pick<UserCoreResolvers, 'starredProjects'> = {
  starredProjects: (user, { search, ...args }, { api }) =>
    restConnection(args, (page) => api.projects.starredBy(user.id, search?.trim() || undefined, page)),
};
