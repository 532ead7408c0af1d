import type { ProjectResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { arrayConnection } from '../../connections/connection.js';
import { wikiPageRecord } from '../../records/wikis.js';
import { nullWhenNotFound } from '../lookups.js';
import { checkSlug } from './slug.js';

/** The wiki fields of Project, spread into its resolvers. */
const projectWikiFields: Pick<ProjectResolvers, 'wikiPages' | 'wikiPage'> = {
  async wikiPages(project, args, { api }) {
    const pages = await api.wikis.all(project.id, args.withContent === true);
    return arrayConnection(
      args,
      pages.map((page) => wikiPageRecord(page, project.id)),
    );
  },
  async wikiPage(project, { slug }, { api }) {
    const page = await nullWhenNotFound(api.wikis.show(project.id, checkSlug(slug)));
    return page ? wikiPageRecord(page, project.id) : null;
  },
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Project: projectWikiFields };
