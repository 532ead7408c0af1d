import type { UserCoreResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';
import { restList } from '../../cost/field-cost.js';
import { PROJECT_LOADED } from '../../cost/shapes.js';
import { declared } from '../../fields/declaration.js';

const userStarredProjectFields: Pick<UserCoreResolvers, 'starredProjects'> = {
  starredProjects: declared(
    { ...restList(PROJECT_LOADED), rest: ['GET /users/:user_id/starred_projects'] },
    (user, { search, ...args }, { api }) =>
      restConnection(args, (page) => api.projects.starredBy(user.id, search?.trim() || undefined, page)),
  ),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { UserCore: userStarredProjectFields };
