import type { ProjectResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { arrayConnection } from '../../connections/connection.js';
import { oneCall } from '../../cost/field-cost.js';
import { WIKI_PAGE, WIKI_PAGE_LISTED } from '../../cost/shapes.js';
import { declared } from '../../fields/declaration.js';
import { wikiPageRecord } from '../../records/wikis.js';
import { nullWhenNotFound } from '../lookups.js';
import { checkSlug } from './slug.js';

/** The wiki fields of Project, spread into its resolvers. */
const projectWikiFields: Pick<ProjectResolvers, 'wikiPages' | 'wikiPage'> = {
  // The whole list in one call, windowed in the gateway.
  wikiPages: declared(
    {
      calls: 1,
      items: 'window',
      returns: (args) => (args['withContent'] === true ? WIKI_PAGE : WIKI_PAGE_LISTED),
      rest: ['GET /projects/:id/wikis'],
    },
    async (project, args, { api }) => {
      const pages = await api.wikis.all(project.id, args.withContent === true);
      return arrayConnection(
        args,
        pages.map((page) => wikiPageRecord(page, project.id)),
      );
    },
  ),
  wikiPage: declared({ ...oneCall(WIKI_PAGE), rest: ['GET /projects/:id/wikis/:slug'] }, async (project, { slug }, { api }) => {
    const page = await nullWhenNotFound(api.wikis.show(project.id, checkSlug(slug)));
    return page ? wikiPageRecord(page, project.id) : null;
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Project: projectWikiFields };
