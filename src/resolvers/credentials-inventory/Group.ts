import type { GroupResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { restListField } from '../../fields/patterns.js';
import { accessTokenFilters, sshKeyFilters } from './filters.js';

// The inventory routes take the group's id or full path, like every `/groups/:id` route that no
// table limits to the integer id (rest-v4-api.md convention 4): a group looked up by path sends them early.

/** The group's credentials inventory, spread into the Group resolvers. */
const groupCredentialsInventoryFields: Pick<GroupResolvers, 'managedPersonalAccessTokens' | 'managedResourceAccessTokens' | 'managedSshKeys'> = {
  managedPersonalAccessTokens: restListField('GET /groups/:id/manage/personal_access_tokens', { filters: accessTokenFilters }),
  managedResourceAccessTokens: restListField('GET /groups/:id/manage/resource_access_tokens', { filters: accessTokenFilters }),
  managedSshKeys: restListField('GET /groups/:id/manage/ssh_keys', { filters: sshKeyFilters }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Group: groupCredentialsInventoryFields };
