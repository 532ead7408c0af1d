import type { UserCoreResolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';

export const userContributedProjectFields: Pick<UserCoreResolvers, 'contributedProjects'> = {
  contributedProjects: (user, args, { api }) => restConnection(args, (page) => api.projects.contributedBy(user.id, page)),
};
