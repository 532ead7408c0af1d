// Notes and discussions of a merge request as GitLab's REST presents them (doc/api/discussions.md,
// "Merge requests"): a thread's notes are `DiscussionNote`s and resolvable, and a resolvable note
// shows whether, by whom and when it was resolved (NoteEntity exposes those only when resolvable).
import { createHash } from 'node:crypto';
import type { MergeRequestNote } from '../data/model.js';
import type { PresentContext } from './context.js';
import { noteContentFields } from './todos.js';
import { userSummary } from './users.js';

export function mergeRequestNoteEntity(ctx: PresentContext, note: MergeRequestNote) {
  const mergeRequest = ctx.state.mergeRequests.get(note.mergeRequestId);
  const resolver = note.resolvedById === undefined ? undefined : ctx.state.users.get(note.resolvedById);
  return {
    ...noteContentFields(ctx, note),
    type: note.discussionId === undefined ? null : 'DiscussionNote',
    noteable_id: note.mergeRequestId,
    noteable_type: 'MergeRequest',
    project_id: mergeRequest?.projectId ?? null,
    resolvable: note.resolvable,
    ...(note.resolvable ? { resolved: note.resolvedAt !== undefined, resolved_by: resolver ? userSummary(ctx, resolver) : null, resolved_at: note.resolvedAt ?? null } : {}),
    confidential: note.confidential,
    internal: note.confidential,
    noteable_iid: mergeRequest?.iid ?? null,
  };
}

/** The discussion a merge request's note belongs to: its own (a plain comment) unless it is part of a thread. */
export function mergeRequestDiscussionIdOf(note: MergeRequestNote): string {
  return note.discussionId ?? createHash('sha1').update(`merge-request-note-${note.id}`).digest('hex');
}

/** A discussion of a merge request: its notes oldest first; `individual_note` for a plain comment. */
export function mergeRequestDiscussionEntity(ctx: PresentContext, id: string, notes: readonly MergeRequestNote[]) {
  return {
    id,
    individual_note: notes.length === 1 && notes[0]!.discussionId === undefined,
    notes: notes.map((note) => mergeRequestNoteEntity(ctx, note)),
  };
}
