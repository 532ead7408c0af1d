import type { MutationResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { oneCall } from '../../cost/field-cost.js';
import { RestError } from '../../datasources/rest-error.js';
import { declared } from '../../fields/declaration.js';
import { idFromGlobalId } from '../global-id.js';
import { refusalReasons } from '../refusals.js';
import { checkFullPath } from '../projects/Query.js';

/**
 * Why REST refused a rotation, for the payload's `errors`, or null for every other failure (which
 * stays a GraphQL error). The rotate services answer `bad_request!(message)`, "400 Bad request -
 * Token already revoked", or the new token's validation errors the same way (an expiry more than a
 * year away); Grape's own parameter errors (`{"error": ...}`) are the caller's mistake, not a refusal.
 */
function rotationRefusal(error: unknown): string[] | null {
  if (!(error instanceof RestError) || error.status !== 400) return null;
  const reason = typeof error.restMessage === 'string' ? /^400 Bad request - (.+)$/s.exec(error.restMessage.trim())?.[1] : undefined;
  return reason ? [reason] : refusalReasons(error);
}

/**
 * Splits REST's answer into the new token's record and its secret value, so that the value is
 * only ever in the payload's `token` field, never in a record another field could show.
 */
function splitSecret<T extends { token?: string }>(answer: T): { record: Omit<T, 'token'>; token: string | null } {
  const { token, ...record } = answer;
  return { record, token: token ?? null };
}

const credentialsInventoryMutations: Pick<
  MutationResolvers,
  'managedPersonalAccessTokenRotate' | 'managedResourceAccessTokenRotate'
> = {
  managedPersonalAccessTokenRotate: declared({ ...oneCall(), rest: ['POST /groups/:id/manage/personal_access_tokens/:token_id/rotate'] }, async (_parent, { input }, { api }) => {
    const group = checkFullPath(input.groupPath, 'groupPath');
    const tokenId = idFromGlobalId(input.id, 'PersonalAccessToken', 'id');
    const clientMutationId = input.clientMutationId ?? null;
    try {
      const { record, token } = splitSecret(
        await api.credentialsInventory.rotatePersonalAccessToken(group, tokenId, input.expiresAt ?? undefined),
      );
      return { clientMutationId, errors: [], personalAccessToken: record, token };
    } catch (error) {
      const reasons = rotationRefusal(error);
      if (reasons) return { clientMutationId, errors: reasons, personalAccessToken: null, token: null };
      throw error;
    }
  }),

  managedResourceAccessTokenRotate: declared({ ...oneCall(), rest: ['POST /groups/:id/manage/resource_access_tokens/:token_id/rotate'] }, async (_parent, { input }, { api }) => {
    const group = checkFullPath(input.groupPath, 'groupPath');
    const tokenId = idFromGlobalId(input.id, 'PersonalAccessToken', 'id');
    const clientMutationId = input.clientMutationId ?? null;
    try {
      const { record, token } = splitSecret(
        await api.credentialsInventory.rotateResourceAccessToken(group, tokenId, input.expiresAt ?? undefined),
      );
      return { clientMutationId, errors: [], resourceAccessToken: record, token };
    } catch (error) {
      const reasons = rotationRefusal(error);
      if (reasons) return { clientMutationId, errors: reasons, resourceAccessToken: null, token: null };
      throw error;
    }
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Mutation: credentialsInventoryMutations };
