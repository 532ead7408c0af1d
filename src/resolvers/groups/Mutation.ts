import type { GroupCreateInput, GroupUpdateInput, MutationResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { embedded, oneCall } from '../../cost/field-cost.js';
import type { GroupSchema, GroupSettings } from '../../datasources/groups.js';
import type { FileUpload } from '../../datasources/file-upload.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import type { Loaders } from '../../datasources/loaders.js';
import { declared } from '../../fields/declaration.js';
import { idFromGlobalId } from '../global-id.js';
import { checkFullPath } from '../projects/Query.js';
import { refusalReasons } from '../refusals.js';
import { isSet } from '../input.js';
import { GROUP_LOADED } from '../../cost/shapes.js';
import { recordField } from '../../fields/patterns.js';

type SharedSettings = Omit<GroupCreateInput, 'clientMutationId' | 'name' | 'path' | 'parentId'>;


function checkNotBlank(value: string, argumentName: string): string {
  if (!value.trim()) throw badUserInput(`\`${argumentName}\` must not be empty.`, argumentName);
  return value;
}

function checkNotNegative(value: number | null | undefined, argumentName: string): number | undefined {
  if (!isSet(value)) return undefined;
  if (value < 0) throw badUserInput(`\`${argumentName}\` must not be negative; got ${value}.`, argumentName);
  return value;
}

/** GitLab's avatar rules (Avatarable): an image, at most 200 KiB. Checked before the upload goes upstream. */
const MAX_AVATAR_BYTES = 200 * 1024;

function checkAvatar(avatar: FileUpload): FileUpload {
  if (!/^image\/(png|jpeg|gif|x-icon|vnd\.microsoft\.icon|webp)$/.test(avatar.mimeType)) {
    throw badUserInput(`\`avatar\` must be a PNG, JPEG, GIF, ICO or WEBP image; got ${avatar.mimeType}.`, 'avatar');
  }
  if (avatar.size > MAX_AVATAR_BYTES) {
    throw badUserInput(`\`avatar\` must be at most 200 KiB; got ${Math.ceil(avatar.size / 1024)} KiB.`, 'avatar');
  }
  return avatar;
}

/** The fields of the create and update table both mutations share, in REST's names, checked before any REST call. */
function sharedSettings(input: SharedSettings): GroupSettings {
  const settings: GroupSettings = {};
  if (isSet(input.avatar)) settings.avatar = checkAvatar(input.avatar);
  if (isSet(input.description)) settings.description = input.description;
  if (isSet(input.membershipLock)) settings.membership_lock = input.membershipLock;
  if (isSet(input.visibility)) settings.visibility = input.visibility;
  if (isSet(input.shareWithGroupLock)) settings.share_with_group_lock = input.shareWithGroupLock;
  if (isSet(input.requireTwoFactorAuthentication)) settings.require_two_factor_authentication = input.requireTwoFactorAuthentication;
  const gracePeriod = checkNotNegative(input.twoFactorGracePeriod, 'twoFactorGracePeriod');
  if (gracePeriod !== undefined) settings.two_factor_grace_period = gracePeriod;
  if (isSet(input.projectCreationLevel)) settings.project_creation_level = input.projectCreationLevel;
  if (isSet(input.autoDevopsEnabled)) settings.auto_devops_enabled = input.autoDevopsEnabled;
  if (isSet(input.subgroupCreationLevel)) settings.subgroup_creation_level = input.subgroupCreationLevel;
  if (isSet(input.emailsDisabled)) settings.emails_disabled = input.emailsDisabled;
  if (isSet(input.mentionsDisabled)) settings.mentions_disabled = input.mentionsDisabled;
  if (isSet(input.lfsEnabled)) settings.lfs_enabled = input.lfsEnabled;
  if (isSet(input.requestAccessEnabled)) settings.request_access_enabled = input.requestAccessEnabled;
  if (isSet(input.defaultBranchProtection)) settings.default_branch_protection = input.defaultBranchProtection;
  const minutes = checkNotNegative(input.sharedRunnersMinutesLimit, 'sharedRunnersMinutesLimit');
  if (minutes !== undefined) settings.shared_runners_minutes_limit = minutes;
  const extraMinutes = checkNotNegative(input.extraSharedRunnersMinutesLimit, 'extraSharedRunnersMinutesLimit');
  if (extraMinutes !== undefined) settings.extra_shared_runners_minutes_limit = extraMinutes;
  return settings;
}

function updateSettings(input: GroupUpdateInput): GroupSettings {
  const { clientMutationId: _clientMutationId, fullPath: _fullPath, id: _id, name, path, fileTemplateProjectId, preventForkingOutsideGroup, sharedRunnersSetting, ...shared } = input;
  const settings = sharedSettings(shared);
  if (isSet(name)) settings.name = checkNotBlank(name, 'name');
  if (isSet(path)) settings.path = checkNotBlank(path, 'path');
  if (isSet(fileTemplateProjectId)) settings.file_template_project_id = idFromGlobalId(fileTemplateProjectId, 'Project', 'fileTemplateProjectId');
  if (isSet(preventForkingOutsideGroup)) settings.prevent_forking_outside_group = preventForkingOutsideGroup;
  if (isSet(sharedRunnersSetting)) settings.shared_runners_setting = checkNotBlank(sharedRunnersSetting, 'sharedRunnersSetting');
  return settings;
}

/** A write changed the group: every cached form of it (by id and by its old full path) goes. */
export function forgetGroup(loaders: Loaders, group: Pick<GroupSchema, 'id' | 'full_path'>): void {
  for (const loader of [loaders.group, loaders.groupWithProjects, loaders.groupWithCustomAttributes]) loader.clear(group);
}

const groupMutations: Pick<MutationResolvers, 'groupCreate' | 'groupUpdate'> = {
  groupCreate: declared({ ...oneCall(), rest: ['POST /groups'] }, async (_parent, { input }, { api, loaders }) => {
    const { clientMutationId, name, path, parentId, ...shared } = input;
    const settings: GroupSettings = { name: checkNotBlank(name, 'name'), path: checkNotBlank(path, 'path'), ...sharedSettings(shared) };
    if (isSet(parentId)) settings.parent_id = idFromGlobalId(parentId, 'Group', 'parentId');
    try {
      const group = await api.groups.create(settings);
      loaders.group.prime(group);
      return { clientMutationId: clientMutationId ?? null, errors: [], group };
    } catch (error) {
      const reasons = refusalReasons(error);
      if (reasons) return { clientMutationId: clientMutationId ?? null, errors: reasons, group: null };
      throw error;
    }
  }),

  // By full path it looks the group up first (PUT takes the numeric id only).
  groupUpdate: declared(
    {
      calls: (args) => ((args['input'] as { fullPath?: unknown } | undefined)?.fullPath ? 2 : 1),
      rest: ['GET /groups/:id', 'PUT /groups/:id'],
    },
    async (_parent, { input }, { api, loaders }) => {
      if (isSet(input.fullPath) === isSet(input.id)) throw badUserInput('Give exactly one of `fullPath` and `id`.', 'input');
      const changes = updateSettings(input);
      if (Object.keys(changes).length === 0) throw badUserInput('Give at least one field to change.', 'input');
      // PUT /groups/:id takes the numeric id only, so a full path costs one look-up first.
      const known: Pick<GroupSchema, 'id' | 'full_path'> = isSet(input.id)
        ? { id: idFromGlobalId(input.id, 'Group', 'id') }
        : await loaders.group.load(checkFullPath(input.fullPath!));
      try {
        const group = await api.groups.edit(known.id, changes);
        // Old and new full path both, since a rename moves the group's path key.
        forgetGroup(loaders, known);
        forgetGroup(loaders, group);
        loaders.group.prime(group);
        return { clientMutationId: input.clientMutationId ?? null, errors: [], group };
      } catch (error) {
        const reasons = refusalReasons(error);
        if (reasons) return { clientMutationId: input.clientMutationId ?? null, errors: reasons, group: null };
        throw error;
      }
    },
  ),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Mutation: groupMutations, GroupCreatePayload: { group: recordField(embedded(GROUP_LOADED)) }, GroupUpdatePayload: { group: recordField(embedded(GROUP_LOADED)) } };
