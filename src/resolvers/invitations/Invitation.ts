import type { InvitationResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { toGlobalId } from '../global-id.js';

export const Invitation: InvitationResolvers = {
  // GitLab's class of a pending membership: GroupMember or ProjectMember.
  id: (invitation) =>
    invitation.id === undefined ? null : toGlobalId(invitation.source_kind === 'group' ? 'GroupMember' : 'ProjectMember', invitation.id),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Invitation };
