import type { MutationResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { oneCall } from '../../cost/field-cost.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import { refusalReasons } from '../refusals.js';
import { snippetIdFromGlobalId } from './snippet-id.js';

function storageName(value: string | null | undefined, argumentName: string): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (!value.trim()) throw badUserInput(`\`${argumentName}\` must name a storage, such as \`default\`.`, argumentName);
  return value;
}

const snippetMutations: Pick<MutationResolvers, 'snippetRepositoryStorageMoveCreate' | 'snippetRepositoryStorageMoveScheduleAll'> = {
  snippetRepositoryStorageMoveCreate: declared(
    { ...oneCall(), rest: ['POST /snippets/:snippet_id/repository_storage_moves'] },
    async (_parent, { input }, { api }) => {
      const snippetId = snippetIdFromGlobalId(input.snippetId, 'snippetId');
      const destination = storageName(input.destinationStorageName, 'destinationStorageName');
      const clientMutationId = input.clientMutationId ?? null;
      try {
        return { clientMutationId, errors: [], snippetRepositoryStorageMove: await api.snippets.createStorageMove(snippetId, destination) };
      } catch (error) {
        // The model's refusals (an unknown storage, a move already under way) are outcomes.
        const reasons = refusalReasons(error);
        if (reasons) return { clientMutationId, errors: reasons, snippetRepositoryStorageMove: null };
        throw error;
      }
    },
  ),

  snippetRepositoryStorageMoveScheduleAll: declared(
    { ...oneCall(), rest: ['POST /snippet_repository_storage_moves'] },
    async (_parent, { input }, { api }) => {
      const source = storageName(input.sourceStorageName, 'sourceStorageName')!;
      const destination = storageName(input.destinationStorageName, 'destinationStorageName');
      const { message } = await api.snippets.scheduleAllStorageMoves(source, destination);
      return { clientMutationId: input.clientMutationId ?? null, errors: [], message };
    },
  ),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Mutation: snippetMutations };
