import type { GroupResolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';
import { accessTokenFilters, sshKeyFilters } from './filters.js';

/** The group's credentials inventory, spread into the Group resolvers. */
export const groupCredentialsInventoryFields: Pick<
  GroupResolvers,
  'managedPersonalAccessTokens' | 'managedResourceAccessTokens' | 'managedSshKeys'
> = {
  managedPersonalAccessTokens(group, args, { api }) {
    const filters = accessTokenFilters(args);
    return restConnection(args, (page) => api.credentialsInventory.allPersonalAccessTokens(group.id, filters, page));
  },
  managedResourceAccessTokens(group, args, { api }) {
    const filters = accessTokenFilters(args);
    return restConnection(args, (page) => api.credentialsInventory.allResourceAccessTokens(group.id, filters, page));
  },
  managedSshKeys(group, args, { api }) {
    const filters = sshKeyFilters(args);
    return restConnection(args, (page) => api.credentialsInventory.allSshKeys(group.id, filters, page));
  },
};
