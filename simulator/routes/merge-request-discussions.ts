// Threads on a merge request (GitLab's REST "Discussions", merge requests): the list, one thread, a
// new thread, a reply, and resolving or unresolving a thread. A new thread's notes are resolvable;
// a reply to a resolved thread is resolved with it (Notes::BuildService), so the thread stays
// resolved. Resolving takes `resolve_note`: the merge request's author, Developers and above, and
// administrators (IssuablePolicy, ProjectPolicy); anyone else gets 403, as does a thread that
// cannot be resolved at all.
import { createHash } from 'node:crypto';
import { projectAccessLevel } from '../data/access.js';
import { AccessLevel, type MergeRequest, type MergeRequestNote, type Project, type User } from '../data/model.js';
import type { SimulatorState } from '../data/state.js';
import { mergeRequestDiscussionEntity, mergeRequestDiscussionIdOf, mergeRequestNoteEntity } from '../entities/merge-request-notes.js';
import { badRequest, forbidden, notFound } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { p } from '../http/params.js';
import { created, ok } from '../http/response.js';
import type { RequestContext, Router } from '../http/router.js';
import { visibleMergeRequest } from './merge-request-access.js';

interface MergeRequestDiscussion {
  id: string;
  notes: MergeRequestNote[];
}

/** The merge request's discussions, each with its notes oldest first, by their first note. */
function discussionsOf(state: SimulatorState, mergeRequest: MergeRequest): MergeRequestDiscussion[] {
  const notes = [...state.mergeRequestNotes.values()].filter((note) => note.mergeRequestId === mergeRequest.id).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
  const byId = new Map<string, MergeRequestNote[]>();
  for (const note of notes) {
    const id = mergeRequestDiscussionIdOf(note);
    byId.set(id, [...(byId.get(id) ?? []), note]);
  }
  return [...byId.entries()].map(([id, grouped]) => ({ id, notes: grouped }));
}

function discussionNamed(state: SimulatorState, mergeRequest: MergeRequest, id: string): MergeRequestDiscussion {
  const discussion = discussionsOf(state, mergeRequest).find((candidate) => candidate.id === id);
  if (!discussion) throw notFound('Discussion');
  return discussion;
}

/** `resolve_note` on the merge request: its author, Developers and above, administrators. */
function mayResolve(state: SimulatorState, user: User, mergeRequest: MergeRequest, project: Project): boolean {
  return user.isAdmin || mergeRequest.authorId === user.id || projectAccessLevel(state, user, project) >= AccessLevel.DEVELOPER;
}

function newThreadNote(ctx: RequestContext<unknown>, mergeRequest: MergeRequest, body: string, discussionId: string | null): MergeRequestNote {
  const note: MergeRequestNote = {
    id: ctx.state.nextId('notes'),
    mergeRequestId: mergeRequest.id,
    authorId: ctx.user!.id,
    body: body.trim(),
    system: false,
    confidential: false,
    createdAt: ctx.state.now.toISOString(),
    resolvable: true,
  };
  note.discussionId = discussionId ?? createHash('sha1').update(`merge-request-thread-${note.id}`).digest('hex');
  ctx.state.mergeRequestNotes.set(note.id, note);
  return note;
}

function requireBody(body: string): void {
  if (body.trim() === '') throw badRequest('Note can\'t be blank');
}

export function registerMergeRequestDiscussionRoutes(router: Router): void {
  const mergeRequestParams = { id: p.string().required(), merge_request_iid: p.integer().required() };
  const discussionParams = { ...mergeRequestParams, discussion_id: p.string().required() };
  const base = '/projects/:id/merge_requests/:merge_request_iid/discussions';

  router.get(base, { auth: 'optional', paginated: true, params: mergeRequestParams }, (ctx) => {
    const { mergeRequest } = visibleMergeRequest(ctx, ctx.params.id, ctx.params.merge_request_iid);
    return paginate(ctx, discussionsOf(ctx.state, mergeRequest), (discussion) => mergeRequestDiscussionEntity(ctx, discussion.id, discussion.notes));
  });

  router.get(`${base}/:discussion_id`, { auth: 'optional', params: discussionParams }, (ctx) => {
    const { mergeRequest } = visibleMergeRequest(ctx, ctx.params.id, ctx.params.merge_request_iid);
    const discussion = discussionNamed(ctx.state, mergeRequest, ctx.params.discussion_id);
    return ok(mergeRequestDiscussionEntity(ctx, discussion.id, discussion.notes));
  });

  router.post(base, { auth: 'required', params: { ...mergeRequestParams, body: p.string().required() } }, (ctx) => {
    requireBody(ctx.params.body);
    const { mergeRequest } = visibleMergeRequest(ctx, ctx.params.id, ctx.params.merge_request_iid);
    const note = newThreadNote(ctx, mergeRequest, ctx.params.body, null);
    return created(mergeRequestDiscussionEntity(ctx, note.discussionId!, [note]));
  });

  // A reply; replying to a plain comment turns it into a thread, as GitLab does.
  router.post(`${base}/:discussion_id/notes`, { auth: 'required', params: { ...discussionParams, body: p.string().required() } }, (ctx) => {
    requireBody(ctx.params.body);
    const { mergeRequest } = visibleMergeRequest(ctx, ctx.params.id, ctx.params.merge_request_iid);
    const discussion = discussionNamed(ctx.state, mergeRequest, ctx.params.discussion_id);
    const wasResolved = isResolved(discussion);
    for (const note of discussion.notes) note.discussionId = discussion.id;
    const reply = newThreadNote(ctx, mergeRequest, ctx.params.body, discussion.id);
    if (wasResolved) resolveNote(reply, ctx.user!, ctx.state);
    return created(mergeRequestNoteEntity(ctx, reply));
  });

  router.put(`${base}/:discussion_id`, { auth: 'required', params: { ...discussionParams, resolved: p.boolean().required() } }, (ctx) => {
    const { mergeRequest, project } = visibleMergeRequest(ctx, ctx.params.id, ctx.params.merge_request_iid);
    const discussion = discussionNamed(ctx.state, mergeRequest, ctx.params.discussion_id);
    const resolvable = discussion.notes.filter((note) => note.resolvable);
    if (resolvable.length === 0 || !mayResolve(ctx.state, ctx.user!, mergeRequest, project)) throw forbidden();
    for (const note of resolvable) {
      if (ctx.params.resolved) resolveNote(note, ctx.user!, ctx.state);
      else {
        delete note.resolvedById;
        delete note.resolvedAt;
      }
    }
    return ok(mergeRequestDiscussionEntity(ctx, discussion.id, discussion.notes));
  });
}

/** ResolvableDiscussion#resolved?: resolvable, and every resolvable note resolved. */
function isResolved(discussion: MergeRequestDiscussion): boolean {
  const resolvable = discussion.notes.filter((note) => note.resolvable);
  return resolvable.length > 0 && resolvable.every((note) => note.resolvedAt !== undefined);
}

/** ResolvableNote#resolve!: a note already resolved keeps its resolver and time. */
function resolveNote(note: MergeRequestNote, user: User, state: SimulatorState): void {
  if (note.resolvedAt !== undefined) return;
  note.resolvedById = user.id;
  note.resolvedAt = state.now.toISOString();
}
