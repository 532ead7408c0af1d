import type { WikiAttachmentResolvers, WikiPageResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { declared } from '../../fields/declaration.js';

export const WikiPage: WikiPageResolvers = {
  // A page listed without `withContent` has no content: it costs its own GET, only when asked for.
  content: declared(
    { calls: 1, unlessParentHas: 'content', rest: ['GET /projects/:id/wikis/:slug'] },
    async (page, _args, { api }) => page.content ?? (await api.wikis.show(page.wiki_project, page.slug)).content ?? null,
  ),
};

// REST nests the URL and the Markdown under `link`.
export const WikiAttachment: WikiAttachmentResolvers = {
  url: (attachment) => attachment.link?.url ?? null,
  markdown: (attachment) => attachment.link?.markdown ?? null,
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { WikiAttachment, WikiPage };
