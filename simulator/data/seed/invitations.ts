import { AccessLevel, type Invitation } from '../model.js';
import type { SimulatorState } from '../state.js';
import { USER_IDS } from './users.js';

type InvitationSeed = [source: Invitation['source'], email: string, accessLevel: number, createdById: number, expiresAt: string | null];

// Pending invitations by e-mail: two on a public group, one on a private one, one on a project the
// maintainer user manages and one on the project the developer user maintains. None of these
// addresses belongs to a user, as for real pending invitations.
const INVITATIONS: InvitationSeed[] = [
  [{ kind: 'group', groupId: 1 }, 'new.hire@example.com', AccessLevel.DEVELOPER, USER_IDS.root, null],
  [{ kind: 'group', groupId: 1 }, 'contractor@example.org', AccessLevel.REPORTER, USER_IDS.root, '2025-12-31T00:00:00Z'],
  [{ kind: 'group', groupId: 6 }, 'auditor@acme.example', AccessLevel.GUEST, USER_IDS.alice, null],
  [{ kind: 'project', projectId: 1 }, 'reviewer@example.net', AccessLevel.DEVELOPER, USER_IDS.maintainer, null],
  [{ kind: 'project', projectId: 6 }, 'designer@example.com', AccessLevel.REPORTER, USER_IDS.developer, '2025-09-30T00:00:00Z'],
];

export function seedInvitations(state: SimulatorState): void {
  INVITATIONS.forEach(([source, email, accessLevel, createdById, expiresAt], index) => {
    const id = 5001 + index;
    state.invitations.set(id, {
      id,
      source,
      email,
      accessLevel,
      expiresAt,
      createdById,
      createdAt: new Date(Date.UTC(2025, 4, 10 + index, 14, 13, 35)).toISOString(),
    });
  });
}
