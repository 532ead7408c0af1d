import type { IssueKey } from './issues.js';
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
  confidential?: boolean;
  internal?: boolean;
  commands_changes?: Record<string, unknown>;
}

/**
 * What a note creation answered: the note (201), or, for a body of quick actions only, what the
 * commands did (202, GitLab's NoteCommands: `commands_changes` and `summary`, no note saved).
 */
export type NoteCreation =
  | { kind: 'note'; note: NoteSchema; commandsChanges: Record<string, unknown> }
  | { kind: 'commands-only'; commandsChanges: Record<string, unknown>; summary: string[] };

/** REST notes of issues (`POST /projects/:id/issues/:issue_iid/notes`). */
export class NotesApi {
  constructor(private readonly rest: RestSession) {}

  async createOnIssue(key: IssueKey, body: string): Promise<NoteCreation> {
    const response = await this.rest.post<NoteSchema & { summary?: string[] }>(restPath`/projects/${key.project}/issues/${key.iid}/notes`, { body });
    const commandsChanges = response.body.commands_changes ?? {};
    if (response.status === 202) return { kind: 'commands-only', commandsChanges, summary: response.body.summary ?? [] };
    return { kind: 'note', note: response.body, commandsChanges };
  }
}
