import type { Page, PageRequest } from './pagination.js';
import { restPath } from './path.js';
import type { RestSession } from './rest-client.js';
import type { UserSchema } from './users.js';
import { withFields } from './with-fields.js';

/** REST's integer `access_level` (10 Guest ... 50 Owner). */
export type AccessLevelValue = number;

/** A member record of `GET /groups/:id/members` and `/projects/:id/members`: the user and the role. */
export interface MemberSchema extends UserSchema {
  access_level: number;
  created_at?: string;
  created_by?: UserSchema | null;
  expires_at?: string | null;
  membership_state?: string;
}

/** Whose member list a record came from: REST's records leave it out, the ID needs it. */
export interface MemberSource {
  kind: 'group' | 'project';
  id: number;
}

/** A member with the group or project whose list holds it. */
export type MemberRecord = MemberSchema & { source: MemberSource };

/** `direct`: `/members`; `all`: `/members/all`, with inherited members and members through shares. */
export type MemberListKind = 'direct' | 'all';

function membersPath(source: MemberSource, list: MemberListKind): string {
  const base = source.kind === 'group' ? restPath`/groups/${source.id}/members` : restPath`/projects/${source.id}/members`;
  return list === 'all' ? `${base}/all` : base;
}

/** REST "Group and project members". */
export class MembersApi {
  constructor(private readonly rest: RestSession) {}

  async all(source: MemberSource, list: MemberListKind, query: string | undefined, page: PageRequest): Promise<Page<MemberRecord>> {
    const result = await this.rest.getPage<MemberSchema>(membersPath(source, list), page, { query });
    return withFields(result, { items: result.items.map((member) => withFields(member, { source })) });
  }

  /** One user's effective membership, inherited or through a share included (404 when none). */
  async effective(source: MemberSource, userId: number): Promise<MemberRecord> {
    const member = await this.rest.get<MemberSchema>(`${membersPath(source, 'all')}/${encodeURIComponent(String(userId))}`);
    return withFields(member, { source });
  }
}
