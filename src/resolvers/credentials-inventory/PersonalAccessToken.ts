import type { PersonalAccessTokenResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { toGlobalId } from '../global-id.js';
import { ownerOf } from './owner.js';

export const PersonalAccessToken: PersonalAccessTokenResolvers = {
  id: (token) => toGlobalId('PersonalAccessToken', token.id),
  user: ownerOf,
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { PersonalAccessToken };
