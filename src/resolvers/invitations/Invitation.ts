import type { InvitationResolvers } from '../../__generated__/resolvers-types.js';
import { toGlobalId } from '../global-id.js';

export const Invitation: InvitationResolvers = {
  // GitLab's class of a pending membership: GroupMember or ProjectMember.
  id: (invitation) =>
    invitation.id === undefined ? null : toGlobalId(invitation.source_kind === 'group' ? 'GroupMember' : 'ProjectMember', invitation.id),
};
