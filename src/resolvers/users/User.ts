import type { UserCoreResolvers, UserResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { oneCall } from '../../cost/field-cost.js';
import { declared } from '../../fields/declaration.js';
import { toGlobalId } from '../global-id.js';
import { nullWhenNotFound } from '../lookups.js';
import { pathOfWebUrl } from '../web-path.js';
import { userContributedProjectFields } from './contributed-projects.js';

/** Every user the gateway serves is a UserCore, as in GitLab's GraphQL API. */
export const User: UserResolvers = {
  __resolveType: () => 'UserCore',
};

export const UserCore: UserCoreResolvers = {
  id: (user) => toGlobalId('User', user.id),
  ...userContributedProjectFields,
  webPath: (user) => pathOfWebUrl(user.web_url),
  // GET /users/:id/status, once per user and request. A user who never set one gets every field
  // null from REST (`user.status || {}`), where GitLab's GraphQL answers no status at all; a user
  // REST no longer knows has none either.
  status: declared({ ...oneCall(), rest: ['GET /users/:user_id/status'] }, async (user, _args, { loaders }) => {
    const status = await nullWhenNotFound(loaders.userStatus.load(user.id));
    return status?.availability ? status : null;
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { User, UserCore };
