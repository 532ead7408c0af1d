import type { AccessLevelEnum, MutationResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import type { InvitationChanges, InvitationCreateResultSchema, InvitationSource } from '../../datasources/invitations.js';
import { oneCall } from '../../cost/field-cost.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import { invitationRecord } from '../../records/invitations.js';
import { refusalReasons } from '../refusals.js';
import { explainInvitationError } from './errors.js';
import { invitationSource } from './source.js';

/** The most addresses one REST call may invite (Members::CreateService's limit). */
const MAX_ADDRESSES = 100;
// REST takes several addresses as one comma-separated `email`: a comma inside one would split it.
const EMAIL = /^[^@\s,]+@[^@\s,]+$/;
const NO_ACCESS: AccessLevelEnum = 0;
const OWNER: AccessLevelEnum = 50;

/** The role an invitation grants: never no access, and Owner only in groups (rest-v4-api.md "Access levels"). */
function checkRole(accessLevel: AccessLevelEnum, source: InvitationSource): number {
  if (accessLevel === NO_ACCESS) throw badUserInput('`accessLevel` NO_ACCESS grants nothing; give a role.', 'accessLevel');
  if (accessLevel === OWNER && source.kind === 'project') {
    throw badUserInput('`accessLevel` OWNER is valid only for groups.', 'accessLevel');
  }
  return accessLevel;
}

function checkEmail(email: string, argumentName: string): string {
  const trimmed = email.trim();
  if (!EMAIL.test(trimmed)) throw badUserInput(`\`${argumentName}\` must hold e-mail addresses; got "${email.slice(0, 100)}".`, argumentName);
  return trimmed;
}

/** The addresses, checked and without repeats (case-insensitively, as REST compares them). */
function checkEmails(emails: ReadonlyArray<string>): string[] {
  const unique = new Map<string, string>();
  for (const email of emails) {
    const checked = checkEmail(email, 'emails');
    if (!unique.has(checked.toLowerCase())) unique.set(checked.toLowerCase(), checked);
  }
  if (unique.size === 0) throw badUserInput('`emails` must hold at least one address.', 'emails');
  if (unique.size > MAX_ADDRESSES) throw badUserInput(`\`emails\` holds at most ${MAX_ADDRESSES} addresses; got ${unique.size}.`, 'emails');
  return [...unique.values()];
}

function outcomes(entries: Record<string, string> | undefined) {
  return Object.entries(entries ?? {}).map(([email, reason]) => ({ email, reason: String(reason) }));
}

/**
 * REST's answer as the payload: per-address refusals are data; the addresses neither refused nor
 * queued went through. A `message` that is a sentence concerns the whole request, so nothing can be
 * said of single addresses.
 */
function createPayload(clientMutationId: string | null, emails: string[], result: InvitationCreateResultSchema) {
  if (result.status === 'error' && typeof result.message === 'string') {
    return { clientMutationId, errors: [result.message], invited: [], failed: [], queued: [] };
  }
  const failed = result.status === 'error' && result.message && typeof result.message === 'object' ? outcomes(result.message) : [];
  const queued = outcomes(result.queued_users);
  const settled = new Set([...failed, ...queued].map((outcome) => outcome.email.toLowerCase()));
  return { clientMutationId, errors: [], invited: emails.filter((email) => !settled.has(email.toLowerCase())), failed, queued };
}

const invitationMutations: Pick<MutationResolvers, 'invitationCreate' | 'invitationUpdate' | 'invitationDelete'> = {
  invitationCreate: declared({ ...oneCall(), rest: ['POST /groups/:id/invitations', 'POST /projects/:id/invitations'] }, async (_parent, { input }, { api }) => {
    const source = invitationSource(input);
    const emails = checkEmails(input.emails);
    const accessLevel = checkRole(input.accessLevel, source);
    const result = await api.invitations.create(source, { emails, accessLevel, expiresAt: input.expiresAt ?? undefined });
    return createPayload(input.clientMutationId ?? null, emails, result);
  }),

  invitationUpdate: declared({ ...oneCall(), rest: ['PUT /groups/:id/invitations/:email', 'PUT /projects/:id/invitations/:email'] }, async (_parent, { input }, { api }) => {
    const source = invitationSource(input);
    const email = checkEmail(input.email, 'email');
    const changes: InvitationChanges = {};
    if (input.accessLevel !== null && input.accessLevel !== undefined) changes.access_level = checkRole(input.accessLevel, source);
    if (input.expiresAt !== null && input.expiresAt !== undefined) changes.expires_at = input.expiresAt;
    if (Object.keys(changes).length === 0) throw badUserInput('Give `accessLevel`, `expiresAt` or both.', 'input');
    const clientMutationId = input.clientMutationId ?? null;
    try {
      const updated = await api.invitations.edit(source, email, changes);
      // The documented answer carries only `expires_at` and `access_level`: the address is the input's.
      return { clientMutationId, errors: [], invitation: invitationRecord({ invite_email: email, ...updated }, source) };
    } catch (error) {
      const reasons = refusalReasons(error);
      if (reasons) return { clientMutationId, errors: reasons, invitation: null };
      throw explainInvitationError(error, source, email);
    }
  }),

  invitationDelete: declared({ ...oneCall(), rest: ['DELETE /groups/:id/invitations/:email', 'DELETE /projects/:id/invitations/:email'] }, async (_parent, { input }, { api }) => {
    const source = invitationSource(input);
    const email = checkEmail(input.email, 'email');
    try {
      await api.invitations.remove(source, email);
    } catch (error) {
      throw explainInvitationError(error, source, email);
    }
    return { clientMutationId: input.clientMutationId ?? null, errors: [] };
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Mutation: invitationMutations };
