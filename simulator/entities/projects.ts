// Project shapes: the full record (GET /projects/:id, group project lists; rest-v4-api.md
// "Project record" and fixtures/groups/list-group-shared-projects.json), the embedded record of
// group detail (fixtures/groups/get-group.json) and the small references used by runners and jobs.
import { projectAccessLevel } from '../data/access.js';
import { AccessLevel, type GroupShare, type Project } from '../data/model.js';
import { sshHost, type PresentContext } from './context.js';
import { extend } from './extend.js';
import { userSummary } from './users.js';

function names(ctx: PresentContext, project: Project) {
  const fullPath = ctx.state.projectFullPath(project);
  return {
    name: project.name,
    name_with_namespace: `${ctx.state.projectNamespaceName(project)} / ${project.name}`,
    path: project.path,
    path_with_namespace: fullPath,
  };
}

/** `projects` of a runner detail (fixtures/runners/get-runner.json). */
export function projectReference(ctx: PresentContext, project: Project) {
  return { id: project.id, ...names(ctx, project) };
}

/** GitLab's ProjectIdentity: `project` of a runner job (fixtures/runners/list-runner-jobs.json). */
export function projectIdentity(ctx: PresentContext, project: Project) {
  return { id: project.id, description: project.description, ...names(ctx, project), created_at: project.createdAt };
}

export function sharedWithGroups(ctx: PresentContext, shares: GroupShare[]) {
  return shares.flatMap((share) => {
    const group = ctx.state.groups.get(share.groupId);
    if (!group) return [];
    return [
      {
        group_id: group.id,
        group_name: group.name,
        group_full_path: ctx.state.groupFullPath(group),
        group_access_level: share.accessLevel,
        expires_at: share.expiresAt,
      },
    ];
  });
}

function namespace(ctx: PresentContext, project: Project) {
  const { state, origin } = ctx;
  if (project.namespace.kind === 'group') {
    const group = state.groups.get(project.namespace.groupId);
    const fullPath = group ? state.groupFullPath(group) : '';
    return {
      id: group?.id ?? 0,
      name: group?.name ?? '',
      path: group?.path ?? '',
      kind: 'group',
      full_path: fullPath,
      parent_id: group?.parentId ?? null,
      avatar_url: null,
      web_url: `${origin}/groups/${fullPath}`,
    };
  }
  const user = state.users.get(project.namespace.userId);
  return {
    id: user?.namespaceId ?? 0,
    name: user?.username ?? '',
    path: user?.username ?? '',
    kind: 'user',
    full_path: user?.username ?? '',
    parent_id: null,
    avatar_url: null,
    web_url: `${origin}/${user?.username ?? ''}`,
  };
}

function urls(ctx: PresentContext, project: Project) {
  const fullPath = ctx.state.projectFullPath(project);
  const webUrl = `${ctx.origin}/${fullPath}`;
  return {
    ssh_url_to_repo: `git@${sshHost(ctx.origin)}:${fullPath}.git`,
    http_url_to_repo: `${webUrl}.git`,
    web_url: webUrl,
  };
}

/** A project as embedded in GET /groups/:id (`projects`, `shared_projects`). */
export function projectInGroupDetail(ctx: PresentContext, project: Project) {
  const ns = namespace(ctx, project);
  return {
    id: project.id,
    description: project.description,
    default_branch: project.defaultBranch,
    tag_list: project.topics,
    topics: project.topics,
    archived: project.archived,
    visibility: project.visibility,
    ...urls(ctx, project),
    ...names(ctx, project),
    issues_enabled: project.issuesEnabled,
    merge_requests_enabled: project.mergeRequestsEnabled,
    wiki_enabled: project.wikiEnabled,
    jobs_enabled: project.jobsEnabled,
    snippets_enabled: project.snippetsEnabled,
    container_registry_enabled: true,
    created_at: project.createdAt,
    last_activity_at: project.lastActivityAt,
    shared_runners_enabled: project.sharedRunnersEnabled,
    creator_id: project.creatorId,
    namespace: { id: ns.id, name: ns.name, path: ns.path, kind: ns.kind },
    avatar_url: null,
    star_count: project.starCount,
    forks_count: project.forksCount,
    open_issues_count: project.openIssuesCount,
    public_jobs: project.publicJobs,
    shared_with_groups: sharedWithGroups(ctx, project.sharedWithGroups),
    request_access_enabled: project.requestAccessEnabled,
  };
}

const enabled = (on: boolean) => (on ? 'enabled' : 'disabled');

/**
 * The merge settings of every project here: GitLab's defaults, which no route changes. The project
 * record shows them, and its merge requests' `squash`, `detailed_merge_status` and
 * `blocking_discussions_resolved` follow from them.
 */
export const MERGE_SETTINGS: {
  readonly squashOption: 'always' | 'default_on' | 'default_off' | 'never';
  readonly onlyAllowMergeIfPipelineSucceeds: boolean;
  readonly onlyAllowMergeIfAllDiscussionsAreResolved: boolean;
} = { squashOption: 'default_off', onlyAllowMergeIfPipelineSucceeds: false, onlyAllowMergeIfAllDiscussionsAreResolved: false };

function directProjectLevel(ctx: PresentContext, project: Project): number {
  let level = 0;
  for (const m of ctx.state.memberships) {
    if (m.userId === ctx.user?.id && m.source.kind === 'project' && m.source.projectId === project.id) level = Math.max(level, m.accessLevel);
  }
  return level;
}

/**
 * Storage statistics of a project, in bytes. The model keeps no sizes, so they are derived from
 * the id: the same on every start, different between projects, and large enough that a group's
 * sums pass 2^31 (which a 32-bit GraphQL Int could not hold).
 */
export function projectStatistics(project: Project) {
  const mib = 1024 * 1024;
  const repository = ((project.id * 7919) % 900 + 100) * mib;
  const wiki = ((project.id * 31) % 20) * mib;
  const lfs = project.id % 4 === 0 ? ((project.id * 131) % 400) * mib : 0;
  const artifacts = project.jobsEnabled ? ((project.id * 613) % 300) * mib : 0;
  const packages = project.id % 5 === 0 ? 12 * mib : 0;
  const snippets = project.snippetsEnabled ? ((project.id * 17) % 3) * mib : 0;
  const uploads = ((project.id * 53) % 7) * mib;
  return {
    storage_size: repository + wiki + lfs + artifacts + packages + snippets + uploads,
    repository_size: repository,
    wiki_size: wiki,
    lfs_objects_size: lfs,
    job_artifacts_size: artifacts,
    pipeline_artifacts_size: 0,
    packages_size: packages,
    snippets_size: snippets,
    uploads_size: uploads,
  };
}

/**
 * A project of a list with `simple=true`: GitLab's BasicProjectDetails, the identity, URLs and a
 * few counters (rest-v4-api.md: "With simple=true only id, URL, name and path are returned").
 */
export function projectSimple(ctx: PresentContext, project: Project) {
  const webUrl = `${ctx.origin}/${ctx.state.projectFullPath(project)}`;
  return extend(projectIdentity(ctx, project), {
    default_branch: project.defaultBranch,
    tag_list: project.topics,
    topics: project.topics,
    ...urls(ctx, project),
    readme_url: project.emptyRepo ? null : `${webUrl}/-/blob/${project.defaultBranch}/README.md`,
    forks_count: project.forksCount,
    avatar_url: null,
    star_count: project.starCount,
    last_activity_at: project.lastActivityAt,
    namespace: namespace(ctx, project),
  });
}

export interface ProjectPresentation {
  /** GET /projects/:id adds the caller's `permissions` (ProjectWithAccess); lists do not. */
  permissions?: boolean;
  /** `with_custom_attributes=true` by an administrator. */
  customAttributes?: boolean;
}

/**
 * REST's `can_create_merge_request_in`, GitLab's ProjectPolicy `create_merge_request_in`: guest
 * access (a member, or any signed-in caller of a public or internal project) and `download_code`
 * (Reporters and above, or the same non-members), with merge requests and the repository on.
 * Administrators count as Owners. The demo's repositories are on for everyone who sees a project.
 */
function canCreateMergeRequestIn(ctx: PresentContext, project: Project, level: number): boolean {
  if (!ctx.user || !project.mergeRequestsEnabled) return false;
  const effective = ctx.user.isAdmin ? AccessLevel.OWNER : level;
  const nonMemberAccess = project.visibility === 'public' || project.visibility === 'internal';
  return (effective >= AccessLevel.GUEST || nonMemberAccess) && (effective >= AccessLevel.REPORTER || nonMemberAccess);
}

/** The full project record of GET /projects/:id and of project lists (`permissions` only in the former). */
export function projectRecord(ctx: PresentContext, project: Project, presentation: ProjectPresentation = { permissions: true }) {
  const { state, origin, user } = ctx;
  const fullPath = state.projectFullPath(project);
  const webUrl = `${origin}/${fullPath}`;
  const api = `${origin}/api/v4/projects/${project.id}`;
  const level = projectAccessLevel(state, user, project);
  const canAdmin = user?.isAdmin === true || level >= AccessLevel.MAINTAINER;
  const owner = project.namespace.kind === 'user' ? state.users.get(project.namespace.userId) : undefined;
  const direct = directProjectLevel(ctx, project);
  const inherited = project.namespace.kind === 'group' && level > direct ? level : 0;
  return {
    id: project.id,
    description: project.description,
    ...names(ctx, project),
    created_at: project.createdAt,
    default_branch: project.defaultBranch,
    tag_list: project.topics,
    topics: project.topics,
    ...urls(ctx, project),
    readme_url: project.emptyRepo ? null : `${webUrl}/-/blob/${project.defaultBranch}/README.md`,
    avatar_url: null,
    forks_count: project.forksCount,
    star_count: project.starCount,
    last_activity_at: project.lastActivityAt,
    namespace: namespace(ctx, project),
    ...(owner ? { owner: userSummary(ctx, owner) } : {}),
    _links: {
      self: api,
      issues: `${api}/issues`,
      merge_requests: `${api}/merge_requests`,
      repo_branches: `${api}/repository/branches`,
      labels: `${api}/labels`,
      events: `${api}/events`,
      members: `${api}/members`,
      cluster_agents: `${api}/cluster_agents`,
    },
    empty_repo: project.emptyRepo,
    archived: project.archived,
    visibility: project.visibility,
    resolve_outdated_diff_discussions: false,
    container_registry_enabled: true,
    container_expiration_policy: {
      cadence: '1d',
      enabled: false,
      keep_n: 10,
      older_than: '90d',
      name_regex: '.*',
      name_regex_keep: null,
      next_run_at: project.lastActivityAt,
    },
    issues_enabled: project.issuesEnabled,
    merge_requests_enabled: project.mergeRequestsEnabled,
    wiki_enabled: project.wikiEnabled,
    jobs_enabled: project.jobsEnabled,
    snippets_enabled: project.snippetsEnabled,
    can_create_merge_request_in: canCreateMergeRequestIn(ctx, project, level),
    issues_access_level: enabled(project.issuesEnabled),
    repository_access_level: 'enabled',
    merge_requests_access_level: enabled(project.mergeRequestsEnabled),
    forking_access_level: 'enabled',
    wiki_access_level: enabled(project.wikiEnabled),
    builds_access_level: enabled(project.jobsEnabled),
    snippets_access_level: enabled(project.snippetsEnabled),
    pages_access_level: project.visibility === 'public' ? 'public' : 'private',
    security_and_compliance_access_level: 'private',
    emails_disabled: false,
    emails_enabled: true,
    shared_runners_enabled: project.sharedRunnersEnabled,
    lfs_enabled: true,
    creator_id: project.creatorId,
    import_status: 'none',
    open_issues_count: project.openIssuesCount,
    ci_default_git_depth: 20,
    ci_forward_deployment_enabled: true,
    ci_forward_deployment_rollback_allowed: true,
    ci_allow_fork_pipelines_to_run_in_parent_project: true,
    public_jobs: project.publicJobs,
    build_timeout: project.buildTimeout,
    auto_cancel_pending_pipelines: 'enabled',
    build_coverage_regex: null,
    ci_config_path: null,
    shared_with_groups: sharedWithGroups(ctx, project.sharedWithGroups),
    only_allow_merge_if_pipeline_succeeds: MERGE_SETTINGS.onlyAllowMergeIfPipelineSucceeds,
    allow_merge_on_skipped_pipeline: null,
    request_access_enabled: project.requestAccessEnabled,
    only_allow_merge_if_all_discussions_are_resolved: MERGE_SETTINGS.onlyAllowMergeIfAllDiscussionsAreResolved,
    remove_source_branch_after_merge: true,
    printing_merge_request_link_enabled: true,
    merge_method: 'merge',
    squash_option: MERGE_SETTINGS.squashOption,
    suggestion_commit_message: null,
    auto_devops_enabled: false,
    auto_devops_deploy_strategy: 'continuous',
    autoclose_referenced_issues: true,
    repository_storage: 'default',
    // Only Maintainers and administrators see the registration token (as in GitLab).
    ...(canAdmin ? { runners_token: project.runnersToken } : {}),
    ...(presentation.customAttributes && user?.isAdmin ? { custom_attributes: (project.customAttributes ?? []).map(({ key, value }) => ({ key, value })) } : {}),
    ...(user && presentation.permissions
      ? {
          permissions: {
            project_access: direct > 0 ? { access_level: direct, notification_level: 3 } : null,
            group_access: inherited > 0 ? { access_level: inherited, notification_level: 3 } : null,
          },
        }
      : {}),
  };
}
