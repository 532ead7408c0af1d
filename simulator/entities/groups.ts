// Group shapes: the list record (fixtures/groups/list-groups.json) and the detail of
// GET /groups/:id (fixtures/groups/get-group.json).
import { canReadProject, groupAccessLevel } from '../data/access.js';
import { AccessLevel, type Group } from '../data/model.js';
import type { PresentContext } from './context.js';
import { projectInGroupDetail, sharedWithGroups } from './projects.js';

/** rest-conventions §10: GET /groups/:id embeds at most 100 projects / shared_projects. */
export const MAX_EMBEDDED_PROJECTS = 100;

export function groupRecord(ctx: PresentContext, group: Group) {
  const fullPath = ctx.state.groupFullPath(group);
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
    avatar_url: null,
    web_url: `${ctx.origin}/groups/${fullPath}`,
    request_access_enabled: group.requestAccessEnabled,
    repository_storage: 'default',
    full_name: ctx.state.groupFullName(group),
    full_path: fullPath,
    file_template_project_id: group.fileTemplateProjectId,
    parent_id: group.parentId,
    created_at: group.createdAt,
    ip_restriction_ranges: null,
  };
}

export function groupDetail(ctx: PresentContext, group: Group, withProjects: boolean) {
  const { state, user } = ctx;
  // The registration token only for group owners and administrators (rest-v4-api.md "Authentication" 5).
  const isOwner = user?.isAdmin === true || groupAccessLevel(state, user, group) >= AccessLevel.OWNER;
  const visible = [...state.projects.values()].filter((p) => canReadProject(state, user, p));
  const detail: Record<string, unknown> = {
    ...groupRecord(ctx, group),
    ...(isOwner ? { runners_token: group.runnersToken } : {}),
    enabled_git_access_protocol: 'all',
    shared_with_groups: sharedWithGroups(ctx, group.sharedWithGroups),
    prevent_sharing_groups_outside_hierarchy: false,
    only_allow_merge_if_pipeline_succeeds: false,
    allow_merge_on_skipped_pipeline: false,
    only_allow_merge_if_all_discussions_are_resolved: false,
    math_rendering_limits_enabled: true,
    lock_math_rendering_limits_enabled: false,
  };
  if (withProjects) {
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
