// Comments on an issue (GitLab's REST "Notes" and "Discussions" of issues): the list newest first
// by default, one note, editing and deleting it, and the threads (discussions) they make up.
// Internal notes show to Reporters and above only; editing or deleting a note takes `admin_note`
// (its author, Maintainers and above, administrators), and a system note is never editable.
import { createHash } from 'node:crypto';
import { projectAccessLevel } from '../../data/access.js';
import { AccessLevel, type Issue, type Note, type Project, type User } from '../../data/model.js';
import type { SimulatorState } from '../../data/state.js';
import { discussionEntity, discussionIdOf, noteEntity } from '../../entities/todos.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import { paginate } from '../../http/pagination.js';
import { p } from '../../http/params.js';
import { created, noContent, ok } from '../../http/response.js';
import type { RequestContext, Router } from '../../http/router.js';
import { visibleIssue } from './access.js';

type IssueRouteParams = { id: string; issue_iid: number };

/** `read_internal_note`: Reporters and above, and administrators. */
function mayReadInternal(state: SimulatorState, user: User | null, project: Project): boolean {
  return user !== null && (user.isAdmin || projectAccessLevel(state, user, project) >= AccessLevel.REPORTER);
}

/** The issue's notes the caller may read, oldest first. */
function notesOf(ctx: RequestContext<unknown>, issue: Issue, project: Project): Note[] {
  const internal = mayReadInternal(ctx.state, ctx.user, project);
  return [...ctx.state.notes.values()].filter((note) => note.issueId === issue.id && (internal || !note.confidential)).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
}

/** The issue's discussions, each with its notes oldest first, by their first note. */
function discussionsOf(ctx: RequestContext<unknown>, issue: Issue, project: Project): Array<{ id: string; notes: Note[] }> {
  const byId = new Map<string, Note[]>();
  for (const note of notesOf(ctx, issue, project)) {
    const id = discussionIdOf(note);
    byId.set(id, [...(byId.get(id) ?? []), note]);
  }
  return [...byId.entries()].map(([id, notes]) => ({ id, notes }));
}

export function noteOfIssue(ctx: RequestContext<IssueRouteParams & { note_id: number }>): { note: Note; issue: Issue; project: Project } {
  const { issue, project } = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
  const note = notesOf(ctx, issue, project).find((candidate) => candidate.id === ctx.params.note_id);
  if (!note) throw notFound('Note');
  return { note, issue, project };
}

/** NotePolicy's `admin_note`: the author, Maintainers and above, administrators; never a system note. */
function requireAdminNote(ctx: RequestContext<unknown>, note: Note, project: Project): User {
  const user = ctx.user!;
  const allowed = user.isAdmin || note.authorId === user.id || projectAccessLevel(ctx.state, user, project) >= AccessLevel.MAINTAINER;
  if (note.system || !allowed) throw forbidden();
  return user;
}

function newNote(ctx: RequestContext<unknown>, issue: Issue, body: string, discussionId: string | undefined, internal = false): Note {
  const note: Note = {
    id: ctx.state.nextId('notes'),
    issueId: issue.id,
    authorId: ctx.user!.id,
    body: body.trim(),
    system: false,
    confidential: internal,
    createdAt: ctx.state.now.toISOString(),
    ...(discussionId ? { discussionId } : {}),
  };
  ctx.state.notes.set(note.id, note);
  return note;
}

export function registerIssueNoteRoutes(router: Router): void {
  const issueParams = { id: p.string().required(), issue_iid: p.integer().required() };
  const noteParams = { ...issueParams, note_id: p.integer().required() };
  const base = '/projects/:id/issues/:issue_iid';

  router.get(
    `${base}/notes`,
    { auth: 'optional', paginated: true, params: { ...issueParams, order_by: p.string().values(['created_at', 'updated_at']).default('created_at'), sort: p.string().values(['asc', 'desc']).default('desc') } },
    (ctx) => {
      const { issue, project } = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
      const key = (note: Note) => (ctx.params.order_by === 'updated_at' ? (note.updatedAt ?? note.createdAt) : note.createdAt);
      const notes = notesOf(ctx, issue, project).sort((a, b) => key(a).localeCompare(key(b)) || a.id - b.id);
      if (ctx.params.sort === 'desc') notes.reverse();
      return paginate(ctx, notes, (note) => noteEntity(ctx, note));
    },
  );

  router.get(`${base}/notes/:note_id`, { auth: 'optional', params: noteParams }, (ctx) => ok(noteEntity(ctx, noteOfIssue(ctx).note)));

  router.put(`${base}/notes/:note_id`, { auth: 'required', params: { ...noteParams, body: p.string().required() } }, (ctx) => {
    if (ctx.params.body.trim() === '') throw badRequest('Note can\'t be blank');
    const { note, project } = noteOfIssue(ctx);
    requireAdminNote(ctx, note, project);
    note.body = ctx.params.body.trim();
    note.updatedAt = ctx.state.now.toISOString();
    return ok(noteEntity(ctx, note));
  });

  router.delete(`${base}/notes/:note_id`, { auth: 'required', params: noteParams }, (ctx) => {
    const { note, project } = noteOfIssue(ctx);
    requireAdminNote(ctx, note, project);
    ctx.state.notes.delete(note.id);
    return noContent();
  });

  router.get(`${base}/discussions`, { auth: 'optional', paginated: true, params: issueParams }, (ctx) => {
    const { issue, project } = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
    return paginate(ctx, discussionsOf(ctx, issue, project), (discussion) => discussionEntity(ctx, discussion.id, discussion.notes));
  });

  router.get(`${base}/discussions/:discussion_id`, { auth: 'optional', params: { ...issueParams, discussion_id: p.string().required() } }, (ctx) => {
    const { issue, project } = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
    const discussion = discussionsOf(ctx, issue, project).find((candidate) => candidate.id === ctx.params.discussion_id);
    if (!discussion) throw notFound('Discussion');
    return ok(discussionEntity(ctx, discussion.id, discussion.notes));
  });

  // A new thread: its first note, answerable as a thread from the start.
  router.post(`${base}/discussions`, { auth: 'required', params: { ...issueParams, body: p.string().required(), internal: p.boolean().default(false) } }, (ctx) => {
    if (ctx.params.body.trim() === '') throw badRequest('Note can\'t be blank');
    const { issue } = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
    const note = newNote(ctx, issue, ctx.params.body, undefined, ctx.params.internal);
    note.discussionId = createHash('sha1').update(`issue-thread-${note.id}`).digest('hex');
    return created(discussionEntity(ctx, note.discussionId, [note]));
  });

  // A reply; replying to a plain comment turns it into a thread, as GitLab does.
  router.post(`${base}/discussions/:discussion_id/notes`, { auth: 'required', params: { ...issueParams, discussion_id: p.string().required(), body: p.string().required() } }, (ctx) => {
    if (ctx.params.body.trim() === '') throw badRequest('Note can\'t be blank');
    const { issue, project } = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
    const discussion = discussionsOf(ctx, issue, project).find((candidate) => candidate.id === ctx.params.discussion_id);
    if (!discussion) throw notFound('Discussion');
    for (const note of discussion.notes) note.discussionId = discussion.id;
    return created(noteEntity(ctx, newNote(ctx, issue, ctx.params.body, discussion.id, discussion.notes[0]!.confidential)));
  });
}

