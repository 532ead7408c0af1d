// The record GraphQL's WikiPage resolves from (codegen.ts maps the type to it), and its builder.
// The generated resolver types import this module, so it imports only data sources.
import type { WikiPageSchema } from '../datasources/wikis.js';
import { withFields } from '../datasources/with-fields.js';

/**
 * A wiki page with the project it belongs to, which REST leaves out of the record but a page
 * listed without its content needs to fetch it.
 */
export type WikiPageRecord = WikiPageSchema & { wiki_project: number | string };

export function wikiPageRecord(page: WikiPageSchema, project: number | string): WikiPageRecord {
  return withFields(page, { wiki_project: project });
}
