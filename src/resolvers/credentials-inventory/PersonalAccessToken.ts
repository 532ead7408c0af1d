import type { PersonalAccessTokenResolvers } from '../../__generated__/resolvers-types.js';
import { toGlobalId } from '../global-id.js';
import { ownerOf } from './owner.js';

export const PersonalAccessToken: PersonalAccessTokenResolvers = {
  id: (token) => toGlobalId('PersonalAccessToken', token.id),
  user: ownerOf,
};
