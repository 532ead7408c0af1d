// The group credentials inventory of GitLab.com (doc/api/groups.md "Credentials inventory
// management", ee/lib/api/manage/groups.rb): `/groups/:id/manage/...`, for the group's Owners.
// Not to be confused with credentials.ts, the caller's own credential.
import { restPath } from './path.js';
import type { RestSession } from './rest-client.js';

/** A personal access token as the inventory lists it (REST `Entities::PersonalAccessToken`). */
export interface PersonalAccessTokenSchema {
  id: number;
  name?: string;
  description?: string | null;
  scopes?: string[];
  revoked?: boolean;
  active?: boolean;
  created_at?: string;
  last_used_at?: string | null;
  /** `YYYY-MM-DD` or null. */
  expires_at?: string | null;
  user_id?: number;
}

/** A group or project access token (REST `Entities::ResourceAccessToken`): a bot user's token. */
export interface ResourceAccessTokenSchema extends PersonalAccessTokenSchema {
  access_level?: number;
  resource_type?: 'group' | 'project';
  resource_id?: number;
}

/** What a rotation answers: the new token's record and, this once, its secret value. */
export type WithTokenValue<T> = T & { token?: string };

/** An enterprise user's SSH key (REST `Entities::SshKeyWithUserId`: no public key text). */
export interface EnterpriseUserSshKeySchema {
  id: number;
  title?: string;
  created_at?: string;
  expires_at?: string | null;
  last_used_at?: string | null;
  usage_type?: string;
  user_id?: number;
}

/** The filters both token lists take (`access_token_params` of API::Helpers::PersonalAccessTokensHelpers). */
export interface AccessTokenFilters {
  created_after?: string;
  created_before?: string;
  last_used_after?: string;
  last_used_before?: string;
  /** `YYYY-MM-DD`. */
  expires_after?: string;
  /** `YYYY-MM-DD`. */
  expires_before?: string;
  revoked?: boolean;
  state?: string;
  search?: string;
  sort?: string;
}

export interface SshKeyFilters {
  created_after?: string;
  created_before?: string;
  expires_after?: string;
  expires_before?: string;
}

/** A group's numeric id or its full path (the mutations name groups by path). */
type GroupRef = number | string;

/** REST `/groups/:id/manage/.../rotate` (the lists are declared by their fields: resolvers/credentials-inventory/Group.ts). */
export class CredentialsInventoryApi {
  constructor(private readonly rest: RestSession) {}

  /** Revokes the token and creates its successor; `expiresAt` (`YYYY-MM-DD`) defaults to one week. */
  async rotatePersonalAccessToken(
    group: GroupRef,
    tokenId: number,
    expiresAt?: string,
  ): Promise<WithTokenValue<PersonalAccessTokenSchema>> {
    const path = restPath`/groups/${group}/manage/personal_access_tokens/${tokenId}/rotate`;
    return (await this.rest.post<WithTokenValue<PersonalAccessTokenSchema>>(path, expiresAt ? { expires_at: expiresAt } : {})).body;
  }

  async rotateResourceAccessToken(
    group: GroupRef,
    tokenId: number,
    expiresAt?: string,
  ): Promise<WithTokenValue<ResourceAccessTokenSchema>> {
    const path = restPath`/groups/${group}/manage/resource_access_tokens/${tokenId}/rotate`;
    return (await this.rest.post<WithTokenValue<ResourceAccessTokenSchema>>(path, expiresAt ? { expires_at: expiresAt } : {})).body;
  }
}
