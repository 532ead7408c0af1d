import type { ResourceAccessTokenResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { embedded } from '../../cost/field-cost.js';
import { ID_ONLY } from '../../cost/shapes.js';
import { declared } from '../../fields/declaration.js';
import { toGlobalId } from '../global-id.js';
import { ownerOf } from './owner.js';

export const ResourceAccessToken: ResourceAccessTokenResolvers = {
  // GitLab keeps group and project access tokens as PersonalAccessToken records of bot users.
  id: (token) => toGlobalId('PersonalAccessToken', token.id),
  user: ownerOf,
  // Only the id is known: any other field of the group or project is fetched when asked for.
  group: declared(embedded(ID_ONLY), (token) =>
    token.resource_type === 'group' && typeof token.resource_id === 'number' ? { id: token.resource_id } : null,
  ),
  project: declared(embedded(ID_ONLY), (token) =>
    token.resource_type === 'project' && typeof token.resource_id === 'number' ? { id: token.resource_id } : null,
  ),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { ResourceAccessToken };
