// Comments on issues in GitLab's words: `Issue.notes` and `Issue.discussions` over REST's notes and
// discussions of issues, and createNote / updateNote / destroyNote. REST finds a note only under its
// issue, so updateNote and destroyNote take the issue too (`noteableId`); and an issue by global ID
// only for administrators (`GET /issues/:id`).
import type { IssueResolvers, MutationResolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';
import { restList } from '../../cost/field-cost.js';
import type { IssueKey } from '../../datasources/issues.js';
import type { NoteSchema } from '../../datasources/notes.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import type { GatewayContext } from '../../server/context.js';
import { forgetIssueDiscussions, issueDiscussionCountFields } from '../discussions/note-discussion.js';
import { parseGlobalId } from '../global-id.js';
import { refusalReasons } from '../refusals.js';
import { issueKeyOfGlobalId } from './issue-writes.js';
import { issueKeyOf } from './key.js';

/** GitLab types a note's ID by its class; all are notes to REST. */
const NOTE_CLASSES: ReadonlySet<string> = new Set(['Note', 'DiscussionNote', 'DiffNote']);

function noteIdOf(globalId: string): number {
  const { className, id } = parseGlobalId(globalId, 'id');
  if (!NOTE_CLASSES.has(className)) throw badUserInput(`\`id\` must be a note's global ID (gid://gitlab/Note/<id>); got a ${className} ID.`, 'id');
  return id;
}

/** A discussion's REST id: the 40 hex digits of `gid://gitlab/Discussion/<id>`. */
function discussionIdOf(globalId: string): string {
  const id = /^gid:\/\/gitlab\/Discussion\/([0-9a-f]{40})$/.exec(globalId)?.[1];
  if (!id) throw badUserInput(`\`discussionId\` must be gid://gitlab/Discussion/ and 40 hex digits; got "${globalId.slice(0, 100)}".`, 'discussionId');
  return id;
}

function body(text: string | null | undefined): string {
  if (!text?.trim()) throw badUserInput('`body` must not be empty.', 'body');
  return text;
}

/** The issue a note is on, which REST needs to find the note. */
async function noteIssue(noteableId: string | null | undefined, context: GatewayContext): Promise<IssueKey> {
  if (!noteableId) throw badUserInput('`noteableId` is needed: REST finds a note only under its issue.', 'noteableId');
  return issueKeyOfGlobalId(noteableId, 'noteableId', context);
}

/**
 * A note write: REST's refusals (400 with reasons) are the payload's `errors`. Whatever came of it,
 * the request's copy of the issue's discussions is dropped, so the payload's `note.discussion`
 * reads them as they now are.
 */
async function writeNote(clientMutationId: string | null | undefined, issue: IssueKey, context: GatewayContext, write: () => Promise<NoteSchema | null>) {
  try {
    return { clientMutationId: clientMutationId ?? null, errors: [], note: await write() };
  } catch (error) {
    const reasons = refusalReasons(error);
    if (reasons) return { clientMutationId: clientMutationId ?? null, errors: reasons, note: null };
    throw error;
  } finally {
    forgetIssueDiscussions(issue, context);
  }
}

export const issueNoteFields: Pick<IssueResolvers, 'notes' | 'discussions' | 'userDiscussionsCount'> = {
  notes: declared({ ...restList(), rest: ['GET /projects/:id/issues/:issue_iid/notes'] }, (issue, args, { api }) =>
    restConnection(args, (page) => api.notes.ofIssue(issueKeyOf(issue), page)),
  ),
  discussions: declared({ ...restList(), rest: ['GET /projects/:id/issues/:issue_iid/discussions'] }, (issue, args, { api }) =>
    restConnection(args, (page) => api.notes.discussionsOfIssue(issueKeyOf(issue), page)),
  ),
  ...issueDiscussionCountFields,
};

export const noteMutations: Pick<MutationResolvers, 'createNote' | 'updateNote' | 'destroyNote'> = {
  // GET /issues/:id for the noteable, then the note's POST (or the reply's).
  createNote: declared(
    {
      calls: 2,
      rest: ['GET /issues/:id', 'POST /projects/:id/issues/:issue_iid/notes', 'POST /projects/:id/issues/:issue_iid/discussions/:discussion_id/notes'],
    },
    async (_parent, { input }, context) => {
      const text = body(input.body);
      if (input.internal !== undefined && input.internal !== null && input.confidential !== undefined && input.confidential !== null) {
        throw badUserInput('`internal` and its deprecated name `confidential` are mutually exclusive; give `internal`.', 'confidential');
      }
      const internal = input.internal ?? input.confidential ?? undefined;
      const discussionId = input.discussionId ? discussionIdOf(input.discussionId) : undefined;
      const key = await issueKeyOfGlobalId(input.noteableId, 'noteableId', context);
      return writeNote(input.clientMutationId, key, context, async () => {
        if (discussionId) return context.api.notes.replyOnIssue(key, discussionId, text);
        const creation = await context.api.notes.createOnIssue(key, text, { internal });
        // A body of quick actions only saves no note (REST 202): what they did shows on the issue.
        return creation.kind === 'note' ? creation.note : null;
      });
    },
  ),

  // GET /issues/:id for the noteable, then the PUT.
  updateNote: declared({ calls: 2, rest: ['GET /issues/:id', 'PUT /projects/:id/issues/:issue_iid/notes/:note_id'] }, async (_parent, { input }, context) => {
    const id = noteIdOf(input.id);
    if (input.confidential !== undefined && input.confidential !== null) {
      throw badUserInput("`confidential`: a note's confidentiality can no longer be changed (REST, as GitLab).", 'confidential');
    }
    const text = body(input.body);
    const key = await noteIssue(input.noteableId, context);
    return writeNote(input.clientMutationId, key, context, () => context.api.notes.editOnIssue(key, id, text));
  }),

  // GET /issues/:id, the note as it was, then the DELETE.
  destroyNote: declared(
    {
      calls: 3,
      rest: ['GET /issues/:id', 'GET /projects/:id/issues/:issue_iid/notes/:note_id', 'DELETE /projects/:id/issues/:issue_iid/notes/:note_id'],
    },
    async (_parent, { input }, context) => {
      const id = noteIdOf(input.id);
      const key = await noteIssue(input.noteableId, context);
      return writeNote(input.clientMutationId, key, context, async () => {
        // GitLab answers the note as it was; REST's DELETE answers nothing, so it is read first.
        const note = await context.api.notes.showOnIssue(key, id);
        await context.api.notes.removeFromIssue(key, id);
        return note;
      });
    },
  ),
};
