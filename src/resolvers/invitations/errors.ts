import { GraphQLError } from 'graphql';
import type { InvitationSource } from '../../datasources/invitations.js';
import { RestError } from '../../datasources/rest-error.js';
import { graphQLErrorFromRest } from '../../errors/graphql-errors.js';
import { describeSource } from './source.js';

/**
 * The REST statuses of an invitation's update and delete (rest-v4-api.md "Errors": 404 authorized
 * but no invitation for that address, 403 not allowed, 409 could not be deleted), as errors that say
 * which case it is. The code and REST's own status and message stay those of the error table.
 */
function sentenceFor(error: RestError, source: InvitationSource, email: string): string | undefined {
  const where = describeSource(source);
  switch (error.status) {
    case 404:
      // "404 Group Not Found" / "404 Project Not Found": the source itself is missing or hidden.
      return /\b(group|project)\b/i.test(error.reason)
        ? `The ${where} does not exist, or is not visible to this credential.`
        : `The ${where} has no pending invitation for ${email}.`;
    case 403:
      return `Not allowed to manage the invitations of the ${where}: that takes the Owner role in a group or Maintainer in a project.`;
    case 409:
      return `The invitation for ${email} to the ${where} could not be deleted; try again later.`;
    default:
      return undefined;
  }
}

export function explainInvitationError(error: unknown, source: InvitationSource, email: string): unknown {
  if (!(error instanceof RestError)) return error;
  const sentence = sentenceFor(error, source, email);
  if (!sentence) return error;
  return new GraphQLError(sentence, { extensions: { ...graphQLErrorFromRest(error).extensions } });
}
