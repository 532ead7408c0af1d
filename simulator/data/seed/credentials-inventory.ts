// The demo credentials inventory (GitLab.com's, issue 3): `opensource` (owned by the demo
// maintainer) has three enterprise users with personal access tokens and SSH keys, and group and
// project access tokens in its hierarchy; a few credentials outside it show what the lists leave
// out. Token values look like real ones (`glpat-` and 20 characters) and are real credentials of
// the simulator: an active token authenticates its user, a rotated one stops working.
import { AccessLevel, type Membership, type SshKey, type SshKeyUsage, type TokenScope, type User } from '../model.js';
import { publicKeyLine, type SshKeyType } from '../ssh-keys.js';
import type { Rng } from '../rng.js';
import type { SimulatorState } from '../state.js';
import { USER_IDS } from './users.js';

/** `opensource`: a top-level group whose Owner is the demo maintainer. */
export const INVENTORY_GROUP_ID = 9;

const ENTERPRISE_USERS = [USER_IDS.carol, USER_IDS.erin, USER_IDS.frank];

type TokenSeed = [userId: number, name: string, description: string, scopes: TokenScope[], createdAt: string, lastUsedAt: string | null, expiresAt: string | null, revoked: boolean];

// The clock is 2025-06-01: "Old laptop" has expired, "Registry pull" was revoked.
const PERSONAL_TOKENS: TokenSeed[] = [
  [USER_IDS.carol, 'Release pipeline', 'Publishes tagged releases', ['api'], '2024-11-02T09:15:00.000Z', '2025-05-30T17:42:10.000Z', '2025-11-02', false],
  [USER_IDS.carol, 'Docs preview', '', ['read_api'], '2025-01-15T10:00:00.000Z', null, '2025-07-15', false],
  [USER_IDS.carol, 'Old laptop', 'Replaced in March', ['api'], '2024-03-01T08:30:00.000Z', '2024-09-01T12:00:00.000Z', '2025-03-01', false],
  // Erin's everyday token: she is also a Maintainer of opensource, which lets tests act as her.
  [USER_IDS.erin, 'Workstation', 'Daily use', ['api'], '2025-02-10T14:05:00.000Z', '2025-05-31T08:12:44.000Z', '2026-02-10', false],
  [USER_IDS.erin, 'Registry pull', 'Leaked in a CI log', ['read_registry'], '2025-04-01T09:00:00.000Z', '2025-04-02T09:00:00.000Z', '2025-10-01', true],
  [USER_IDS.frank, 'Issue triage script', 'Labels new issues', ['api', 'read_user'], '2025-04-11T16:20:00.000Z', '2025-05-28T06:00:00.000Z', '2025-06-20', false],
  // Not an enterprise user of opensource: never in its inventory.
  [USER_IDS.dave, 'ACME automation', '', ['api'], '2025-03-03T12:00:00.000Z', null, '2025-12-31', false],
];

type BotSeed = [source: Membership['source'], accessLevel: number, name: string, description: string, scopes: TokenScope[], createdAt: string, lastUsedAt: string | null, expiresAt: string | null];

const BOT_TOKENS: BotSeed[] = [
  [{ kind: 'group', groupId: 9 }, AccessLevel.MAINTAINER, 'Release automation', 'Tags releases', ['api', 'write_repository'], '2025-01-20T11:00:00.000Z', '2025-05-31T22:10:00.000Z', '2026-01-20'],
  // opensource/awesome-lib
  [{ kind: 'project', projectId: 23 }, AccessLevel.DEVELOPER, 'Package publishing', '', ['read_registry', 'write_registry'], '2025-02-14T08:00:00.000Z', '2025-05-29T13:30:00.000Z', '2025-08-14'],
  // opensource/tools/linter, two levels down; expired.
  [{ kind: 'project', projectId: 26 }, AccessLevel.REPORTER, 'Dependency scanner', 'Old scanner', ['read_api'], '2024-05-01T10:00:00.000Z', '2024-12-01T10:00:00.000Z', '2025-05-01'],
  // gitlab-org/gitlab: outside opensource's hierarchy.
  [{ kind: 'project', projectId: 1 }, AccessLevel.DEVELOPER, 'Mirror sync', '', ['read_repository'], '2025-03-10T07:00:00.000Z', null, '2025-09-10'],
];

type KeySeed = [userId: number, type: SshKeyType, title: string, usage: SshKeyUsage, createdAt: string, expiresAt: string | null, lastUsedAt: string | null];

const ENTERPRISE_KEYS: KeySeed[] = [
  [USER_IDS.carol, 'ssh-ed25519', 'carol@design-mbp', 'auth_and_signing', '2024-12-23T05:40:11.891Z', null, '2025-05-30T09:00:00.000Z'],
  [USER_IDS.erin, 'ssh-rsa', 'erin@workstation', 'auth', '2025-02-10T14:10:00.000Z', '2026-02-10T00:00:00.000Z', '2025-05-31T08:00:00.000Z'],
  [USER_IDS.frank, 'ssh-ed25519', 'frank signing key', 'signing', '2025-04-11T16:30:00.000Z', '2025-09-30T00:00:00.000Z', null],
];

/** A bot user as GitLab creates one for a group or project access token: named after the token. */
function botUser(state: SimulatorState, rng: Rng, source: Membership['source'], name: string, createdAt: string): User {
  const id = state.nextId('users');
  const username = source.kind === 'group' ? `group_${source.groupId}_bot_${rng.hex(32)}` : `project_${source.projectId}_bot_${rng.hex(32)}`;
  return {
    id,
    username,
    name,
    email: `${username}@noreply.example.com`,
    state: 'active',
    isAdmin: false,
    createdAt,
    bio: '',
    location: '',
    publicEmail: '',
    websiteUrl: '',
    organization: '',
    jobTitle: '',
    lastSignInAt: null,
    lastActivityOn: null,
    namespaceId: 100 + id,
  };
}

export function seedCredentialsInventory(state: SimulatorState, rng: Rng): void {
  for (const userId of ENTERPRISE_USERS) state.enterpriseGroupIds.set(userId, INVENTORY_GROUP_ID);
  state.memberships.push({ userId: USER_IDS.erin, source: { kind: 'group', groupId: INVENTORY_GROUP_ID }, accessLevel: AccessLevel.MAINTAINER, expiresAt: null });

  let tokenId = 0;
  const addToken = (userId: number, name: string, description: string, scopes: TokenScope[], createdAt: string, lastUsedAt: string | null, expiresAt: string | null, revoked: boolean) => {
    const token = `glpat-${rng.alnum(20)}`;
    state.tokens.set(token, { token, userId, name, scopes, revoked, expiresAt, id: ++tokenId, description, createdAt, lastUsedAt });
  };
  for (const [userId, name, description, scopes, createdAt, lastUsedAt, expiresAt, revoked] of PERSONAL_TOKENS) {
    addToken(userId, name, description, scopes, createdAt, lastUsedAt, expiresAt, revoked);
  }
  for (const [source, accessLevel, name, description, scopes, createdAt, lastUsedAt, expiresAt] of BOT_TOKENS) {
    const bot = botUser(state, rng, source, name, createdAt);
    state.users.set(bot.id, bot);
    state.tokenBots.set(bot.id, source);
    state.memberships.push({ userId: bot.id, source, accessLevel, expiresAt: null });
    addToken(bot.id, name, description, scopes, createdAt, lastUsedAt, expiresAt, false);
  }

  for (const [userId, type, title, usageType, createdAt, expiresAt, lastUsedAt] of ENTERPRISE_KEYS) {
    const material = Buffer.from(Array.from({ length: 256 }, () => rng.int(0, 255)));
    const key: SshKey = { id: state.nextId('sshKeys'), kind: 'ssh', title, key: publicKeyLine(type, material, title.replace(/\s+/g, '-')), userId, createdAt, expiresAt, lastUsedAt, usageType };
    state.sshKeys.set(key.id, key);
  }
}
