// POST /groups and PUT /groups/:id (rest-v4-api.md "Groups", the create and update table).
// Both persist. Failures answer as lib/api/groups.rb does: a create that does not save gives
// `{"message": "Failed to save group {...}"}`, an update gives the model errors (§6.3).
import { canAdminGroup, canCreateSubgroup, isMoreVisible, VISIBILITIES } from '../../data/access.js';
import { AccessLevel, type Group, type Visibility } from '../../data/model.js';
import type { SimulatorState } from '../../data/state.js';
import { groupDetail } from '../../entities/groups.js';
import { forbidden, messageError, validationError } from '../../http/errors.js';
import { p, type ParamsOf } from '../../http/params.js';
import { created, ok } from '../../http/response.js';
import type { RequestContext, Router } from '../../http/router.js';
import type { UploadedFile } from '../../http/uploaded-file.js';
import { visibleGroup } from '../lookup.js';

const SHARED_RUNNERS_SETTINGS = ['enabled', 'disabled_and_overridable', 'disabled_and_unoverridable', 'disabled_with_override'] as const;

/** Fields both POST /groups and PUT /groups/:id accept (`optional_params` in lib/api/groups.rb). */
const settingParams = {
  avatar: p.file(),
  description: p.string(),
  membership_lock: p.boolean(),
  visibility: p.string().values(VISIBILITIES),
  share_with_group_lock: p.boolean(),
  require_two_factor_authentication: p.boolean(),
  two_factor_grace_period: p.integer(),
  project_creation_level: p.string().values(['noone', 'maintainer', 'developer']),
  auto_devops_enabled: p.boolean(),
  subgroup_creation_level: p.string().values(['owner', 'maintainer']),
  emails_disabled: p.boolean(),
  mentions_disabled: p.boolean(),
  lfs_enabled: p.boolean(),
  request_access_enabled: p.boolean(),
  default_branch_protection: p.integer().values([0, 1, 2]),
  shared_runners_minutes_limit: p.integer().nullable(),
  extra_shared_runners_minutes_limit: p.integer().nullable(),
};

const updateOnlyParams = {
  name: p.string(),
  path: p.string(),
  file_template_project_id: p.integer().nullable(),
  prevent_forking_outside_group: p.boolean(),
  shared_runners_setting: p.string().values(SHARED_RUNNERS_SETTINGS),
};

type Settings = Partial<ParamsOf<typeof settingParams> & ParamsOf<typeof updateOnlyParams>>;

// GitLab's namespace path rule (Gitlab::PathRegex.namespace_format_regex).
const PATH_FORMAT = /^(?:[a-zA-Z0-9_.][a-zA-Z0-9_.-]*[a-zA-Z0-9_-]|[a-zA-Z0-9_])$/;
const PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.";

type FieldErrors = Record<string, string[]>;

function add(errors: FieldErrors, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}

/**
 * The model validations of a group about to be saved: name, path (unique among siblings) and
 * visibility. The visibility rules run when the visibility is set or changes, as GitLab's do, so a
 * group saved before a rule existed can still be updated.
 */
function validate(state: SimulatorState, group: Group, visibilityChanged = true): FieldErrors {
  const errors: FieldErrors = {};
  if (!group.name.trim()) add(errors, 'name', "can't be blank");
  else if (group.name.length > 255) add(errors, 'name', 'is too long (maximum is 255 characters)');
  if (!group.path) add(errors, 'path', "can't be blank");
  else if (!PATH_FORMAT.test(group.path) || /\.(git|atom)$/i.test(group.path)) add(errors, 'path', PATH_MESSAGE);
  const siblingTaken = [...state.groups.values()].some(
    (other) => other.id !== group.id && other.parentId === group.parentId && other.path.toLowerCase() === group.path.toLowerCase(),
  );
  // A top-level group shares its namespace with usernames.
  const userTaken = group.parentId === null && state.findUserByUsername(group.path) !== undefined;
  if (siblingTaken || userTaken) add(errors, 'path', 'has already been taken');
  if (group.twoFactorGracePeriod < 0) add(errors, 'two_factor_grace_period', 'must be greater than or equal to 0');

  if (!visibilityChanged) return errors;
  const parent = group.parentId === null ? undefined : state.groups.get(group.parentId);
  if (parent && isMoreVisible(group.visibility, parent.visibility)) {
    add(errors, 'visibility_level', `${group.visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`);
  }
  const children = [...state.groups.values()].filter((g) => g.parentId === group.id);
  if (children.some((child) => isMoreVisible(child.visibility, group.visibility))) {
    add(errors, 'visibility_level', `${group.visibility} is not allowed since there are sub-groups with higher visibility.`);
  }
  const projects = [...state.projects.values()].filter((project) => project.namespace.kind === 'group' && project.namespace.groupId === group.id);
  if (projects.some((project) => isMoreVisible(project.visibility, group.visibility))) {
    add(errors, 'visibility_level', `${group.visibility} is not allowed since this group contains projects with higher visibility.`);
  }
  return errors;
}

/** Ruby's Hash#inspect of model errors, as `"Failed to save group #{group.errors.messages}"` prints it. */
function rubyInspect(errors: FieldErrors): string {
  const pairs = Object.entries(errors).map(([field, messages]) => `:${field}=>[${messages.map((m) => JSON.stringify(m)).join(', ')}]`);
  return `{${pairs.join(', ')}}`;
}

/** GitLab's Avatarable rules: an image of an allowed type, at most 200 KiB. */
const AVATAR_TYPES = /\.(png|jpe?g|gif|ico|webp)$/i;
const MAX_AVATAR_BYTES = 200 * 1024;

function validateAvatar(avatar: UploadedFile | undefined): void {
  if (avatar === undefined) return;
  if (!AVATAR_TYPES.test(avatar.filename)) {
    throw validationError({ avatar: ['file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp'] });
  }
  if (avatar.size > MAX_AVATAR_BYTES) throw validationError({ avatar: ['is too big (should be at most 200 KiB)'] });
}

function applySettings(group: Group, settings: Settings): void {
  if (settings.avatar !== undefined) group.avatarFilename = settings.avatar.filename;
  if (settings.name !== undefined) group.name = settings.name;
  if (settings.path !== undefined) group.path = settings.path;
  if (settings.description !== undefined) group.description = settings.description;
  if (settings.visibility !== undefined) group.visibility = settings.visibility as Visibility;
  if (settings.membership_lock !== undefined) group.membershipLock = settings.membership_lock;
  if (settings.share_with_group_lock !== undefined) group.shareWithGroupLock = settings.share_with_group_lock;
  if (settings.require_two_factor_authentication !== undefined) group.requireTwoFactorAuthentication = settings.require_two_factor_authentication;
  if (settings.two_factor_grace_period !== undefined) group.twoFactorGracePeriod = settings.two_factor_grace_period;
  if (settings.project_creation_level !== undefined) group.projectCreationLevel = settings.project_creation_level as Group['projectCreationLevel'];
  if (settings.auto_devops_enabled !== undefined) group.autoDevopsEnabled = settings.auto_devops_enabled;
  if (settings.subgroup_creation_level !== undefined) group.subgroupCreationLevel = settings.subgroup_creation_level as Group['subgroupCreationLevel'];
  if (settings.emails_disabled !== undefined) group.emailsDisabled = settings.emails_disabled;
  if (settings.mentions_disabled !== undefined) group.mentionsDisabled = settings.mentions_disabled;
  if (settings.lfs_enabled !== undefined) group.lfsEnabled = settings.lfs_enabled;
  if (settings.request_access_enabled !== undefined) group.requestAccessEnabled = settings.request_access_enabled;
  if (settings.default_branch_protection !== undefined) group.defaultBranchProtection = settings.default_branch_protection as Group['defaultBranchProtection'];
  if (settings.shared_runners_minutes_limit !== undefined) group.sharedRunnersMinutesLimit = settings.shared_runners_minutes_limit;
  if (settings.extra_shared_runners_minutes_limit !== undefined) group.extraSharedRunnersMinutesLimit = settings.extra_shared_runners_minutes_limit;
  if (settings.file_template_project_id !== undefined) group.fileTemplateProjectId = settings.file_template_project_id;
  if (settings.prevent_forking_outside_group !== undefined) group.preventForkingOutsideGroup = settings.prevent_forking_outside_group;
  if (settings.shared_runners_setting !== undefined) group.sharedRunnersSetting = settings.shared_runners_setting;
}

function createGroup(ctx: RequestContext<Settings & { name: string; path: string; parent_id?: number | undefined }>) {
  const { state, user, params } = ctx;
  let parent: Group | undefined;
  if (params.parent_id !== undefined) {
    parent = visibleGroup(ctx, params.parent_id);
    if (!canCreateSubgroup(state, user, parent)) throw forbidden();
  }
  // Every signed-in user may create top-level groups here (GitLab's default `can_create_group`).
  const group: Group = {
    id: 0,
    name: params.name,
    path: params.path,
    parentId: parent?.id ?? null,
    description: '',
    visibility: 'private',
    createdAt: state.now.toISOString(),
    runnersToken: '',
    sharedWithGroups: [],
    requestAccessEnabled: true,
    shareWithGroupLock: false,
    requireTwoFactorAuthentication: false,
    twoFactorGracePeriod: 48,
    projectCreationLevel: 'developer',
    subgroupCreationLevel: 'maintainer',
    autoDevopsEnabled: null,
    emailsDisabled: null,
    mentionsDisabled: null,
    lfsEnabled: true,
    // The instance default (rest-v4-api.md: "create default is the global setting").
    defaultBranchProtection: 2,
    fileTemplateProjectId: null,
  };
  validateAvatar(params.avatar);
  applySettings(group, params);
  const errors = validate(state, group);
  if (Object.keys(errors).length > 0) throw messageError(400, `Failed to save group ${rubyInspect(errors)}`);
  group.id = state.nextId('groups');
  group.runnersToken = `GR1348941-group-${group.id}-${group.path}`;
  state.groups.set(group.id, group);
  // The creator owns the new group (Groups::CreateService).
  if (user) state.memberships.push({ userId: user.id, source: { kind: 'group', groupId: group.id }, accessLevel: AccessLevel.OWNER, expiresAt: null });
  return created(groupDetail(ctx, group, { withProjects: false }));
}

export function registerGroupWriteRoutes(router: Router): void {
  router.post(
    '/groups',
    { auth: 'required', params: { name: p.string().required(), path: p.string().required(), parent_id: p.integer(), ...settingParams } },
    (ctx) => createGroup(ctx),
  );

  // rest-v4-api.md says `id (integer, required)`, but lib/api/groups.rb declares it a String and
  // finds the group by id or URL-encoded full path (`find_group!`), as every group route does.
  router.put('/groups/:id', { auth: 'required', params: { id: p.string().required(), ...settingParams, ...updateOnlyParams } }, (ctx) => {
    const { state, user } = ctx;
    const group = visibleGroup(ctx, ctx.params.id);
    if (!canAdminGroup(state, user, group)) throw forbidden();
    validateAvatar(ctx.params.avatar);
    const draft: Group = { ...group };
    applySettings(draft, ctx.params);
    const errors = validate(state, draft, draft.visibility !== group.visibility);
    if (Object.keys(errors).length > 0) throw validationError(errors);
    Object.assign(group, draft);
    return ok(groupDetail(ctx, group, { withProjects: true }));
  });
}
