import type { UserCoreResolvers, UserResolvers } from '../../__generated__/resolvers-types.js';
import { toGlobalId } from '../global-id.js';
import { nullWhenNotFound } from '../lookups.js';
import { pathOfWebUrl } from '../web-path.js';

/** Every user the gateway serves is a UserCore, as in GitLab's GraphQL API. */
export const User: UserResolvers = {
  __resolveType: () => 'UserCore',
};

export const UserCore: UserCoreResolvers = {
  id: (user) => toGlobalId('User', user.id),
  webPath: (user) => pathOfWebUrl(user.web_url),
  // GET /users/:id/status, once per user and request; a user REST no longer knows has none.
  status: (user, _args, { loaders }) => nullWhenNotFound(loaders.userStatus.load(user.id)),
};
