import { restConnection, type Connection } from '../../connections/connection.js';
import type { ConnectionArgs } from '../../connections/window.js';
import type { DataSources } from '../../datasources/index.js';
import type { InvitationSource } from '../../datasources/invitations.js';
import { badUserInput } from '../../errors.js';
import { invitationRecord, type InvitationRecord } from './record.js';

export interface InvitationListArgs extends ConnectionArgs {
  query?: string | null;
}

/** The pending invitations of a group or project; `query` must match an address exactly, as REST has it. */
export function invitationConnection(args: InvitationListArgs, source: InvitationSource, api: DataSources): Promise<Connection<InvitationRecord>> {
  if (args.query !== null && args.query !== undefined && !args.query.trim()) {
    throw badUserInput('`query` must be an e-mail address; leave it out to list every invitation.', 'query');
  }
  const query = args.query ?? undefined;
  return restConnection(args, async (page) => {
    const result = await api.invitations.all(source, query, page);
    return { ...result, items: result.items.map((invitation) => invitationRecord(invitation, source)) };
  });
}
