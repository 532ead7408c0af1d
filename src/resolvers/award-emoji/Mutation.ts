// awardEmojiToggle in GitLab's words over REST's award endpoints, which have no toggle: the
// awardable's awards are read to find the caller's own of that name, which is taken back if there
// is one (DELETE), else the emoji is awarded (POST). REST finds a note only under its issue, so a
// note's toggle also takes the issue (`noteableId`), as updateNote does.
import type { MutationResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import type { AwardableKey, AwardEmojiSchema } from '../../datasources/award-emoji.js';
import { MAX_PER_PAGE } from '../../datasources/pagination.js';
import { RestError } from '../../datasources/rest-error.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import type { GatewayContext } from '../../server/context.js';
import { callerOf } from '../caller.js';
import { GLOBAL_ID_SCALAR_CLASSES } from '../global-id-scalars.js';
import { parseGlobalId } from '../global-id.js';
import { issueKeyOfGlobalId } from '../issues/issue-writes.js';

const NOTE_CLASSES: ReadonlySet<string> = new Set(GLOBAL_ID_SCALAR_CLASSES.NoteID);

async function awardableOf(awardableId: string, noteableId: string | null | undefined, context: GatewayContext): Promise<AwardableKey> {
  const { className, id } = parseGlobalId(awardableId, 'awardableId');
  if (className === 'Issue') return { kind: 'issue', issue: await issueKeyOfGlobalId(awardableId, 'awardableId', context) };
  if (!NOTE_CLASSES.has(className)) {
    throw badUserInput(`\`awardableId\` must be an Issue or a note of an issue here; REST's award endpoints for a ${className} are not served.`, 'awardableId');
  }
  if (!noteableId) throw badUserInput('`noteableId` is needed for a note: REST finds a note only under its issue.', 'noteableId');
  return { kind: 'note', issue: await issueKeyOfGlobalId(noteableId, 'noteableId', context), noteId: id };
}

/** The caller's own award of `name`, looked for through every page of the awardable's awards. */
async function ownAward(awardable: AwardableKey, name: string, userId: number, context: GatewayContext): Promise<AwardEmojiSchema | null> {
  for (let page = 1; ; page += 1) {
    const awards = await context.api.awardEmoji.all(awardable, { page, perPage: MAX_PER_PAGE });
    const own = awards.items.find((award) => award.name === name && award.user.id === userId);
    if (own) return own;
    if (!awards.hasNextPage) return null;
  }
}

/**
 * REST refuses an award it cannot save with a 404 naming the reason ("404 Award Emoji Name has
 * already been taken Not Found"); GitLab's GraphQL reports that reason in `errors`.
 */
function awardRefusal(error: unknown): string | null {
  if (!(error instanceof RestError) || error.status !== 404 || typeof error.restMessage !== 'string') return null;
  return /^404 Award Emoji (.+) Not Found$/.exec(error.restMessage)?.[1] ?? null;
}

const awardEmojiMutations: Pick<MutationResolvers, 'awardEmojiToggle'> = {
  // GET /issues/:id for the issue, GET /user, the award list (a page of 100 almost always), then the POST or DELETE.
  awardEmojiToggle: declared(
    {
      calls: 4,
      rest: [
        'GET /issues/:id',
        'GET /user',
        'GET /projects/:id/issues/:issue_iid/award_emoji',
        'GET /projects/:id/issues/:issue_iid/notes/:note_id/award_emoji',
        'DELETE /projects/:id/issues/:issue_iid/award_emoji/:award_id',
        'DELETE /projects/:id/issues/:issue_iid/notes/:note_id/award_emoji/:award_id',
        'POST /projects/:id/issues/:issue_iid/award_emoji',
        'POST /projects/:id/issues/:issue_iid/notes/:note_id/award_emoji',
      ],
    },
    async (_parent, { input }, context) => {
      const name = input.name.trim();
      if (!name) throw badUserInput('`name` must be an emoji name such as thumbsup.', 'name');
      const awardable = await awardableOf(input.awardableId, input.noteableId, context);
      const clientMutationId = input.clientMutationId ?? null;
      // Anonymous callers have no award to take back; REST refuses their award (401).
      const caller = await callerOf(context);
      const own = caller ? await ownAward(awardable, name, caller.id, context) : null;
      if (own) {
        await context.api.awardEmoji.remove(awardable, own.id);
        return { clientMutationId, awardEmoji: own, toggledOn: false, errors: [] };
      }
      try {
        return { clientMutationId, awardEmoji: await context.api.awardEmoji.create(awardable, name), toggledOn: true, errors: [] };
      } catch (error) {
        const refusal = awardRefusal(error);
        if (refusal) return { clientMutationId, awardEmoji: null, toggledOn: false, errors: [refusal] };
        throw error;
      }
    },
  ),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Mutation: awardEmojiMutations };
