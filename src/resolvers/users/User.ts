import type { UserCoreResolvers, UserResolvers } from '../../__generated__/resolvers-types.js';
import { toGlobalId } from '../global-id.js';
import { pathOfWebUrl } from '../web-path.js';

/** Every user the gateway serves is a UserCore, as in GitLab's GraphQL API. */
export const User: UserResolvers = {
  __resolveType: () => 'UserCore',
};

export const UserCore: UserCoreResolvers = {
  id: (user) => toGlobalId('User', user.id),
  webPath: (user) => pathOfWebUrl(user.web_url),
};
