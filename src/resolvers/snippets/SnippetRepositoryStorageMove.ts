import type { SnippetRepositoryStorageMoveResolvers, SnippetResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { oneCall } from '../../cost/field-cost.js';
import { PROJECT_LOADED } from '../../cost/shapes.js';
import { declared } from '../../fields/declaration.js';
import { toGlobalId } from '../global-id.js';
import { nullWhenNotFound } from '../lookups.js';

export const SnippetRepositoryStorageMove: SnippetRepositoryStorageMoveResolvers = {
  id: (move) => toGlobalId('Snippets::RepositoryStorageMove', move.id),
};

export const Snippet: SnippetResolvers = {
  // GitLab's classes: a snippet with a project is a ProjectSnippet.
  id: (snippet) => toGlobalId(snippet.project_id ? 'ProjectSnippet' : 'PersonalSnippet', snippet.id),
  project: declared({ ...oneCall(PROJECT_LOADED), rest: ['GET /projects/:id'] }, (snippet, _args, { loaders }) =>
    snippet.project_id ? nullWhenNotFound(loaders.project.load(snippet.project_id)) : null,
  ),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Snippet, SnippetRepositoryStorageMove };
