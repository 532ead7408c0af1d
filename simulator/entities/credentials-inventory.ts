// Credentials inventory shapes (fixtures/gitlab-docs/groups/*-group-managed-*.json): tokens without
// their value, except the one answer of a rotation; SSH keys with their user's id, without the key.
import { botAccessLevel, isActive, type ListedToken } from '../data/credentials-inventory.js';
import type { SshKey } from '../data/model.js';
import type { SimulatorState } from '../data/state.js';

/** `Entities::PersonalAccessToken`. */
export function personalAccessTokenEntity(state: SimulatorState, token: ListedToken) {
  return {
    id: token.id,
    name: token.name,
    revoked: token.revoked,
    created_at: token.createdAt,
    description: token.description,
    scopes: token.scopes,
    user_id: token.userId,
    last_used_at: token.lastUsedAt,
    active: isActive(state, token),
    expires_at: token.expiresAt,
  };
}

/** `Entities::ResourceAccessToken`: a bot's token with the role and the group or project it serves. */
export function resourceAccessTokenEntity(state: SimulatorState, token: ListedToken) {
  const source = state.tokenBots.get(token.userId);
  const bot = state.users.get(token.userId);
  return {
    ...personalAccessTokenEntity(state, token),
    access_level: bot && source ? botAccessLevel(state, bot, source) : 0,
    resource_type: source?.kind ?? null,
    resource_id: source ? (source.kind === 'group' ? source.groupId : source.projectId) : null,
  };
}

/** `Entities::PersonalAccessTokenWithToken` and its resource variant: the value, this once. */
export function withTokenValue<T extends object>(entity: T, token: ListedToken): T & { token: string } {
  return { ...entity, token: token.token };
}

/** `Entities::SshKeyWithUserId`. */
export function enterpriseSshKeyEntity(key: SshKey) {
  return {
    id: key.id,
    title: key.title,
    created_at: key.createdAt,
    expires_at: key.expiresAt,
    last_used_at: key.lastUsedAt,
    usage_type: key.usageType,
    user_id: key.userId,
  };
}
