import type { RestSession } from './rest-client.js';
import { restPath } from './path.js';

export interface NamespaceSchema {
  id: number;
  name?: string;
  path?: string;
  /** `group` or `user`. */
  kind?: string;
  full_path: string;
  parent_id?: number | null;
  avatar_url?: string | null;
  web_url?: string;
}

/**
 * A project record. Embedded records (in runners, jobs) carry only a few of these fields, so every
 * field but `id` is optional; the rest are fetched on demand from `GET /projects/:id`.
 */
export interface ProjectSchema {
  id: number;
  name?: string;
  name_with_namespace?: string;
  path?: string;
  path_with_namespace?: string;
  description?: string | null;
  default_branch?: string | null;
  visibility?: 'private' | 'internal' | 'public';
  archived?: boolean;
  web_url?: string;
  http_url_to_repo?: string;
  ssh_url_to_repo?: string;
  avatar_url?: string | null;
  star_count?: number;
  forks_count?: number;
  open_issues_count?: number;
  shared_runners_enabled?: boolean;
  created_at?: string;
  last_activity_at?: string;
  namespace?: NamespaceSchema;
}

/** REST `/projects`. `idOrPath` is a numeric ID or a full path; the path helper encodes it. */
export class ProjectsApi {
  constructor(private readonly rest: RestSession) {}

  show(idOrPath: number | string): Promise<ProjectSchema> {
    return this.rest.get<ProjectSchema>(restPath`/projects/${idOrPath}`);
  }
}
