import type { UserResolvers } from '../../__generated__/resolvers-types.js';
import { toGlobalId } from '../global-id.js';

export const User: UserResolvers = {
  id: (user) => toGlobalId('User', user.id),
};
