import type { AccessLevelResolvers, GroupMemberRelation, GroupMemberResolvers, MemberInterfaceResolvers, ProjectMemberRelation, ProjectMemberResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';
import type { ConnectionArgs } from '../../connections/window.js';
import { embedded } from '../../cost/field-cost.js';
import { ID_ONLY, USER_SUMMARY } from '../../cost/shapes.js';
import type { MemberListKind, MemberRecord, MemberSource } from '../../datasources/members.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import type { GatewayContext } from '../../server/context.js';
import { toGlobalId } from '../global-id.js';

/** Codegen's enum values are REST's: the relation names in lower case. */
type Relation = GroupMemberRelation | ProjectMemberRelation;

/** Relations that `/members/all` holds besides DIRECT and INHERITED: members through shares. */
const THROUGH_SHARES: ReadonlySet<Relation> = new Set<Relation>(['shared_from_groups', 'invited_groups']);

/**
 * Which REST list answers the relations: `[DIRECT]` is `/members`; DIRECT with INHERITED (and
 * optionally the shares) is `/members/all`, which always holds all three. REST has no list for any
 * other combination, so it is refused before any call.
 */
export function memberListFor(relations: ReadonlyArray<Relation> | null | undefined): MemberListKind {
  const asked = new Set<Relation>(relations ?? ['direct', 'inherited']);
  if (asked.size === 1 && asked.has('direct')) return 'direct';
  const onlyAllList = [...asked].every((relation) => relation === 'direct' || relation === 'inherited' || THROUGH_SHARES.has(relation));
  if (asked.has('direct') && asked.has('inherited') && onlyAllList) return 'all';
  throw badUserInput(
    'REST lists the direct members (`[DIRECT]`), or the direct, inherited and invited members together (`[DIRECT, INHERITED]`); it has no list for the relations asked.',
    'relations',
  );
}

/** A text argument that, when given, must say something. */
function searchText(search: string | null | undefined): string | undefined {
  if (search === null || search === undefined) return undefined;
  if (!search.trim()) throw badUserInput('`search` must not be empty; leave it out to list every member.', 'search');
  return search;
}

export interface MemberListArgs extends ConnectionArgs {
  relations?: ReadonlyArray<Relation> | null;
  search?: string | null;
}

/** A page of a group's or project's members; arguments are checked before any call. */
export function memberConnection(source: MemberSource, args: MemberListArgs, { api }: GatewayContext) {
  const list = memberListFor(args.relations);
  const query = searchText(args.search);
  return restConnection(args, (page) => api.members.all(source, list, query, page));
}

/**
 * `gid://gitlab/GroupMember/<group id>-<user id>`: REST's member records carry the user's id, not
 * the membership's, so the ID names the membership by both (each checked as REST's integer).
 */
function membershipId(member: MemberRecord): string {
  const className = member.source.kind === 'group' ? 'GroupMember' : 'ProjectMember';
  const userPart = toGlobalId('User', member.id).slice('gid://gitlab/User/'.length);
  return `gid://gitlab/${className}/${member.source.id}-${userPart}`;
}

const memberFields = {
  // REST names a membership by its source and its user (see the SDL).
  id: membershipId,
  // The member record is the user summary itself, with the membership's fields beside it.
  user: declared(embedded(USER_SUMMARY), (member: MemberRecord) => member),
  accessLevel: (member: MemberRecord) => member.access_level,
  createdAt: (member: MemberRecord) => member.created_at ?? null,
  createdBy: declared(embedded(USER_SUMMARY), (member: MemberRecord) => member.created_by ?? null),
  expiresAt: (member: MemberRecord) => member.expires_at ?? null,
};

export const MemberInterface: MemberInterfaceResolvers = {
  __resolveType: (member) => (member.source.kind === 'group' ? 'GroupMember' : 'ProjectMember'),
};

export const GroupMember: GroupMemberResolvers = {
  ...memberFields,
  // Only the id is known: any other field of the group is fetched when asked for.
  group: declared(embedded(ID_ONLY), (member) => ({ id: member.source.id })),
};

export const ProjectMember: ProjectMemberResolvers = {
  ...memberFields,
  // Only the id is known: any other field of the project is fetched when asked for.
  project: declared(embedded(ID_ONLY), (member) => ({ id: member.source.id })),
};

export const AccessLevel: AccessLevelResolvers = {
  integerValue: (level) => level,
  // Codegen types enum results by their GraphQL names; the value is REST's integer (enum-values.ts).
  stringValue: ((level: number) => level) as unknown as AccessLevelResolvers['stringValue'],
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { AccessLevel, GroupMember, MemberInterface, ProjectMember };
