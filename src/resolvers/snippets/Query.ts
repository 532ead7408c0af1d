import type { QueryResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';
import { oneCall, restList } from '../../cost/field-cost.js';
import { declared } from '../../fields/declaration.js';
import { idFromGlobalId } from '../global-id.js';
import { nullWhenNotFound } from '../lookups.js';
import { snippetIdFromGlobalId } from './snippet-id.js';

const snippetQueries: Pick<QueryResolvers, 'snippetRepositoryStorageMoves' | 'snippetRepositoryStorageMove'> = {
  snippetRepositoryStorageMoves: declared(
    { ...restList(), rest: ['GET /snippet_repository_storage_moves', 'GET /snippets/:snippet_id/repository_storage_moves'] },
    (_parent, args, { api }) => {
      const snippetId = args.snippetId ? snippetIdFromGlobalId(args.snippetId, 'snippetId') : undefined;
      return restConnection(args, (page) =>
        snippetId === undefined ? api.snippets.allStorageMoves(page) : api.snippets.storageMoves(snippetId, page),
      );
    },
  ),
  snippetRepositoryStorageMove: declared(
    {
      ...oneCall(),
      rest: [
        'GET /snippet_repository_storage_moves/:repository_storage_id',
        'GET /snippets/:snippet_id/repository_storage_moves/:repository_storage_id',
      ],
    },
    (_parent, { id, snippetId }, { api }) => {
      const moveId = idFromGlobalId(id, 'Snippets::RepositoryStorageMove', 'id');
      if (!snippetId) return nullWhenNotFound(api.snippets.showStorageMove(moveId));
      return nullWhenNotFound(api.snippets.showSnippetStorageMove(snippetIdFromGlobalId(snippetId, 'snippetId'), moveId));
    },
  ),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Query: snippetQueries };
