// To-dos, notes and incident metric images (fixtures/issues/create-issue-todo.json,
// promote-issue-to-epic-note.json, list-incident-metric-images.json).
import { createHash } from 'node:crypto';
import type { MetricImage, Note, NoteContent, Todo } from '../data/model.js';
import type { PresentContext } from './context.js';
import { issueBasic } from './issues.js';
import { mergeRequestBasic } from './merge-requests.js';
import { projectReference } from './projects.js';
import { userSummary } from './users.js';

/** The to-do's target as REST embeds it, with its page's path segment (`issues`, `merge_requests`). */
function todoTarget(ctx: PresentContext, todo: Todo) {
  if (todo.targetType === 'Issue') {
    const issue = ctx.state.issues.get(todo.targetId);
    return issue && { record: issueBasic(ctx, issue), projectId: issue.projectId, page: `issues/${issue.iid}` };
  }
  const mergeRequest = ctx.state.mergeRequests.get(todo.targetId);
  return mergeRequest && { record: mergeRequestBasic(ctx, mergeRequest), projectId: mergeRequest.projectId, page: `merge_requests/${mergeRequest.iid}` };
}

export function todoEntity(ctx: PresentContext, todo: Todo) {
  const target = todoTarget(ctx, todo);
  const project = target ? ctx.state.projects.get(target.projectId) : undefined;
  const author = ctx.state.users.get(todo.authorId);
  return {
    id: todo.id,
    project: project ? projectReference(ctx, project) : null,
    author: author ? userSummary(ctx, author) : null,
    action_name: todo.actionName,
    target_type: todo.targetType,
    target: target?.record ?? null,
    target_url: target && project ? `${ctx.origin}/${ctx.state.projectFullPath(project)}/-/${target.page}` : null,
    body: todo.body,
    state: todo.state,
    created_at: todo.createdAt,
  };
}

/** What REST shows of every note, whatever it is on. */
export function noteContentFields(ctx: PresentContext, note: NoteContent) {
  const author = ctx.state.users.get(note.authorId);
  return {
    id: note.id,
    type: null as string | null,
    body: note.body,
    attachment: null,
    author: author ? userSummary(ctx, author) : null,
    created_at: note.createdAt,
    updated_at: note.updatedAt ?? note.createdAt,
    system: note.system,
  };
}

/** A note; `commands_changes` holds what its quick actions did (`promote_to_epic`). */
export function noteEntity(ctx: PresentContext, note: Note, commandsChanges: Record<string, unknown> = {}) {
  const issue = ctx.state.issues.get(note.issueId);
  return {
    ...noteContentFields(ctx, note),
    noteable_id: note.issueId,
    noteable_type: 'Issue',
    project_id: issue?.projectId ?? null,
    resolvable: false,
    confidential: note.confidential,
    internal: note.confidential,
    noteable_iid: issue?.iid ?? null,
    commands_changes: commandsChanges,
  };
}

/** The discussion a note belongs to: its own (a plain comment) unless it was started or answered as a thread. */
export function discussionIdOf(note: Note): string {
  return note.discussionId ?? createHash('sha1').update(`issue-note-${note.id}`).digest('hex');
}

/**
 * A discussion of an issue (GET .../discussions): its notes oldest first; `individual_note` for a
 * plain comment, which cannot be answered as a thread.
 */
export function discussionEntity(ctx: PresentContext, id: string, notes: readonly Note[]) {
  return {
    id,
    individual_note: notes.length === 1 && notes[0]!.discussionId === undefined,
    notes: notes.map((note) => {
      const { commands_changes: _commands, ...rest } = noteEntity(ctx, note);
      return rest;
    }),
  };
}

export function metricImageEntity(image: MetricImage) {
  return {
    id: image.id,
    created_at: image.createdAt,
    filename: image.filename,
    file_path: `/uploads/-/system/issuable_metric_image/file/${image.id}/${image.filename}`,
    url: image.url,
    url_text: image.urlText,
  };
}
