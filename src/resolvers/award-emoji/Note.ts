import type { NoteResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';
import { embedded, restList } from '../../cost/field-cost.js';
import { declared } from '../../fields/declaration.js';
import { USER_AUTHOR } from '../../cost/shapes.js';
import { recordField } from '../../fields/patterns.js';

/** A note's reactions: REST lists them under the note's issue, so only issue notes have them here. */
const noteAwardEmojiFields: Pick<NoteResolvers, 'awardEmoji'> = {
  // GET .../issues/:issue_iid/notes/:note_id/award_emoji, per note.
  awardEmoji: declared({ ...restList(), rest: ['GET /projects/:id/issues/:issue_iid/notes/:note_id/award_emoji'] }, (note, args, { api }) => {
    if (note.noteable_type !== 'Issue' || typeof note.noteable_iid !== 'number' || typeof note.project_id !== 'number') return null;
    const issue = { project: note.project_id, iid: note.noteable_iid };
    return restConnection(args, (page) => api.awardEmoji.all({ kind: 'note', issue, noteId: note.id }, page));
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Note: noteAwardEmojiFields, AwardEmoji: { user: recordField(embedded(USER_AUTHOR)) } };
