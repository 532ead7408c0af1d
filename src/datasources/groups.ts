import type { RestSession } from './rest-client.js';
import { restPath } from './path.js';

/** A group record; embedded records may carry fewer fields, the rest come from `GET /groups/:id`. */
export interface GroupSchema {
  id: number;
  name?: string;
  path?: string;
  full_name?: string;
  full_path?: string;
  description?: string | null;
  visibility?: 'private' | 'internal' | 'public';
  web_url?: string;
  avatar_url?: string | null;
  created_at?: string;
  parent_id?: number | null;
}

/** REST `/groups`. */
export class GroupsApi {
  constructor(private readonly rest: RestSession) {}

  /**
   * The group detail. `with_projects=false` because the embedded project list is deprecated,
   * capped at 100 and costly; group projects have their own paginated endpoint.
   */
  show(idOrPath: number | string): Promise<GroupSchema> {
    return this.rest.get<GroupSchema>(restPath`/groups/${idOrPath}`, { with_projects: false });
  }
}
