// To-dos and notes on an issue (rest-v4-api.md "Other issue endpoints"): a to-do is created once
// (304 when the caller already has a pending one), and a note whose body holds `/promote` on a line
// of its own turns the issue into an epic of its group (PREMIUM).
import { groupAccessLevel, projectAccessLevel } from '../../data/access.js';
import { AccessLevel, type Issue, type Note, type Project, type User } from '../../data/model.js';
import type { SimulatorState } from '../../data/state.js';
import { noteEntity } from '../../entities/todos.js';
import { badRequest, forbidden } from '../../http/errors.js';
import { p } from '../../http/params.js';
import { created, type ApiResponse } from '../../http/response.js';
import type { RequestContext, Router } from '../../http/router.js';
import { markTodo } from '../todos.js';
import { visibleIssue } from './access.js';

const PROMOTE = /^\/promote\s*$/m;

/** What stops `/promote`: it needs a group project, a non-promoted issue and Reporter in the group. */
function promoteRefusal(state: SimulatorState, user: User, issue: Issue, project: Project): string | null {
  const group = state.projectGroup(project);
  if (!group) return 'the project does not belong to a group';
  if (issue.promotedToEpicId !== null) return 'the issue was already promoted';
  if (!user.isAdmin && groupAccessLevel(state, user, group) < AccessLevel.REPORTER) return 'the caller may not create epics in the group';
  return null;
}

/** Creates the epic in the project's top-level group and closes the issue, as Epics::IssuePromoteService. */
function promote(ctx: RequestContext<unknown>, user: User, issue: Issue, project: Project): void {
  const { state } = ctx;
  const group = state.projectGroup(project)!;
  const ancestors = state.groupAncestors(group);
  const topGroupId = (ancestors[ancestors.length - 1] ?? group).id;
  const id = state.nextId('epics');
  const iid = 1 + Math.max(0, ...[...state.epics.values()].filter((epic) => epic.groupId === topGroupId).map((epic) => epic.iid));
  const now = state.now.toISOString();
  state.epics.set(id, { id, iid, groupId: topGroupId, title: issue.title, description: issue.description, createdAt: now, promotedFromIssueId: issue.id });
  issue.promotedToEpicId = id;
  issue.state = 'closed';
  issue.closedAt = now;
  issue.closedById = user.id;
  issue.updatedAt = now;
}

function createNote(ctx: RequestContext<{ body: string; internal: boolean }>, user: User, issue: Issue, project: Project): ApiResponse {
  const { state } = ctx;
  if (issue.discussionLocked && projectAccessLevel(state, user, project) < AccessLevel.REPORTER && !user.isAdmin) throw forbidden();
  const body = ctx.params.body;
  const wantsPromote = PROMOTE.test(body);
  const refusal = wantsPromote ? promoteRefusal(state, user, issue, project) : 'not asked';
  const applied = wantsPromote && refusal === null;
  // An applied quick action leaves the note; one that cannot apply stays as text.
  const text = applied ? body.replace(/^\/promote\s*$/gm, '').trim() : body.trim();
  const commandsChanges = applied ? { promote_to_epic: true } : {};
  if (applied) promote(ctx, user, issue, project);
  if (text === '' && applied) {
    // A note of quick actions only is not saved: 202 with what the commands did (Entities::NoteCommands).
    return { status: 202, json: { commands_changes: commandsChanges, summary: ['Promoted issue to an epic.'] } };
  }
  const note: Note = { id: state.nextId('notes'), issueId: issue.id, authorId: user.id, body: text, system: false, confidential: ctx.params.internal, createdAt: state.now.toISOString() };
  state.notes.set(note.id, note);
  return created(noteEntity(ctx, note, commandsChanges));
}

export function registerIssueActionRoutes(router: Router): void {
  const issueParams = { id: p.string().required(), issue_iid: p.integer().required() };

  router.post('/projects/:id/issues/:issue_iid/todo', { auth: 'required', params: issueParams }, (ctx) => {
    const { issue } = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
    return markTodo(ctx, ctx.user!, { type: 'Issue', id: issue.id, title: issue.title });
  });

  // `internal` (formerly `confidential`): a note only Reporters and above see.
  router.post('/projects/:id/issues/:issue_iid/notes', { auth: 'required', params: { ...issueParams, body: p.string().required(), internal: p.boolean().default(false) } }, (ctx) => {
    if (ctx.params.body.trim() === '') throw badRequest('Note can\'t be blank');
    const { project, issue } = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
    return createNote(ctx, ctx.user!, issue, project);
  });
}
