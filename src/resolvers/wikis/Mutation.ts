import type { MutationResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import type { WikiPageChanges } from '../../datasources/wikis.js';
import { embedded, oneCall } from '../../cost/field-cost.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import { wikiPageRecord } from '../../records/wikis.js';
import { refusalReasons } from '../refusals.js';
import { checkFullPath } from '../projects/Query.js';
import { checkSlug } from './slug.js';
import { WIKI_PAGE } from '../../cost/shapes.js';
import { recordField } from '../../fields/patterns.js';

function checkTitle(title: string): string {
  if (!title.trim()) throw badUserInput('`title` must not be blank.', 'title');
  return title;
}

const wikiMutations: Pick<MutationResolvers, 'wikiPageCreate' | 'wikiPageUpdate' | 'wikiPageDelete' | 'wikiAttachmentUpload'> = {
  wikiPageCreate: declared({ ...oneCall(), rest: ['POST /projects/:id/wikis'] }, async (_parent, { input }, { api }) => {
    const project = checkFullPath(input.projectPath, 'projectPath');
    const page = { title: checkTitle(input.title), content: input.content, ...(input.format ? { format: input.format } : {}) };
    const clientMutationId = input.clientMutationId ?? null;
    try {
      return { clientMutationId, errors: [], wikiPage: wikiPageRecord(await api.wikis.create(project, page), project) };
    } catch (error) {
      const reasons = refusalReasons(error);
      if (reasons) return { clientMutationId, errors: reasons, wikiPage: null };
      throw error;
    }
  }),

  wikiPageUpdate: declared({ ...oneCall(), rest: ['PUT /projects/:id/wikis/:slug'] }, async (_parent, { input }, { api }) => {
    const project = checkFullPath(input.projectPath, 'projectPath');
    const slug = checkSlug(input.slug);
    // rest-v4-api.md: "content (required if title absent), title (required if content absent)".
    if ((input.title === null || input.title === undefined) && (input.content === null || input.content === undefined)) {
      throw badUserInput('Give `title`, `content` or both; `format` alone changes nothing REST accepts.', 'input');
    }
    const changes: WikiPageChanges = {};
    if (input.title !== null && input.title !== undefined) changes.title = checkTitle(input.title);
    if (input.content !== null && input.content !== undefined) changes.content = input.content;
    if (input.format) changes.format = input.format;
    const clientMutationId = input.clientMutationId ?? null;
    try {
      return { clientMutationId, errors: [], wikiPage: wikiPageRecord(await api.wikis.edit(project, slug, changes), project) };
    } catch (error) {
      const reasons = refusalReasons(error);
      if (reasons) return { clientMutationId, errors: reasons, wikiPage: null };
      throw error;
    }
  }),

  wikiPageDelete: declared({ ...oneCall(), rest: ['DELETE /projects/:id/wikis/:slug'] }, async (_parent, { input }, { api }) => {
    await api.wikis.remove(checkFullPath(input.projectPath, 'projectPath'), checkSlug(input.slug));
    return { clientMutationId: input.clientMutationId ?? null, errors: [] };
  }),

  wikiAttachmentUpload: declared({ ...oneCall(), rest: ['POST /projects/:id/wikis/attachments'] }, async (_parent, { input }, { api }) => {
    const project = checkFullPath(input.projectPath, 'projectPath');
    if (input.branch !== null && input.branch !== undefined && !input.branch.trim()) {
      throw badUserInput("`branch` must name a branch; leave it out for the wiki's default branch.", 'branch');
    }
    const attachment = await api.wikis.uploadAttachment(project, input.file, input.branch ?? undefined);
    return { clientMutationId: input.clientMutationId ?? null, errors: [], attachment };
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Mutation: wikiMutations, WikiPageCreatePayload: { wikiPage: recordField(embedded(WIKI_PAGE)) }, WikiPageUpdatePayload: { wikiPage: recordField(embedded(WIKI_PAGE)) } };
