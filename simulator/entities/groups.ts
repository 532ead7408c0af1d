// Group shapes: the list record (fixtures/groups/list-groups.json, with `statistics` as in
// list-groups-with-statistics.json) and the detail of GET /groups/:id, POST /groups and
// PUT /groups/:id (fixtures/groups/get-group.json, update-group.json, archive-group.json).
import { canAdminGroup, canReadProject } from '../data/access.js';
import { AccessLevel, type Group } from '../data/model.js';
import type { PresentContext } from './context.js';
import { extend } from './extend.js';
import { projectInGroupDetail, projectStatistics, sharedWithGroups } from './projects.js';

/** rest-conventions §10: GET /groups/:id embeds at most 100 projects / shared_projects. */
export const MAX_EMBEDDED_PROJECTS = 100;

export interface GroupPresentation {
  /** `statistics=true` by an administrator (GitLab ignores it for everyone else). */
  statistics?: boolean;
  /** `with_custom_attributes=true` by an administrator. */
  customAttributes?: boolean;
}

/**
 * Storage statistics of a group: the sums over its own projects (GitLab's `with_statistics`),
 * so they are consistent with the projects the group holds.
 */
function groupStatistics(ctx: PresentContext, group: Group) {
  const totals = {
    storage_size: 0,
    repository_size: 0,
    wiki_size: 0,
    lfs_objects_size: 0,
    job_artifacts_size: 0,
    pipeline_artifacts_size: 0,
    packages_size: 0,
    snippets_size: 0,
    uploads_size: 0,
  };
  for (const project of ctx.state.projects.values()) {
    if (project.namespace.kind !== 'group' || project.namespace.groupId !== group.id) continue;
    const stats = projectStatistics(project);
    for (const key of Object.keys(totals) as Array<keyof typeof totals>) totals[key] += stats[key];
  }
  return totals;
}

export function customAttributesOf(attributes: Group['customAttributes']) {
  return (attributes ?? []).map(({ key, value }) => ({ key, value }));
}

export function groupRecord(ctx: PresentContext, group: Group, presentation: GroupPresentation = {}) {
  const fullPath = ctx.state.groupFullPath(group);
  const admin = ctx.user?.isAdmin === true;
  return {
    id: group.id,
    name: group.name,
    path: group.path,
    description: group.description,
    visibility: group.visibility,
    share_with_group_lock: group.shareWithGroupLock,
    require_two_factor_authentication: group.requireTwoFactorAuthentication,
    two_factor_grace_period: group.twoFactorGracePeriod,
    project_creation_level: group.projectCreationLevel,
    auto_devops_enabled: group.autoDevopsEnabled,
    subgroup_creation_level: group.subgroupCreationLevel,
    emails_disabled: group.emailsDisabled,
    emails_enabled: group.emailsDisabled === null ? null : !group.emailsDisabled,
    mentions_disabled: group.mentionsDisabled,
    lfs_enabled: group.lfsEnabled,
    default_branch: null,
    default_branch_protection: group.defaultBranchProtection,
    default_branch_protection_defaults: {
      allowed_to_push: [{ access_level: group.defaultBranchProtection === 2 ? AccessLevel.MAINTAINER : AccessLevel.DEVELOPER }],
      allow_force_push: group.defaultBranchProtection === 0,
      allowed_to_merge: [{ access_level: AccessLevel.MAINTAINER }],
    },
    avatar_url: group.avatarFilename === undefined ? null : `${ctx.origin}/uploads/-/system/group/avatar/${group.id}/${encodeURIComponent(group.avatarFilename)}`,
    web_url: `${ctx.origin}/groups/${fullPath}`,
    request_access_enabled: group.requestAccessEnabled,
    repository_storage: 'default',
    full_name: ctx.state.groupFullName(group),
    full_path: fullPath,
    file_template_project_id: group.fileTemplateProjectId,
    parent_id: group.parentId,
    created_at: group.createdAt,
    ip_restriction_ranges: null,
    ...(presentation.statistics && admin ? { statistics: groupStatistics(ctx, group) } : {}),
    ...(presentation.customAttributes && admin ? { custom_attributes: customAttributesOf(group.customAttributes) } : {}),
  };
}

export interface GroupDetailPresentation {
  withProjects: boolean;
  customAttributes?: boolean;
}

export function groupDetail(ctx: PresentContext, group: Group, presentation: GroupDetailPresentation) {
  const { state, user } = ctx;
  const detail: Record<string, unknown> = extend(groupRecord(ctx, group, { customAttributes: presentation.customAttributes === true }), {
    // The registration token only for group owners and administrators (rest-v4-api.md "Authentication" 5).
    ...(canAdminGroup(state, user, group) ? { runners_token: group.runnersToken } : {}),
    enabled_git_access_protocol: 'all',
    shared_with_groups: sharedWithGroups(ctx, group.sharedWithGroups),
    prevent_sharing_groups_outside_hierarchy: false,
    only_allow_merge_if_pipeline_succeeds: false,
    allow_merge_on_skipped_pipeline: false,
    only_allow_merge_if_all_discussions_are_resolved: false,
    math_rendering_limits_enabled: true,
    lock_math_rendering_limits_enabled: false,
    // Tier-restricted attributes (fixtures/groups/archive-group.json and the Premium fragment): the
    // simulator answers as a Premium instance, so what the gateway passes through comes back.
    shared_runners_setting: group.sharedRunnersSetting ?? 'enabled',
    membership_lock: group.membershipLock ?? false,
    prevent_forking_outside_group: group.preventForkingOutsideGroup ?? null,
    shared_runners_minutes_limit: group.sharedRunnersMinutesLimit ?? null,
    extra_shared_runners_minutes_limit: group.extraSharedRunnersMinutesLimit ?? null,
    marked_for_deletion_on: null,
  });
  if (presentation.withProjects) {
    const visible = [...state.projects.values()].filter((p) => canReadProject(state, user, p));
    detail['projects'] = visible
      .filter((p) => p.namespace.kind === 'group' && p.namespace.groupId === group.id)
      .slice(0, MAX_EMBEDDED_PROJECTS)
      .map((p) => projectInGroupDetail(ctx, p));
    detail['shared_projects'] = visible
      .filter((p) => p.sharedWithGroups.some((s) => s.groupId === group.id))
      .slice(0, MAX_EMBEDDED_PROJECTS)
      .map((p) => projectInGroupDetail(ctx, p));
  }
  return detail;
}
