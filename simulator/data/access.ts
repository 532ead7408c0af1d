// Who may see and do what: effective access levels with inheritance and sharing, and the
// visibility rules of rest-conventions §7 ("404 also means you may not see this").
import { AccessLevel, type Group, type Project, type Runner, type User, type Visibility } from './model.js';
import type { SimulatorState } from './state.js';

export type Viewer = User | null;

/** Highest direct membership of the user in the group or one of its ancestors (inheritance). */
function inheritedGroupLevel(state: SimulatorState, user: User, group: Group): number {
  const chain = new Set([group.id, ...state.groupAncestors(group).map((g) => g.id)]);
  let level = AccessLevel.NO_ACCESS as number;
  for (const m of state.memberships) {
    if (m.userId === user.id && m.source.kind === 'group' && chain.has(m.source.groupId)) {
      level = Math.max(level, m.accessLevel);
    }
  }
  return level;
}

/** Access through a share with another group: the member's level there, capped by the share. */
function sharedLevel(state: SimulatorState, user: User, shares: Group['sharedWithGroups']): number {
  let level = AccessLevel.NO_ACCESS as number;
  for (const share of shares) {
    const invited = state.groups.get(share.groupId);
    if (!invited) continue;
    level = Math.max(level, Math.min(share.accessLevel, inheritedGroupLevel(state, user, invited)));
  }
  return level;
}

/** Effective access level of the user in a group (0 = none). Sharing is not transitive. */
export function groupAccessLevel(state: SimulatorState, user: Viewer, group: Group): number {
  if (!user) return AccessLevel.NO_ACCESS;
  let level = inheritedGroupLevel(state, user, group);
  for (const g of [group, ...state.groupAncestors(group)]) {
    level = Math.max(level, sharedLevel(state, user, g.sharedWithGroups));
  }
  return level;
}

/** Effective access level in a project: direct, through its groups, through shares, or as namespace owner. */
export function projectAccessLevel(state: SimulatorState, user: Viewer, project: Project): number {
  if (!user) return AccessLevel.NO_ACCESS;
  let level = AccessLevel.NO_ACCESS as number;
  for (const m of state.memberships) {
    if (m.userId === user.id && m.source.kind === 'project' && m.source.projectId === project.id) {
      level = Math.max(level, m.accessLevel);
    }
  }
  if (project.namespace.kind === 'user') {
    // The owner of a personal namespace owns its projects.
    if (project.namespace.userId === user.id) level = Math.max(level, AccessLevel.OWNER);
  } else {
    const group = state.groups.get(project.namespace.groupId);
    if (group) level = Math.max(level, groupAccessLevel(state, user, group));
  }
  return Math.max(level, sharedLevel(state, user, project.sharedWithGroups));
}

function visibleByVisibility(viewer: Viewer, visibility: Project['visibility']): boolean {
  return visibility === 'public' || (visibility === 'internal' && viewer !== null);
}

export function canReadProject(state: SimulatorState, viewer: Viewer, project: Project): boolean {
  if (viewer?.isAdmin) return true;
  if (visibleByVisibility(viewer, project.visibility)) return true;
  return projectAccessLevel(state, viewer, project) >= AccessLevel.GUEST;
}

/**
 * A group is visible when its visibility allows it, to its members, and (as in GitLab) to anyone
 * who can see something inside it (a subgroup or project they are a member of).
 */
export function canReadGroup(state: SimulatorState, viewer: Viewer, group: Group): boolean {
  if (viewer?.isAdmin) return true;
  if (visibleByVisibility(viewer, group.visibility)) return true;
  if (!viewer) return false;
  const subtree = state.groupSubtree(group);
  if (subtree.some((g) => groupAccessLevel(state, viewer, g) >= AccessLevel.GUEST)) return true;
  const ids = new Set(subtree.map((g) => g.id));
  for (const project of state.projects.values()) {
    if (project.namespace.kind === 'group' && ids.has(project.namespace.groupId)) {
      if (projectAccessLevel(state, viewer, project) >= AccessLevel.GUEST) return true;
    }
  }
  return false;
}

/**
 * "Owns" a runner: Maintainer+ of one of its projects (project runner) or of its group, directly
 * or through an ancestor (group runner). Instance runners are owned by nobody; admins are handled
 * by the callers, because GET /runners applies this rule to administrators too.
 */
export function ownsRunner(state: SimulatorState, user: Viewer, runner: Runner): boolean {
  if (!user) return false;
  if (runner.runnerType === 'group_type') {
    const group = runner.groupId === null ? undefined : state.groups.get(runner.groupId);
    return group !== undefined && groupAccessLevel(state, user, group) >= AccessLevel.MAINTAINER;
  }
  if (runner.runnerType === 'project_type') {
    return runner.projectIds.some((id) => {
      const project = state.projects.get(id);
      return project !== undefined && projectAccessLevel(state, user, project) >= AccessLevel.MAINTAINER;
    });
  }
  return false;
}

/** Owners and administrators administer a group: update it, read its runners token, manage its invitations. */
export function canAdminGroup(state: SimulatorState, viewer: Viewer, group: Group): boolean {
  return viewer?.isAdmin === true || groupAccessLevel(state, viewer, group) >= AccessLevel.OWNER;
}

/** Maintainers and above (and administrators) manage a project's members and invitations. */
export function canAdminProjectMembers(state: SimulatorState, viewer: Viewer, project: Project): boolean {
  return viewer?.isAdmin === true || projectAccessLevel(state, viewer, project) >= AccessLevel.MAINTAINER;
}

/** `create_subgroup`: the parent's `subgroup_creation_level` says whether Maintainers may, or only Owners. */
export function canCreateSubgroup(state: SimulatorState, viewer: Viewer, parent: Group): boolean {
  if (viewer?.isAdmin) return true;
  const needed = parent.subgroupCreationLevel === 'maintainer' ? AccessLevel.MAINTAINER : AccessLevel.OWNER;
  return groupAccessLevel(state, viewer, parent) >= needed;
}

/** Visibilities from the least to the most visible; also the values REST accepts. */
export const VISIBILITIES = ['private', 'internal', 'public'] as const satisfies readonly Visibility[];

/** Whether `a` shows to more people than `b` (public, then internal, then private). */
export function isMoreVisible(a: Visibility, b: Visibility): boolean {
  return VISIBILITIES.indexOf(a) > VISIBILITIES.indexOf(b);
}
