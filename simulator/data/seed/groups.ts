import { AccessLevel, type Group, type Visibility } from '../model.js';
import type { SimulatorState } from '../state.js';
import { USER_IDS } from './users.js';

const { GUEST, REPORTER, DEVELOPER, MAINTAINER, OWNER } = AccessLevel;

type GroupSeed = [id: number, parentId: number | null, path: string, name: string, visibility: Visibility, description: string];

// Four levels deep under gitlab-org; acme is private all the way down; secret-lab has no demo member.
const GROUPS: GroupSeed[] = [
  [1, null, 'gitlab-org', 'GitLab.org', 'public', 'Open source software to collaborate on code'],
  [2, 1, 'frontend', 'Frontend', 'public', 'Everything that runs in the browser'],
  [3, 1, 'backend', 'Backend', 'internal', 'Rails, Go and the services behind them'],
  [4, 3, 'services', 'Services', 'internal', 'Independently deployed services'],
  [5, 4, 'billing', 'Billing', 'private', 'Invoices and payments'],
  [6, null, 'acme', 'ACME Corp', 'private', 'ACME internal engineering'],
  [7, 6, 'platform', 'Platform', 'private', 'Shared platform team'],
  [8, 7, 'infra', 'Infrastructure', 'private', 'Terraform, Ansible and Kubernetes'],
  [9, null, 'opensource', 'Open Source', 'public', 'Community projects'],
  [10, 9, 'tools', 'Tools', 'public', 'Developer tooling'],
  [11, null, 'design', 'Design', 'internal', 'Brand and product design'],
  [12, null, 'secret-lab', 'Secret Lab', 'private', 'Nothing to see here'],
];

type MemberSeed = [userId: number, groupId: number, accessLevel: number];

const U = USER_IDS;
const GROUP_MEMBERS: MemberSeed[] = [
  [U.root, 1, OWNER],
  // The demo users hold the role their name says in most groups (inherited by subgroups and projects).
  [U.maintainer, 1, MAINTAINER],
  [U.maintainer, 6, MAINTAINER],
  [U.maintainer, 9, OWNER], // ... and the maintainer user owns one group
  [U.maintainer, 11, MAINTAINER],
  [U.developer, 1, DEVELOPER],
  [U.developer, 6, DEVELOPER],
  [U.developer, 9, DEVELOPER],
  [U.developer, 11, DEVELOPER],
  [U.guest, 1, GUEST],
  [U.guest, 6, GUEST],
  [U.guest, 9, GUEST],
  [U.guest, 11, GUEST],
  [U.alice, 6, OWNER],
  [U.alice, 12, OWNER],
  [U.alice, 1, REPORTER],
  [U.bob, 2, MAINTAINER],
  [U.bob, 3, DEVELOPER],
  [U.carol, 11, OWNER],
  [U.carol, 10, DEVELOPER],
  [U.dave, 8, MAINTAINER],
  [U.dave, 12, REPORTER],
  [U.erin, 4, DEVELOPER],
  [U.frank, 9, GUEST],
  [U.heidi, 1, DEVELOPER],
];

export function seedGroups(state: SimulatorState): void {
  for (const [id, parentId, path, name, visibility, description] of GROUPS) {
    const group: Group = {
      id,
      name,
      path,
      parentId,
      description,
      visibility,
      createdAt: new Date(Date.UTC(2023, 1, id, 10, 0, 0, 123)).toISOString(),
      runnersToken: `GR1348941-demo-group-${id}`,
      sharedWithGroups: [],
      requestAccessEnabled: visibility !== 'private',
      shareWithGroupLock: false,
      requireTwoFactorAuthentication: false,
      twoFactorGracePeriod: 48,
      projectCreationLevel: 'developer',
      subgroupCreationLevel: 'maintainer',
      autoDevopsEnabled: null,
      emailsDisabled: null,
      mentionsDisabled: null,
      lfsEnabled: true,
      defaultBranchProtection: 2,
      fileTemplateProjectId: null,
    };
    state.groups.set(id, group);
  }
  // Group sharing: design members get (at most) Reporter in gitlab-org/frontend.
  state.groups.get(2)?.sharedWithGroups.push({ groupId: 11, accessLevel: REPORTER, expiresAt: null });
  // ... and opensource members get (at most) Developer in design.
  state.groups.get(11)?.sharedWithGroups.push({ groupId: 9, accessLevel: DEVELOPER, expiresAt: '2026-12-31' });

  // Custom attributes, which only administrators see and filter by.
  const attributes: [groupId: number, attributes: Array<[key: string, value: string]>][] = [
    [1, [['department', 'engineering'], ['cost_center', '1000']]],
    [6, [['department', 'sales']]],
    [9, [['department', 'engineering']]],
    [10, [['cost_center', '1000']]],
  ];
  for (const [groupId, pairs] of attributes) {
    const group = state.groups.get(groupId);
    if (group) group.customAttributes = pairs.map(([key, value]) => ({ key, value }));
  }

  for (const [userId, groupId, accessLevel] of GROUP_MEMBERS) {
    state.memberships.push({ userId, source: { kind: 'group', groupId }, accessLevel, expiresAt: null });
  }
}
