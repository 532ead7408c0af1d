// The credentials inventory of GitLab.com (doc/api/groups.md "Credentials inventory management";
// ee/lib/api/manage/groups.rb): who counts as a group's enterprise user or token bot, which tokens
// the token lists show, and the rotation of a token (PersonalAccessTokens::RotateService).
import type { Group, Membership, PersonalAccessToken, User } from './model.js';
import type { SimulatorState } from './state.js';
import { newToken } from './tokens.js';

/** A token the token lists show: one with an id, a description and dates. */
export type ListedToken = PersonalAccessToken & Required<Pick<PersonalAccessToken, 'id' | 'description' | 'createdAt' | 'lastUsedAt'>>;

export function isListed(token: PersonalAccessToken): token is ListedToken {
  return token.id !== undefined && token.description !== undefined && token.createdAt !== undefined && token.lastUsedAt !== undefined;
}

export function listedTokens(state: SimulatorState): ListedToken[] {
  return [...state.tokens.values()].filter(isListed);
}

export function listedTokenById(state: SimulatorState, id: number): ListedToken | undefined {
  return listedTokens(state).find((token) => token.id === id);
}

/** The simulator clock's day, `YYYY-MM-DD`. */
export function today(state: SimulatorState): string {
  return state.now.toISOString().slice(0, 10);
}

/** Usable: not revoked, and not past its expiry day (the rule of http/auth.ts). */
export function isActive(state: SimulatorState, token: PersonalAccessToken): boolean {
  return !token.revoked && (token.expiresAt === null || token.expiresAt >= today(state));
}

/** `user_group.enterprise_users`: enterprise users belong to a top-level group only. */
export function isEnterpriseUserOf(state: SimulatorState, userId: number, group: Group): boolean {
  return state.enterpriseGroupIds.get(userId) === group.id;
}

/** The top-level group of the group or project a bot serves. */
function rootGroupOf(state: SimulatorState, source: Membership['source']): Group | undefined {
  const groupId = source.kind === 'group' ? source.groupId : namespaceGroupId(state, source.projectId);
  const group = groupId === undefined ? undefined : state.groups.get(groupId);
  return group ? (state.groupAncestors(group).at(-1) ?? group) : undefined;
}

function namespaceGroupId(state: SimulatorState, projectId: number): number | undefined {
  const namespace = state.projects.get(projectId)?.namespace;
  return namespace?.kind === 'group' ? namespace.groupId : undefined;
}

/** Whether the group or project a bot serves lies in the group or below it. */
export function servesWithin(state: SimulatorState, source: Membership['source'], group: Group): boolean {
  const groupId = source.kind === 'group' ? source.groupId : namespaceGroupId(state, source.projectId);
  return groupId !== undefined && state.groupSubtree(group).some((candidate) => candidate.id === groupId);
}

/** `validate_bot_tokens`: the token's resource must sit under this top-level group. */
export function servesUnderRoot(state: SimulatorState, source: Membership['source'], root: Group): boolean {
  return rootGroupOf(state, source)?.id === root.id;
}

function sameSource(a: Membership['source'], b: Membership['source']): boolean {
  return a.kind === 'group' ? b.kind === 'group' && a.groupId === b.groupId : b.kind === 'project' && a.projectId === b.projectId;
}

/** The role a bot holds in the group or project it serves (its token's `access_level`). */
export function botAccessLevel(state: SimulatorState, bot: User, source: Membership['source']): number {
  return state.memberships.find((m) => m.userId === bot.id && sameSource(m.source, source))?.accessLevel ?? 0;
}


/** `MAX_PERSONAL_ACCESS_TOKEN_LIFETIME_IN_DAYS`: a new token may expire at most this far ahead. */
const MAX_LIFETIME_DAYS = 365;
/** RotateService::EXPIRATION_PERIOD: the new token's expiry when none is asked for. */
const DEFAULT_LIFETIME_DAYS = 7;

function daysAfter(state: SimulatorState, days: number): string {
  return new Date(state.now.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

export type RotationOutcome = { token: ListedToken } | { refusal: string };

/**
 * PersonalAccessTokens::RotateService: a revoked token cannot be rotated; otherwise the token is
 * revoked and a new one with the same user, name, description and scopes takes its place, expiring
 * on `expiresAt` (at most a year ahead) or in a week. The old value stops authenticating at once.
 */
export function rotateToken(state: SimulatorState, token: ListedToken, expiresAt: string | undefined): RotationOutcome {
  if (token.revoked) return { refusal: 'Token already revoked' };
  const latest = daysAfter(state, MAX_LIFETIME_DAYS);
  if (expiresAt !== undefined && expiresAt > latest) return { refusal: `Expires at must be before ${latest}` };
  token.revoked = true;
  const id = Math.max(0, ...listedTokens(state).map((listed) => listed.id)) + 1;
  const rotated: ListedToken = {
    token: newToken('glpat-'),
    userId: token.userId,
    name: token.name,
    scopes: [...token.scopes],
    revoked: false,
    expiresAt: expiresAt ?? daysAfter(state, DEFAULT_LIFETIME_DAYS),
    id,
    description: token.description,
    createdAt: state.now.toISOString(),
    lastUsedAt: null,
  };
  state.tokens.set(rotated.token, rotated);
  return { token: rotated };
}
