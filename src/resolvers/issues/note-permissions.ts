// GitLab's NotePolicy, for the abilities REST gives a source for: the caller (`GET /user`), their
// access level in the note's project (`GET /projects/:id`'s `permissions`) and, for a note on an
// issue, whether the issue's discussion is locked. Each is read once per request.
import type { NotePermissions } from '../../__generated__/resolvers-types.js';
import type { NoteSchema } from '../../datasources/notes.js';
import type { GatewayContext } from '../../server/context.js';
import { callerOf, type Caller } from '../caller.js';
import { projectAbilities } from '../projects/permissions.js';

/** Gitlab::Access. */
const REPORTER = 20;
const MAINTAINER = 40;

/** The caller's access level in the note's project; 0 for a commit's note, whose record names none. */
async function accessLevel(note: NoteSchema, context: GatewayContext, caller: Caller): Promise<number> {
  if (typeof note.project_id !== 'number') return 0;
  return (await projectAbilities(await context.loaders.project.load(note.project_id), context, caller)).level;
}

/** Whether the note's issue has its discussion locked (a commit's note has no such lock). */
async function discussionLocked(note: NoteSchema, context: GatewayContext): Promise<boolean> {
  if (note.noteable_type !== 'Issue' || typeof note.project_id !== 'number' || typeof note.noteable_iid !== 'number') return false;
  return (await context.loaders.issue.load({ project: note.project_id, iid: note.noteable_iid })).discussion_locked === true;
}

export async function notePermissions(note: NoteSchema, context: GatewayContext): Promise<NotePermissions> {
  const caller = await callerOf(context);
  if (!caller) return { adminNote: false, awardEmoji: false, createNote: false, readNote: true, repositionNote: false, resolveNote: false };
  const [level, locked] = await Promise.all([accessLevel(note, context, caller), discussionLocked(note, context)]);
  // admin_note: the author, Maintainers and above, administrators; a system note is never editable.
  const adminNote = note.system !== true && (caller.isAdmin || note.author?.id === caller.id || level >= MAINTAINER);
  return {
    adminNote,
    // Anyone signed in who reads the note may react to it.
    awardEmoji: true,
    // Anyone signed in who reads the issue may comment, unless its discussion is locked: then Reporters and above.
    createNote: !locked || caller.isAdmin || level >= REPORTER,
    readNote: true,
    repositionNote: adminNote,
    // Notes of issues cannot be resolved; a resolvable one by those who may change it.
    resolveNote: note.resolvable === true && (caller.isAdmin || level >= REPORTER || note.author?.id === caller.id),
  };
}
