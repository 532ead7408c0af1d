import type { CommitResolvers } from '../../__generated__/resolvers-types.js';
import { toGlobalId } from '../global-id.js';

export const Commit: CommitResolvers = {
  id: (commit) => toGlobalId('Commit', commit.id),
  // REST calls the full SHA `id`; GraphQL's `id` is the global ID.
  sha: (commit) => commit.id,
};
