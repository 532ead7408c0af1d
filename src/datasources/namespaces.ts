// REST's namespaces (lib/api/namespaces.rb): a user's personal namespace or a group as one record.
import type { RestSession } from './rest-client.js';
import { restPath } from './path.js';

/** API::Entities::Namespace: what every reader is told of a namespace. */
export interface NamespaceSchema {
  id: number;
  name: string;
  path: string;
  kind: 'user' | 'group';
  full_path: string;
  parent_id: number | null;
  avatar_url?: string | null;
  web_url?: string;
  /** Only for those who administer the group. */
  members_count_with_descendants?: number;
}

export class NamespacesApi {
  constructor(private readonly rest: RestSession) {}

  /** One namespace by id or full path (`GET /namespaces/:id`); 404 for one the caller may not read. */
  show(idOrPath: number | string): Promise<NamespaceSchema> {
    return this.rest.get<NamespaceSchema>(restPath`/namespaces/${idOrPath}`);
  }
}
