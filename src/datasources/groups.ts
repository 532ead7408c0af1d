import type { CustomAttributeSchema, GroupShareSchema, StorageStatisticsSchema } from './namespace-schemas.js';
import type { FileUpload } from './file-upload.js';
import type { Page, PageRequest } from './pagination.js';
import { restPath } from './path.js';
import type { ProjectSchema } from './projects.js';
import type { RestParams } from './query.js';
import type { RestSession } from './rest-client.js';

/** `statistics` of a group list record (administrators, `statistics=true`), in bytes. */
export type GroupStatisticsSchema = StorageStatisticsSchema;

/**
 * A group record. List records carry the Group fields of rest-v4-api.md; `GET /groups/:id` adds the
 * detail fields (`runners_token`, `shared_with_groups`, and `projects` / `shared_projects` when asked
 * for). Embedded records carry fewer, so every field but `id` is optional.
 */
export interface GroupSchema {
  id: number;
  name?: string;
  path?: string;
  full_name?: string;
  full_path?: string;
  description?: string | null;
  visibility?: 'private' | 'internal' | 'public';
  share_with_group_lock?: boolean;
  require_two_factor_authentication?: boolean;
  two_factor_grace_period?: number;
  project_creation_level?: string;
  auto_devops_enabled?: boolean | null;
  subgroup_creation_level?: string;
  emails_disabled?: boolean | null;
  mentions_disabled?: boolean | null;
  lfs_enabled?: boolean;
  default_branch_protection?: number;
  web_url?: string;
  avatar_url?: string | null;
  request_access_enabled?: boolean;
  file_template_project_id?: number | null;
  created_at?: string;
  parent_id?: number | null;
  statistics?: GroupStatisticsSchema;
  custom_attributes?: CustomAttributeSchema[];
  runners_token?: string;
  shared_with_groups?: GroupShareSchema[];
  projects?: ProjectSchema[];
  shared_projects?: ProjectSchema[];
  membership_lock?: boolean;
  shared_runners_setting?: string;
  prevent_forking_outside_group?: boolean | null;
  shared_runners_minutes_limit?: number | null;
  extra_shared_runners_minutes_limit?: number | null;
  marked_for_deletion_on?: string | null;
}

/** Filters of `GET /groups`, `/groups/:id/subgroups` and `/groups/:id/descendant_groups`. */
export interface GroupListFilters {
  skipGroups?: number[] | undefined;
  allAvailable?: boolean | undefined;
  search?: string | undefined;
  orderBy?: string | undefined;
  sort?: string | undefined;
  statistics?: boolean | undefined;
  withCustomAttributes?: boolean | undefined;
  owned?: boolean | undefined;
  minAccessLevel?: number | undefined;
  /** `GET /groups` only. */
  topLevelOnly?: boolean | undefined;
  customAttributes?: Readonly<Record<string, string>> | undefined;
}

/** Filters of `GET /groups/:id/projects` (all) and `/groups/:id/projects/shared` (all but the last three). */
export interface GroupProjectFilters {
  archived?: boolean | undefined;
  visibility?: string | undefined;
  orderBy?: string | undefined;
  sort?: string | undefined;
  search?: string | undefined;
  /** The short project record (GitLab's BasicProjectDetails) instead of the full one. */
  simple?: boolean | undefined;
  starred?: boolean | undefined;
  withIssuesEnabled?: boolean | undefined;
  withMergeRequestsEnabled?: boolean | undefined;
  minAccessLevel?: number | undefined;
  withCustomAttributes?: boolean | undefined;
  withSecurityReports?: boolean | undefined;
  owned?: boolean | undefined;
  withShared?: boolean | undefined;
  includeSubgroups?: boolean | undefined;
}

/** Fields of `POST /groups` and `PUT /groups/:id`, in REST's names (the create and update table). */
export interface GroupSettings {
  name?: string;
  /** An image file; when given, the write goes as multipart/form-data. */
  avatar?: FileUpload;
  path?: string;
  description?: string;
  membership_lock?: boolean;
  visibility?: string;
  share_with_group_lock?: boolean;
  require_two_factor_authentication?: boolean;
  two_factor_grace_period?: number;
  project_creation_level?: string;
  auto_devops_enabled?: boolean;
  subgroup_creation_level?: string;
  emails_disabled?: boolean;
  mentions_disabled?: boolean;
  lfs_enabled?: boolean;
  request_access_enabled?: boolean;
  default_branch_protection?: number;
  shared_runners_minutes_limit?: number;
  extra_shared_runners_minutes_limit?: number;
  /** Create only. */
  parent_id?: number;
  /** Update only (PREMIUM). */
  file_template_project_id?: number;
  /** Update only (PREMIUM). */
  prevent_forking_outside_group?: boolean;
  /** Update only. */
  shared_runners_setting?: string;
}

export interface GroupShowOptions {
  /** The deprecated embedded `projects` and `shared_projects` (at most 100 each). */
  withProjects?: boolean;
  /** Custom attributes (administrators only). */
  withCustomAttributes?: boolean;
}

function groupListQuery(filters: GroupListFilters): RestParams {
  return {
    skip_groups: filters.skipGroups && filters.skipGroups.length > 0 ? filters.skipGroups : undefined,
    all_available: filters.allAvailable,
    search: filters.search,
    order_by: filters.orderBy,
    sort: filters.sort,
    statistics: filters.statistics,
    with_custom_attributes: filters.withCustomAttributes,
    owned: filters.owned,
    min_access_level: filters.minAccessLevel,
    top_level_only: filters.topLevelOnly,
    custom_attributes: filters.customAttributes,
  };
}

function groupProjectQuery(filters: GroupProjectFilters): RestParams {
  return {
    archived: filters.archived,
    visibility: filters.visibility,
    order_by: filters.orderBy,
    sort: filters.sort,
    search: filters.search,
    simple: filters.simple,
    owned: filters.owned,
    starred: filters.starred,
    with_issues_enabled: filters.withIssuesEnabled,
    with_merge_requests_enabled: filters.withMergeRequestsEnabled,
    with_shared: filters.withShared,
    include_subgroups: filters.includeSubgroups,
    min_access_level: filters.minAccessLevel,
    with_custom_attributes: filters.withCustomAttributes,
    with_security_reports: filters.withSecurityReports,
  };
}

/** REST `/groups`. `idOrPath` is a numeric ID or a full path; the path helper encodes it. */
export class GroupsApi {
  constructor(private readonly rest: RestSession) {}

  all(filters: GroupListFilters, page: PageRequest): Promise<Page<GroupSchema>> {
    return this.rest.getPage<GroupSchema>(restPath`/groups`, page, groupListQuery(filters));
  }

  subgroups(idOrPath: number | string, filters: GroupListFilters, page: PageRequest): Promise<Page<GroupSchema>> {
    return this.rest.getPage<GroupSchema>(restPath`/groups/${idOrPath}/subgroups`, page, groupListQuery(filters));
  }

  descendants(idOrPath: number | string, filters: GroupListFilters, page: PageRequest): Promise<Page<GroupSchema>> {
    return this.rest.getPage<GroupSchema>(restPath`/groups/${idOrPath}/descendant_groups`, page, groupListQuery(filters));
  }

  projects(idOrPath: number | string, filters: GroupProjectFilters, page: PageRequest): Promise<Page<ProjectSchema>> {
    return this.rest.getPage<ProjectSchema>(restPath`/groups/${idOrPath}/projects`, page, groupProjectQuery(filters));
  }

  sharedProjects(idOrPath: number | string, filters: GroupProjectFilters, page: PageRequest): Promise<Page<ProjectSchema>> {
    return this.rest.getPage<ProjectSchema>(restPath`/groups/${idOrPath}/projects/shared`, page, groupProjectQuery(filters));
  }

  /**
   * The group detail. `with_projects=false` unless asked for, because the embedded project list is
   * deprecated, capped at 100 and costly; group projects have their own paginated endpoint.
   */
  show(idOrPath: number | string, options: GroupShowOptions = {}): Promise<GroupSchema> {
    return this.rest.get<GroupSchema>(restPath`/groups/${idOrPath}`, {
      with_projects: options.withProjects === true,
      with_custom_attributes: options.withCustomAttributes === true ? true : undefined,
    });
  }

  /** A file cannot travel in JSON: with an avatar the settings go as multipart/form-data. */
  async create(settings: GroupSettings): Promise<GroupSchema> {
    const response = settings.avatar ? await this.rest.postMultipart<GroupSchema>(restPath`/groups`, { ...settings }) : await this.rest.post<GroupSchema>(restPath`/groups`, settings);
    return response.body;
  }

  /** `PUT /groups/:id` takes the numeric id only (rest-v4-api.md "Groups"). */
  async edit(id: number, changes: GroupSettings): Promise<GroupSchema> {
    if (changes.avatar) return (await this.rest.putMultipart<GroupSchema>(restPath`/groups/${id}`, { ...changes })).body;
    return this.rest.put<GroupSchema>(restPath`/groups/${id}`, changes);
  }

  /**
   * Moves a project into the group (administrators). rest-v4-api.md says REST answers with the
   * project; GitLab's code answers with the group's detail. The caller tells them apart.
   */
  async transferProject(groupIdOrPath: number | string, projectIdOrPath: number | string): Promise<ProjectSchema | GroupSchema> {
    return (await this.rest.post<ProjectSchema | GroupSchema>(restPath`/groups/${groupIdOrPath}/projects/${projectIdOrPath}`)).body;
  }
}
