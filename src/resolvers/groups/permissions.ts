import type { GroupPermissionsResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import type { GroupSchema } from '../../datasources/groups.js';
import type { GroupAbilities } from '../../records/groups.js';
import type { GatewayContext } from '../../server/context.js';
import { FULL_RECORD_LOADERS } from '../full-records.js';
import { nullWhenNotFound } from '../lookups.js';
import { callerOf } from '../caller.js';

const DEVELOPER = 30;
const MAINTAINER = 40;
const OWNER = 50;

/** The caller's effective membership (`GET /groups/:id/members/all/:user_id`); 404 means none. */
export async function groupAbilities(group: GroupSchema, context: GatewayContext): Promise<GroupAbilities> {
  const caller = await callerOf(context);
  const full = group.project_creation_level === undefined ? ((await FULL_RECORD_LOADERS['Group']!(group, context)) as GroupSchema) : group;
  let level = 0;
  if (caller?.isAdmin) level = OWNER;
  else if (caller) {
    const member = await nullWhenNotFound(context.api.members.effective({ kind: 'group', id: group.id }, caller.id));
    level = member?.access_level ?? 0;
  }
  return { level, projectCreationLevel: full.project_creation_level };
}

/** GitLab's GroupPolicy, for the abilities GitLab's frontend asks of a group. */
export const GroupPermissions: GroupPermissionsResolvers = {
  // The group was fetched for the caller, so they may read it.
  readGroup: () => true,
  // `project_creation_level`: developer (GitLab's default), maintainer, or noone (prevents everyone).
  createProjects: ({ level, projectCreationLevel }) => {
    if (projectCreationLevel === 'noone') return false;
    return level >= (projectCreationLevel === 'maintainer' ? MAINTAINER : DEVELOPER);
  },
  createCustomEmoji: ({ level }) => level >= DEVELOPER,
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { GroupPermissions };
