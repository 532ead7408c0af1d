import type { IssueKey } from './issues.js';
import type { Page, PageRequest } from './pagination.js';
import { restPath } from './path.js';
import type { RestSession } from './rest-client.js';
import type { UserSchema } from './users.js';

/** An emoji reaction (REST Entities::AwardEmoji). */
export interface AwardEmojiSchema {
  id: number;
  name: string;
  user: UserSchema;
  created_at?: string;
  updated_at?: string;
  awardable_id?: number;
  awardable_type?: string;
}

/** What REST awards emoji on: an issue, or one of its notes (REST finds a note only under its issue). */
export type AwardableKey = { kind: 'issue'; issue: IssueKey } | { kind: 'note'; issue: IssueKey; noteId: number };

function awardsPath({ issue, ...awardable }: AwardableKey): string {
  return awardable.kind === 'issue'
    ? restPath`/projects/${issue.project}/issues/${issue.iid}/award_emoji`
    : restPath`/projects/${issue.project}/issues/${issue.iid}/notes/${awardable.noteId}/award_emoji`;
}

/** REST emoji reactions of issues and issue notes (`.../award_emoji`). */
export class AwardEmojiApi {
  constructor(private readonly rest: RestSession) {}

  all(awardable: AwardableKey, page: PageRequest): Promise<Page<AwardEmojiSchema>> {
    return this.rest.getPage<AwardEmojiSchema>(awardsPath(awardable), page);
  }

  async create(awardable: AwardableKey, name: string): Promise<AwardEmojiSchema> {
    return (await this.rest.post<AwardEmojiSchema>(awardsPath(awardable), { name })).body;
  }

  remove(awardable: AwardableKey, awardId: number): Promise<void> {
    // The award's id is a number: no encoding needed after the encoded collection path.
    return this.rest.delete(`${awardsPath(awardable)}/${awardId}`);
  }
}
