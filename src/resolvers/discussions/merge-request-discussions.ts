// A merge request's threads in GitLab's words: `MergeRequest.discussions`, `notes` and
// `userDiscussionsCount` over every page of REST's discussions of the merge request (one loader
// read per merge request and request), and `discussionToggleResolve`, which REST answers under the
// merge request (`PUT .../discussions/:discussion_id?resolved=`). GitLab names the discussion by its
// DiscussionID alone; the merge request is the one the gateway served the discussion from to the
// same credential (served-discussions.ts).
import type { MergeRequestResolvers, MutationResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { arrayConnection } from '../../connections/connection.js';
import { oneCall } from '../../cost/field-cost.js';
import type { MergeRequestSchema } from '../../datasources/merge-requests.js';
import type { DiscussionSchema, NoteSchema } from '../../datasources/notes.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared, type DeclarationSpec } from '../../fields/declaration.js';
import type { GatewayContext } from '../../server/context.js';
import { mergeRequestKeyOf } from '../issues/merge-request-record.js';
import { refusalReasons } from '../refusals.js';
import { notesOfDiscussion, userDiscussionsCount } from './note-discussion.js';

function discussionsOf(mergeRequest: MergeRequestSchema, context: GatewayContext): Promise<DiscussionSchema[]> {
  return context.loaders.mergeRequestDiscussions.load(mergeRequestKeyOf(mergeRequest));
}

/** GitLab's order of a noteable's notes: by creation, then id. */
const byCreation = (a: NoteSchema, b: NoteSchema): number => (a.created_at ?? '').localeCompare(b.created_at ?? '') || a.id - b.id;

/**
 * Every page of the merge request's discussions (one call up to 100 of them), once per merge
 * request and request, shared by all three fields through the mergeRequestDiscussions loader.
 */
const MERGE_REQUEST_DISCUSSIONS: DeclarationSpec = {
  calls: 1,
  items: 'window',
  rest: ['GET /projects/:id/merge_requests/:merge_request_iid/discussions'],
};

const mergeRequestDiscussionFields: Pick<MergeRequestResolvers, 'discussions' | 'notes' | 'userDiscussionsCount'> = {
  discussions: declared(MERGE_REQUEST_DISCUSSIONS, async (mergeRequest, args, context) => arrayConnection(args, await discussionsOf(mergeRequest, context))),
  notes: declared(MERGE_REQUEST_DISCUSSIONS, async (mergeRequest, args, context) =>
    arrayConnection(args, (await discussionsOf(mergeRequest, context)).flatMap(notesOfDiscussion).sort(byCreation)),
  ),
  userDiscussionsCount: declared({ ...oneCall(), rest: MERGE_REQUEST_DISCUSSIONS.rest }, async (mergeRequest, _args, context) =>
    userDiscussionsCount(await discussionsOf(mergeRequest, context)),
  ),
};

/** A discussion's REST id: the 40 hex digits of `gid://gitlab/Discussion/<id>`. */
function discussionIdOf(globalId: string): string {
  const id = /^gid:\/\/gitlab\/Discussion\/([0-9a-f]{40})$/.exec(globalId)?.[1];
  if (!id) throw badUserInput(`\`id\` must be gid://gitlab/Discussion/ and 40 hex digits; got "${globalId.slice(0, 100)}".`, 'id');
  return id;
}

/** GitLab's refusal of a discussion that cannot be resolved (Mutations::Discussions::ToggleResolve). */
const NOT_RESOLVABLE = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

const discussionMutations: Pick<MutationResolvers, 'discussionToggleResolve'> = {
  // PUT .../merge_requests/:merge_request_iid/discussions/:discussion_id, which answers the discussion.
  discussionToggleResolve: declared(
    { ...oneCall(), rest: ['PUT /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id'] },
    async (_parent, { input }, context) => {
      const id = discussionIdOf(input.id);
      const served = context.credential ? await context.servedDiscussions.find(context.credential, id) : undefined;
      if (!served) {
        throw badUserInput(
          `${input.id} has not been read through this gateway with this credential, and REST finds a discussion only under its merge request: read it first (\`MergeRequest.discussions\`).`,
          'id',
        );
      }
      if (served.noteable !== 'MergeRequest') throw badUserInput(`${NOT_RESOLVABLE}: only merge requests' discussions can be resolved.`, 'id');
      const clientMutationId = input.clientMutationId ?? null;
      try {
        const discussion = await context.api.notes.resolveOnMergeRequest(served.key, id, input.resolve);
        context.loaders.mergeRequestDiscussions.clear(served.key);
        return { clientMutationId, discussion, errors: [] };
      } catch (error) {
        const reasons = refusalReasons(error);
        if (reasons) return { clientMutationId, discussion: null, errors: reasons };
        throw error;
      }
    },
  ),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Mutation: discussionMutations, MergeRequest: mergeRequestDiscussionFields };
