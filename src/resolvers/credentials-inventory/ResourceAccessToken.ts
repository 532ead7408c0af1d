import type { ResourceAccessTokenResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { toGlobalId } from '../global-id.js';
import { ownerOf } from './owner.js';

export const ResourceAccessToken: ResourceAccessTokenResolvers = {
  // GitLab keeps group and project access tokens as PersonalAccessToken records of bot users.
  id: (token) => toGlobalId('PersonalAccessToken', token.id),
  user: ownerOf,
  // Only the id is known: any other field of the group or project is fetched when asked for.
  group: (token) => (token.resource_type === 'group' && typeof token.resource_id === 'number' ? { id: token.resource_id } : null),
  project: (token) => (token.resource_type === 'project' && typeof token.resource_id === 'number' ? { id: token.resource_id } : null),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { ResourceAccessToken };
