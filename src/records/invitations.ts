// The record GraphQL's Invitation resolves from (codegen.ts maps the type to it), and its builder.
// The generated resolver types import this module, so it imports only data sources.
import type { InvitationSchema, InvitationSource } from '../datasources/invitations.js';
import { withFields } from '../datasources/with-fields.js';

/**
 * An invitation with the kind of its source, which REST leaves out of the record but the global ID
 * needs (`gid://gitlab/GroupMember/<id>` or `ProjectMember`).
 */
export type InvitationRecord = InvitationSchema & { source_kind: InvitationSource['kind'] };

export function invitationRecord(invitation: InvitationSchema, source: InvitationSource): InvitationRecord {
  return withFields(invitation, { source_kind: source.kind });
}
