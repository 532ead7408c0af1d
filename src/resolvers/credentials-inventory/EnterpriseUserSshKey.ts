import type { EnterpriseUserSshKeyResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { toGlobalId } from '../global-id.js';
import { ownerOf } from './owner.js';

export const EnterpriseUserSshKey: EnterpriseUserSshKeyResolvers = {
  // The same Key record as `GET /keys/:id` shows administrators, so the same global ID.
  id: (key) => toGlobalId('Key', key.id),
  user: ownerOf,
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { EnterpriseUserSshKey };
