// The discussion a note belongs to. REST's note records name no discussion: only the discussion
// lists group notes. A note reached through its discussion carries it along (no call); any other
// note of an issue or merge request is looked up in every page of its discussions, read once per
// issue or merge request and request through the `issueDiscussions` or `mergeRequestDiscussions`
// loader, which their `userDiscussionsCount` share.
import type { IssueResolvers, NoteResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { oneCall } from '../../cost/field-cost.js';
import type { IssueKey } from '../../datasources/issues.js';
import type { DiscussionSchema, NoteSchema } from '../../datasources/notes.js';
import { declared } from '../../fields/declaration.js';
import type { GatewayContext } from '../../server/context.js';
import { issueKeyOf } from '../issues/key.js';
import { withFields } from '../../datasources/with-fields.js';

/** Where a note reached through a discussion keeps it: a symbol, so REST's record keeps its shape. */
const REACHED_THROUGH = Symbol('the discussion the note was reached through');

type NoteOfDiscussion = NoteSchema & { readonly [REACHED_THROUGH]?: DiscussionSchema };

/** A discussion's notes, each carrying the discussion, so that `Note.discussion` costs nothing. */
export function notesOfDiscussion(discussion: DiscussionSchema): NoteSchema[] {
  return discussion.notes.map((note): NoteOfDiscussion => withFields(note, { [REACHED_THROUGH]: discussion }));
}

/** Every discussion of the issue or merge request a note is on, when its record names one (a commit's note names no project or iid). */
function discussionsAround(note: NoteSchema, context: GatewayContext): Promise<DiscussionSchema[]> | null {
  if (typeof note.project_id !== 'number' || typeof note.noteable_iid !== 'number') return null;
  const key = { project: note.project_id, iid: note.noteable_iid };
  if (note.noteable_type === 'Issue') return context.loaders.issueDiscussions.load(key);
  if (note.noteable_type === 'MergeRequest') return context.loaders.mergeRequestDiscussions.load(key);
  return null;
}

export async function discussionOfNote(note: NoteOfDiscussion, context: GatewayContext): Promise<DiscussionSchema | null> {
  const carried = note[REACHED_THROUGH];
  if (carried) return carried;
  const around = discussionsAround(note, context);
  if (!around) return null;
  const discussions = await around;
  return discussions.find((discussion) => discussion.notes.some((candidate) => candidate.id === note.id)) ?? null;
}

/** GitLab's count: discussions holding at least one note a user wrote (`Note.user`, not system notes). */
export function userDiscussionsCount(discussions: readonly DiscussionSchema[]): number {
  return discussions.filter((discussion) => discussion.notes.some((note) => note.system !== true)).length;
}

/** A write to an issue's notes changes its discussions: the request's copy is dropped. */
export function forgetIssueDiscussions(issue: IssueKey, context: GatewayContext): void {
  context.loaders.issueDiscussions.clear(issue);
}

const ISSUE_DISCUSSIONS = 'GET /projects/:id/issues/:issue_iid/discussions';

const noteDiscussionFields: Pick<NoteResolvers, 'discussion'> = {
  // None when reached through its discussion; otherwise every page of its issue's discussions (one
  // call up to 100), once per issue and request (the issueDiscussions loader).
  discussion: declared({ ...oneCall(), rest: [ISSUE_DISCUSSIONS, 'GET /projects/:id/merge_requests/:merge_request_iid/discussions'] }, (note, _args, context) =>
    discussionOfNote(note, context),
  ),
};

export const issueDiscussionCountFields: Pick<IssueResolvers, 'userDiscussionsCount'> = {
  // Every page of the issue's discussions (one call up to 100 of them), once per issue and request,
  // shared with Note.discussion through the issueDiscussions loader.
  userDiscussionsCount: declared({ ...oneCall(), rest: [ISSUE_DISCUSSIONS] }, async (issue, _args, { loaders }) =>
    userDiscussionsCount(await loaders.issueDiscussions.load(issueKeyOf(issue))),
  ),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Note: noteDiscussionFields };
