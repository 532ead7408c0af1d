import type { UserCoreResolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';
import { restList } from '../../cost/field-cost.js';
import { PROJECT_LOADED } from '../../cost/shapes.js';
import { declared } from '../../fields/declaration.js';

export const userContributedProjectFields: Pick<UserCoreResolvers, 'contributedProjects'> = {
  contributedProjects: declared(
    { ...restList(PROJECT_LOADED), rest: ['GET /users/:user_id/contributed_projects'] },
    (user, args, { api }) => restConnection(args, (page) => api.projects.contributedBy(user.id, page)),
  ),
};
