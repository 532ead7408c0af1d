import { arrayConnection } from '../../connections/connection.js';
import { embedded } from '../../cost/field-cost.js';
import { USER_AUTHOR } from '../../cost/shapes.js';
import type { DiscussionSchema, NoteSchema } from '../../datasources/notes.js';
import type { DiscussionResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { declared } from '../../fields/declaration.js';
import type { GatewayContext } from '../../server/context.js';
import { toGlobalId } from '../global-id.js';
import { notesOfDiscussion } from './note-discussion.js';

// GitLab's ResolvableDiscussion, over the notes REST embeds in a discussion: resolvable when any
// note is, resolved when resolvable and no resolvable note is still open, and the resolution
// (who, when) that of the last note resolved.

export function isResolvable(discussion: DiscussionSchema): boolean {
  return discussion.notes.some((note) => note.resolvable === true);
}

export function isResolved(discussion: DiscussionSchema): boolean {
  return isResolvable(discussion) && discussion.notes.every((note) => note.resolvable !== true || note.resolved === true);
}

/** The resolved note with the latest `resolved_at`, which speaks for the whole discussion. */
export function lastResolvedNote(discussion: DiscussionSchema): NoteSchema | null {
  if (!isResolved(discussion)) return null;
  let last: NoteSchema | null = null;
  for (const note of discussion.notes) {
    if (note.resolved !== true || !note.resolved_at) continue;
    if (!last || Date.parse(note.resolved_at) > Date.parse(last.resolved_at!)) last = note;
  }
  return last;
}

/**
 * Remembers what the caller was served this discussion on, so that `discussionToggleResolve` finds
 * its merge request by the discussion's ID alone (served-discussions.ts). Called where the `id` is
 * resolved: the field every client reads before it resolves a discussion.
 */
function rememberServedDiscussion(discussion: DiscussionSchema, { credential, servedDiscussions }: GatewayContext): void {
  if (!credential) return;
  const first = discussion.notes[0];
  const onMergeRequest = first?.noteable_type === 'MergeRequest' && typeof first.project_id === 'number' && typeof first.noteable_iid === 'number';
  servedDiscussions.remember(
    credential,
    discussion.id,
    onMergeRequest ? { noteable: 'MergeRequest', key: { project: first.project_id!, iid: first.noteable_iid! } } : { noteable: 'other' },
  );
}

export const Discussion: DiscussionResolvers = {
  // Reads the context only to remember the discussion for discussionToggleResolve by global ID: no REST call.
  id: declared({ calls: 0 }, (discussion, _args, context) => {
    rememberServedDiscussion(discussion, context);
    return toGlobalId('Discussion', discussion.id);
  }),
  // GitLab's discussion is created with its first note.
  createdAt: (discussion) => discussion.notes[0]?.created_at ?? '',
  notes: (discussion, args) => arrayConnection(args, notesOfDiscussion(discussion)),
  replyId: (discussion) => toGlobalId('Discussion', discussion.id),
  resolvable: (discussion) => isResolvable(discussion),
  resolved: (discussion) => isResolved(discussion),
  resolvedAt: (discussion) => lastResolvedNote(discussion)?.resolved_at ?? null,
  // A resolvable note's `resolved_by`: the same basic user as its author.
  resolvedBy: declared(embedded(USER_AUTHOR), (discussion) => lastResolvedNote(discussion)?.resolved_by ?? null),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Discussion };
