import type { PersonalAccessToken, User } from '../model.js';
import type { SimulatorState } from '../state.js';

/** The demo users' personal access tokens (all with the `api` scope). */
export const DEMO_USER_TOKENS = {
  admin: 'glpat-demo-admin',
  maintainer: 'glpat-demo-maintainer',
  developer: 'glpat-demo-developer',
  guest: 'glpat-demo-guest',
  outsider: 'glpat-demo-outsider',
} as const;

/** Extra tokens for the 401/403 token cases of rest-conventions §6.5 and §7 "Scope". */
export const SPECIAL_TOKENS = {
  /** developer, `read_api` only: GET works, writes answer 403 insufficient_scope. */
  readOnly: 'glpat-demo-readonly',
  /** developer, expired: 401 invalid_token "Token is expired...". */
  expired: 'glpat-demo-expired',
  /** guest, revoked: 401 invalid_token "Token was revoked...". */
  revoked: 'glpat-demo-revoked',
} as const;

export const USER_IDS = {
  root: 1,
  maintainer: 2,
  developer: 3,
  guest: 4,
  outsider: 5,
  alice: 6,
  bob: 7,
  carol: 8,
  dave: 9,
  erin: 10,
  frank: 11,
  heidi: 12,
} as const;

type UserSeed = [id: number, username: string, name: string, extra?: Partial<User>];

const USERS: UserSeed[] = [
  [1, 'root', 'Administrator', { isAdmin: true, bio: 'Instance administrator', jobTitle: 'Administrator' }],
  [2, 'maintainer', 'Maria Maintainer', { location: 'Lisbon', jobTitle: 'Staff Engineer', status: { emoji: 'palm_tree', message: 'On leave until Monday', availability: 'busy', clearStatusAt: '2025-06-02T08:00:00.000Z' } }],
  [3, 'developer', 'Dan Developer', { location: 'Berlin', jobTitle: 'Backend Engineer', status: { emoji: 'coffee', message: 'Reviewing **merge requests**', availability: 'not_set', clearStatusAt: null } }],
  [4, 'guest', 'Grace Guest', { location: 'Toronto' }],
  [5, 'outsider', 'Oscar Outsider', { bio: 'Signed in, member of nothing' }],
  [6, 'alice', 'Alice Anderson', { organization: 'ACME Corp', jobTitle: 'CTO' }],
  [7, 'bob', 'Bob Baker', { location: 'Melbourne' }],
  [8, 'carol', 'Carol Chen', { jobTitle: 'Product Designer', websiteUrl: 'https://carol.example.com' }],
  [9, 'dave', 'Dave Dubois', { jobTitle: 'SRE' }],
  [10, 'erin', 'Erin Eriksen', { location: 'Oslo' }],
  [11, 'frank', 'Frank Fischer', {}],
  [12, 'heidi', 'Heidi Hall', { state: 'blocked' }],
];

export function seedUsers(state: SimulatorState): void {
  for (const [id, username, name, extra] of USERS) {
    const user: User = {
      id,
      username,
      name,
      email: `${username}@example.com`,
      state: 'active',
      isAdmin: false,
      createdAt: new Date(Date.UTC(2023, 0, 10 + id, 9, 30, 0)).toISOString(),
      bio: '',
      location: '',
      publicEmail: id <= 4 ? `${username}@example.com` : '',
      websiteUrl: '',
      organization: '',
      jobTitle: '',
      lastSignInAt: new Date(Date.UTC(2025, 4, 20 + (id % 10), 8, id, 0)).toISOString(),
      lastActivityOn: `2025-05-${String(20 + (id % 10)).padStart(2, '0')}`,
      namespaceId: 100 + id,
      ...extra,
    };
    state.users.set(id, user);
  }

  const token = (value: string, userId: number, extra: Partial<PersonalAccessToken> = {}) => {
    state.tokens.set(value, { token: value, userId, name: 'demo', scopes: ['api'], revoked: false, expiresAt: null, ...extra });
  };
  token(DEMO_USER_TOKENS.admin, USER_IDS.root, { scopes: ['api', 'sudo'] });
  token(DEMO_USER_TOKENS.maintainer, USER_IDS.maintainer);
  token(DEMO_USER_TOKENS.developer, USER_IDS.developer);
  token(DEMO_USER_TOKENS.guest, USER_IDS.guest);
  token(DEMO_USER_TOKENS.outsider, USER_IDS.outsider);
  token(SPECIAL_TOKENS.readOnly, USER_IDS.developer, { scopes: ['read_api'] });
  token(SPECIAL_TOKENS.expired, USER_IDS.developer, { expiresAt: '2025-01-01' });
  token(SPECIAL_TOKENS.revoked, USER_IDS.guest, { revoked: true });
}
