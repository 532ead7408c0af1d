import type { Page, PageRequest } from './pagination.js';
import { restPath } from './path.js';
import type { RestSession } from './rest-client.js';

/** The group or project invitations belong to: `/groups/:id/invitations` or `/projects/:id/invitations`. */
export interface InvitationSource {
  kind: 'group' | 'project';
  /** Numeric id or full path. */
  idOrPath: number | string;
}

/**
 * An invitation (rest-v4-api.md "Invitation"). `PUT` may answer with fewer fields (the documentation
 * shows only `expires_at` and `access_level`), so all but `access_level` are optional.
 */
export interface InvitationSchema {
  id?: number;
  invite_email?: string;
  created_at?: string;
  access_level: number;
  expires_at?: string | null;
  user_name?: string | null;
  created_by_name?: string | null;
}

/**
 * What `POST .../invitations` answers: `status` success, or error with `message` mapping each refused
 * address to its reason (or, for the request as a whole, a sentence); `queued_users` when role
 * promotions wait for an administrator's approval.
 */
export interface InvitationCreateResultSchema {
  status?: 'success' | 'error';
  message?: string | Record<string, string>;
  queued_users?: Record<string, string>;
}

export interface InvitationRequest {
  emails: readonly string[];
  accessLevel: number;
  /** `YYYY-MM-DD`. */
  expiresAt?: string | undefined;
}

export interface InvitationChanges {
  access_level?: number;
  /** ISO 8601 `YYYY-MM-DDTHH:MM:SSZ`. */
  expires_at?: string;
}

function base(source: InvitationSource): string {
  return source.kind === 'group' ? restPath`/groups/${source.idOrPath}/invitations` : restPath`/projects/${source.idOrPath}/invitations`;
}

function one(source: InvitationSource, email: string): string {
  // The address is a path segment: restPath encodes `@` and `.` so it stays one segment.
  return source.kind === 'group'
    ? restPath`/groups/${source.idOrPath}/invitations/${email}`
    : restPath`/projects/${source.idOrPath}/invitations/${email}`;
}

/** REST `/groups/:id/invitations` and `/projects/:id/invitations`. */
export class InvitationsApi {
  constructor(private readonly rest: RestSession) {}

  /** `query` must match an invited address exactly; without it, every pending invitation. */
  all(source: InvitationSource, query: string | undefined, page: PageRequest): Promise<Page<InvitationSchema>> {
    return this.rest.getPage<InvitationSchema>(base(source), page, { query });
  }

  /** Several addresses travel as one comma-separated `email`, as REST takes them. */
  async create(source: InvitationSource, request: InvitationRequest): Promise<InvitationCreateResultSchema> {
    const response = await this.rest.post<InvitationCreateResultSchema>(base(source), {
      email: request.emails.join(','),
      access_level: request.accessLevel,
      ...(request.expiresAt ? { expires_at: request.expiresAt } : {}),
    });
    return response.body ?? {};
  }

  edit(source: InvitationSource, email: string, changes: InvitationChanges): Promise<InvitationSchema> {
    return this.rest.put<InvitationSchema>(one(source, email), changes);
  }

  remove(source: InvitationSource, email: string): Promise<void> {
    return this.rest.delete(one(source, email));
  }
}
