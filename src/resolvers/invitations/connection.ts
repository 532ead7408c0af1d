import { restConnection, type Connection, type PageFetcher } from '../../connections/connection.js';
import type { ConnectionArgs } from '../../connections/window.js';
import type { InvitationSchema, InvitationSource } from '../../datasources/invitations.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { invitationRecord, type InvitationRecord } from '../../records/invitations.js';
import type { ParentList } from '../lookahead.js';

export interface InvitationListArgs {
  query?: string | null;
}

/** `query` must match an address exactly, as REST has it; a blank one is refused. */
function invitationFilters(args: InvitationListArgs): { query: string | undefined } {
  if (args.query !== null && args.query !== undefined && !args.query.trim()) {
    throw badUserInput('`query` must be an e-mail address; leave it out to list every invitation.', 'query');
  }
  return { query: args.query ?? undefined };
}

/** The pending invitations of a group or project, a list REST addresses by its id or full path alike. */
export function invitationList(kind: InvitationSource['kind']): ParentList<InvitationListArgs, { query: string | undefined }, InvitationSchema> {
  return {
    filters: invitationFilters,
    page: (api, idOrPath, filters, page) => api.invitations.all({ kind, idOrPath }, filters.query, page),
  };
}

/** The connection over those invitations, each record told its source. */
export function invitationConnection(args: ConnectionArgs, source: InvitationSource, pages: PageFetcher<InvitationSchema>): Promise<Connection<InvitationRecord>> {
  return restConnection(args, async (page) => {
    const result = await pages(page);
    return { ...result, items: result.items.map((invitation) => invitationRecord(invitation, source)) };
  });
}
