// An invitation as GET/PUT .../invitations return it (fixtures/invitations/list-pending-invitations.json;
// GitLab's Entities::Invitation). A pending invitation has no user yet, so `user_name` is null.
import type { Invitation } from '../data/model.js';
import type { PresentContext } from './context.js';

export function invitationEntity(ctx: PresentContext, invitation: Invitation) {
  return {
    id: invitation.id,
    invite_email: invitation.email,
    created_at: invitation.createdAt,
    access_level: invitation.accessLevel,
    expires_at: invitation.expiresAt,
    user_name: null,
    created_by_name: ctx.state.users.get(invitation.createdById)?.name ?? null,
  };
}
