import type { Page, PageRequest } from './pagination.js';
import type { CustomAttributeSchema, GroupShareSchema, StorageStatisticsSchema } from './namespace-schemas.js';
import type { RestParams } from './query.js';
import type { RestSession } from './rest-client.js';
import { restPath } from './path.js';
import type { UserSchema } from './users.js';

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

/** `_links` of a project record. */
export interface ProjectLinksSchema {
  self?: string;
  issues?: string;
  merge_requests?: string;
  repo_branches?: string;
  labels?: string;
  events?: string;
  members?: string;
  cluster_agents?: string;
}

export interface ContainerExpirationPolicySchema {
  cadence?: string;
  enabled?: boolean;
  keep_n?: number | null;
  older_than?: string | null;
  name_regex?: string | null;
  name_regex_keep?: string | null;
  next_run_at?: string | null;
}

/** `statistics` of `GET /projects/:id?statistics=true` (Reporters and above), in bytes. */
export interface ProjectStatisticsSchema extends StorageStatisticsSchema {
  commit_count?: number;
  container_registry_size?: number;
}

/** One side of the caller's `permissions` on `GET /projects/:id`. */
export interface ProjectAccessSchema {
  access_level: number;
  notification_level?: number;
}

/** One of the `*_access_level` values of a project feature. */
export type ProjectFeatureAccessLevel = 'disabled' | 'private' | 'enabled' | 'public';

/**
 * A project record (rest-v4-api.md "Project record"). Embedded records (in runners, jobs, group
 * detail) carry only a few of these fields and `simple=true` lists the short record, so every field
 * but `id` is optional; the rest are fetched on demand from `GET /projects/:id`.
 */
export interface ProjectSchema {
  id: number;
  name?: string;
  name_with_namespace?: string;
  path?: string;
  path_with_namespace?: string;
  description?: string | null;
  default_branch?: string | null;
  topics?: string[];
  tag_list?: string[];
  visibility?: 'private' | 'internal' | 'public';
  archived?: boolean;
  web_url?: string;
  http_url_to_repo?: string;
  ssh_url_to_repo?: string;
  readme_url?: string | null;
  avatar_url?: string | null;
  star_count?: number;
  forks_count?: number;
  open_issues_count?: number;
  creator_id?: number;
  owner?: UserSchema | null;
  public_jobs?: boolean;
  shared_with_groups?: GroupShareSchema[];
  request_access_enabled?: boolean;
  issues_enabled?: boolean;
  merge_requests_enabled?: boolean;
  wiki_enabled?: boolean;
  jobs_enabled?: boolean;
  snippets_enabled?: boolean;
  shared_runners_enabled?: boolean;
  lfs_enabled?: boolean;
  emails_disabled?: boolean | null;
  issues_access_level?: ProjectFeatureAccessLevel;
  repository_access_level?: ProjectFeatureAccessLevel;
  merge_requests_access_level?: ProjectFeatureAccessLevel;
  forking_access_level?: ProjectFeatureAccessLevel;
  wiki_access_level?: ProjectFeatureAccessLevel;
  builds_access_level?: ProjectFeatureAccessLevel;
  snippets_access_level?: ProjectFeatureAccessLevel;
  pages_access_level?: ProjectFeatureAccessLevel;
  _links?: ProjectLinksSchema;
  empty_repo?: boolean;
  resolve_outdated_diff_discussions?: boolean;
  container_registry_enabled?: boolean;
  container_expiration_policy?: ContainerExpirationPolicySchema;
  can_create_merge_request_in?: boolean;
  import_status?: string;
  ci_default_git_depth?: number;
  ci_forward_deployment_enabled?: boolean;
  build_timeout?: number;
  auto_cancel_pending_pipelines?: string;
  build_coverage_regex?: string | null;
  ci_config_path?: string | null;
  only_allow_merge_if_pipeline_succeeds?: boolean;
  only_allow_merge_if_all_discussions_are_resolved?: boolean;
  remove_source_branch_after_merge?: boolean;
  printing_merge_request_link_enabled?: boolean;
  merge_method?: string;
  suggestion_commit_message?: string | null;
  auto_devops_enabled?: boolean;
  auto_devops_deploy_strategy?: string;
  autoclose_referenced_issues?: boolean;
  repository_storage?: string;
  created_at?: string;
  last_activity_at?: string;
  namespace?: NamespaceSchema;
  custom_attributes?: CustomAttributeSchema[];
  /**
   * The caller's access (`GET /projects/:id` only, signed-in callers): the direct membership, and
   * the access through the project's group.
   */
  permissions?: { project_access?: ProjectAccessSchema | null; group_access?: ProjectAccessSchema | null };
  statistics?: ProjectStatisticsSchema;
}

/** Filters of `GET /projects`, in the gateway's names. */
export interface ProjectListFilters {
  membership?: boolean | undefined;
  search?: string | undefined;
  searchNamespaces?: boolean | undefined;
  /** REST's `order_by`: id, name, path, created_at, updated_at, last_activity_at, star_count, similarity. */
  orderBy: string;
  sort: 'asc' | 'desc';
  /** Every one of these topics; REST takes them comma-separated. */
  topics?: ReadonlyArray<string> | undefined;
  withIssuesEnabled?: boolean | undefined;
  withMergeRequestsEnabled?: boolean | undefined;
  /** Only archived projects (`true`) or only the others (`false`). */
  archived?: boolean | undefined;
  /** Only projects where the caller has at least this access level. */
  minAccessLevel?: number | undefined;
  /** The short record (GitLab's BasicProjectDetails) instead of the full one. */
  simple?: boolean | undefined;
}

/** The query of REST's project lists (`GET /projects`, `GET /users/:user_id/projects`). */
function projectListParams(filters: ProjectListFilters): RestParams {
  return {
    membership: filters.membership,
    search: filters.search,
    search_namespaces: filters.searchNamespaces,
    order_by: filters.orderBy,
    sort: filters.sort,
    topic: filters.topics?.join(','),
    with_issues_enabled: filters.withIssuesEnabled,
    with_merge_requests_enabled: filters.withMergeRequestsEnabled,
    archived: filters.archived,
    min_access_level: filters.minAccessLevel,
    simple: filters.simple,
  };
}

/** REST `/projects`. `idOrPath` is a numeric ID or a full path; the path helper encodes it. */
export class ProjectsApi {
  constructor(private readonly rest: RestSession) {}

  /** Projects a user starred that the caller may see, newest first (`GET /users/:user_id/starred_projects`). */
  starredBy(userId: number, search: string | undefined, page: PageRequest): Promise<Page<ProjectSchema>> {
    return this.rest.getPage<ProjectSchema>(restPath`/users/${userId}/starred_projects`, page, { search });
  }

  /**
   * Projects a user contributed to that the caller may see, most recently active first
   * (`GET /users/:user_id/contributed_projects`).
   */
  contributedBy(userId: number, page: PageRequest): Promise<Page<ProjectSchema>> {
    return this.rest.getPage<ProjectSchema>(restPath`/users/${userId}/contributed_projects`, page, { order_by: 'last_activity_at', sort: 'desc' });
  }

  /** The projects the caller may see (anonymous callers get short records whatever `simple` says). */
  all(filters: ProjectListFilters, page: PageRequest): Promise<Page<ProjectSchema>> {
    return this.rest.getPage<ProjectSchema>(restPath`/projects`, page, projectListParams(filters));
  }

  /** The projects of a user's personal namespace the caller may see (`GET /users/:user_id/projects`), with the same filters. */
  personalOf(userId: number, filters: ProjectListFilters, page: PageRequest): Promise<Page<ProjectSchema>> {
    return this.rest.getPage<ProjectSchema>(restPath`/users/${userId}/projects`, page, projectListParams(filters));
  }

  /**
   * How many merge requests of the project are open: the `X-Total` of a one-item page of
   * `GET /projects/:id/merge_requests?state=opened` (null when REST gives no total, over 10,000).
   */
  async openMergeRequestsCount(id: number): Promise<number | null> {
    const page = await this.rest.getPage<unknown>(restPath`/projects/${id}/merge_requests`, { page: 1, perPage: 1 }, { state: 'opened' });
    return page.total;
  }

  /** The forks of a project the caller may see (`GET /projects/:id/forks`); with `owned`, those the caller owns. */
  forks(idOrPath: number | string, { owned }: { owned: boolean }, page: PageRequest): Promise<Page<ProjectSchema>> {
    return this.rest.getPage<ProjectSchema>(restPath`/projects/${idOrPath}/forks`, page, owned ? { owned: true } : {});
  }

  show(idOrPath: number | string): Promise<ProjectSchema> {
    return this.rest.get<ProjectSchema>(restPath`/projects/${idOrPath}`);
  }

  /** The project record with its storage `statistics`, which REST gives Reporters and above only. */
  withStatistics(idOrPath: number | string): Promise<ProjectSchema> {
    return this.rest.get<ProjectSchema>(restPath`/projects/${idOrPath}`, { statistics: true });
  }
}
