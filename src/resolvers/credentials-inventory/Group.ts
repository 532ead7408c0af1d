import type { GroupResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';
import type {
  AccessTokenFilters,
  EnterpriseUserSshKeySchema,
  PersonalAccessTokenSchema,
  ResourceAccessTokenSchema,
  SshKeyFilters,
} from '../../datasources/credentials-inventory.js';
import { listField, type ParentList } from '../lookahead.js';
import { accessTokenFilters, sshKeyFilters, type AccessTokenListArgs, type SshKeyListArgs } from './filters.js';

// The inventory routes take the group's id or full path, like every `/groups/:id` route that no
// table limits to the integer id (rest-v4-api.md convention 4): a group looked up by path sends them early.
const personalAccessTokenList: ParentList<AccessTokenListArgs, AccessTokenFilters, PersonalAccessTokenSchema> = {
  filters: (args) => accessTokenFilters(args),
  page: (api, group, filters, page) => api.credentialsInventory.allPersonalAccessTokens(group, filters, page),
};
const resourceAccessTokenList: ParentList<AccessTokenListArgs, AccessTokenFilters, ResourceAccessTokenSchema> = {
  filters: (args) => accessTokenFilters(args),
  page: (api, group, filters, page) => api.credentialsInventory.allResourceAccessTokens(group, filters, page),
};
const sshKeyList: ParentList<SshKeyListArgs, SshKeyFilters, EnterpriseUserSshKeySchema> = {
  filters: (args) => sshKeyFilters(args),
  page: (api, group, filters, page) => api.credentialsInventory.allSshKeys(group, filters, page),
};

/** The group's credentials inventory, spread into the Group resolvers. */
const groupCredentialsInventoryFields: Pick<
  GroupResolvers,
  'managedPersonalAccessTokens' | 'managedResourceAccessTokens' | 'managedSshKeys'
> = {
  managedPersonalAccessTokens: listField(personalAccessTokenList, (pages, args) => restConnection(args, pages)),
  managedResourceAccessTokens: listField(resourceAccessTokenList, (pages, args) => restConnection(args, pages)),
  managedSshKeys: listField(sshKeyList, (pages, args) => restConnection(args, pages)),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Group: groupCredentialsInventoryFields };
