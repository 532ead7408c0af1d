import type { IssueKey } from './issues.js';
import type { MergeRequestKey } from './merge-requests.js';
import type { Page, PageRequest } from './pagination.js';
import { restPath } from './path.js';
import type { RestSession } from './rest-client.js';
import type { UserSchema } from './users.js';

/** A note (comment) on an issue; `commands_changes` tells what its quick actions did. */
export interface NoteSchema {
  id: number;
  type?: string | null;
  body?: string;
  attachment?: string | null;
  author?: UserSchema;
  created_at?: string;
  updated_at?: string;
  system?: boolean;
  /** Null on notes of commits, which have no numeric noteable. */
  noteable_id?: number | null;
  noteable_type?: string;
  /** Null on notes of commits, which have no iid. */
  noteable_iid?: number | null;
  resolvable?: boolean;
  /** Set on resolvable notes (merge requests' threads). */
  resolved?: boolean;
  /** Who resolved it; on resolvable notes only, null while unresolved. */
  resolved_by?: UserSchema | null;
  /** When it was resolved; on resolvable notes only, null while unresolved. */
  resolved_at?: string | null;
  confidential?: boolean;
  internal?: boolean;
  /** The project of the record the note is on; absent on commits' notes. */
  project_id?: number | null;
  commands_changes?: Record<string, unknown>;
}

/**
 * A thread of notes (REST discussion, of an issue or a commit): a plain comment is a discussion of
 * one note (`individual_note`), a thread holds its replies; notes oldest first. Notes on commits
 * have no noteable id or iid.
 */
export interface DiscussionSchema {
  id: string;
  individual_note: boolean;
  notes: NoteSchema[];
}

/**
 * What a note creation answered: the note (201), or, for a body of quick actions only, what the
 * commands did (202, GitLab's NoteCommands: `commands_changes` and `summary`, no note saved).
 */
export type NoteCreation =
  | { kind: 'note'; note: NoteSchema; commandsChanges: Record<string, unknown> }
  | { kind: 'commands-only'; commandsChanges: Record<string, unknown>; summary: string[] };

/** REST notes and discussions of issues (`/projects/:id/issues/:issue_iid/notes`, `.../discussions`) and merge requests' discussions. */
export class NotesApi {
  constructor(private readonly rest: RestSession) {}

  /** An issue's notes, oldest first as GitLab's GraphQL lists them (REST's default is newest first). */
  ofIssue(key: IssueKey, page: PageRequest): Promise<Page<NoteSchema>> {
    return this.rest.getPage<NoteSchema>(restPath`/projects/${key.project}/issues/${key.iid}/notes`, page, { order_by: 'created_at', sort: 'asc' });
  }

  /** An issue's discussions (plain comments and threads), oldest first. */
  discussionsOfIssue(key: IssueKey, page: PageRequest): Promise<Page<DiscussionSchema>> {
    return this.rest.getPage<DiscussionSchema>(restPath`/projects/${key.project}/issues/${key.iid}/discussions`, page);
  }

  /** A merge request's discussions (plain comments and threads), oldest first. */
  discussionsOfMergeRequest(key: MergeRequestKey, page: PageRequest): Promise<Page<DiscussionSchema>> {
    return this.rest.getPage<DiscussionSchema>(restPath`/projects/${key.project}/merge_requests/${key.iid}/discussions`, page);
  }

  /** Resolves or unresolves every resolvable note of a merge request's discussion; the discussion as it then is. */
  resolveOnMergeRequest(key: MergeRequestKey, discussionId: string, resolved: boolean): Promise<DiscussionSchema> {
    return this.rest.put<DiscussionSchema>(restPath`/projects/${key.project}/merge_requests/${key.iid}/discussions/${discussionId}`, { resolved });
  }

  async createOnIssue(key: IssueKey, body: string, options: { internal?: boolean | undefined } = {}): Promise<NoteCreation> {
    const response = await this.rest.post<NoteSchema & { summary?: string[] }>(restPath`/projects/${key.project}/issues/${key.iid}/notes`, { body, internal: options.internal });
    const commandsChanges = response.body.commands_changes ?? {};
    if (response.status === 202) return { kind: 'commands-only', commandsChanges, summary: response.body.summary ?? [] };
    return { kind: 'note', note: response.body, commandsChanges };
  }

  /** A reply in one of the issue's discussions (a plain comment answered becomes a thread). */
  async replyOnIssue(key: IssueKey, discussionId: string, body: string): Promise<NoteSchema> {
    return (await this.rest.post<NoteSchema>(restPath`/projects/${key.project}/issues/${key.iid}/discussions/${discussionId}/notes`, { body })).body;
  }

  editOnIssue(key: IssueKey, noteId: number, body: string): Promise<NoteSchema> {
    return this.rest.put<NoteSchema>(restPath`/projects/${key.project}/issues/${key.iid}/notes/${noteId}`, { body });
  }

  showOnIssue(key: IssueKey, noteId: number): Promise<NoteSchema> {
    return this.rest.get<NoteSchema>(restPath`/projects/${key.project}/issues/${key.iid}/notes/${noteId}`);
  }

  removeFromIssue(key: IssueKey, noteId: number): Promise<void> {
    return this.rest.delete(restPath`/projects/${key.project}/issues/${key.iid}/notes/${noteId}`);
  }
}
