import type { EnterpriseUserSshKeyResolvers } from '../../__generated__/resolvers-types.js';
import { toGlobalId } from '../global-id.js';
import { ownerOf } from './owner.js';

export const EnterpriseUserSshKey: EnterpriseUserSshKeyResolvers = {
  // The same Key record as `GET /keys/:id` shows administrators, so the same global ID.
  id: (key) => toGlobalId('Key', key.id),
  user: ownerOf,
};
