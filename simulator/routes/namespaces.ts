// One namespace (lib/api/namespaces.rb `GET /namespaces/:id`, API::Entities::Namespace): a user's
// personal namespace or a group, by id or URL-encoded full path. Signed-in callers only
// (`authenticate!`); a namespace the caller may not read (`read_namespace_via_membership`: their
// own personal namespace, administrators every one, a group they can see) is a 404 like one that
// does not exist.
import { canAdminGroup, canReadGroup } from '../data/access.js';
import { AccessLevel, type Group, type User } from '../data/model.js';
import { avatarUrl } from '../entities/users.js';
import { notFound, unauthorized } from '../http/errors.js';
import { p } from '../http/params.js';
import { ok } from '../http/response.js';
import type { RequestContext, Router } from '../http/router.js';

type Namespace = { kind: 'user'; user: User } | { kind: 'group'; group: Group };

/** Namespace ids are one sequence in GitLab: a personal namespace's id is never a group's. */
function findNamespace(ctx: RequestContext<unknown>, idOrPath: string): Namespace | undefined {
  const { state } = ctx;
  if (/^\d+$/.test(idOrPath)) {
    const id = Number(idOrPath);
    const owner = [...state.users.values()].find((user) => user.namespaceId === id);
    if (owner) return { kind: 'user', user: owner };
  } else {
    // A personal namespace's full path is its owner's username, which no top-level group takes.
    const owner = state.findUserByUsername(idOrPath);
    if (owner) return { kind: 'user', user: owner };
  }
  const group = state.findGroup(idOrPath);
  return group ? { kind: 'group', group } : undefined;
}

function mayRead(ctx: RequestContext<unknown>, namespace: Namespace): boolean {
  if (ctx.user?.isAdmin) return true;
  return namespace.kind === 'user' ? namespace.user.id === ctx.user?.id : canReadGroup(ctx.state, ctx.user, namespace.group);
}

/** Group#users_with_descendants: the distinct users with a direct membership of the group or a subgroup. */
function membersWithDescendants(ctx: RequestContext<unknown>, group: Group): number {
  const groupIds = new Set(ctx.state.groupSubtree(group).map((g) => g.id));
  const users = ctx.state.memberships
    .filter((m) => m.source.kind === 'group' && groupIds.has(m.source.groupId) && m.accessLevel >= AccessLevel.GUEST)
    .map((m) => m.userId);
  return new Set(users).size;
}

function namespaceRecord(ctx: RequestContext<unknown>, namespace: Namespace) {
  if (namespace.kind === 'user') {
    const { user } = namespace;
    // User#ensure_namespace_correct: the personal namespace is named after the user and has their username as path.
    return {
      id: user.namespaceId,
      name: user.name,
      path: user.username,
      kind: 'user',
      full_path: user.username,
      parent_id: null,
      avatar_url: avatarUrl(user),
      web_url: `${ctx.origin}/${user.username}`,
    };
  }
  const { group } = namespace;
  const fullPath = ctx.state.groupFullPath(group);
  const record = {
    id: group.id,
    name: group.name,
    path: group.path,
    kind: 'group',
    full_path: fullPath,
    parent_id: group.parentId,
    avatar_url: group.avatarFilename === undefined ? null : `${ctx.origin}/uploads/-/system/group/avatar/${group.id}/${encodeURIComponent(group.avatarFilename)}`,
    web_url: `${ctx.origin}/groups/${fullPath}`,
  };
  // Only those who administer the group (`admin_group`) are told how many members it has.
  return canAdminGroup(ctx.state, ctx.user, group) ? { ...record, members_count_with_descendants: membersWithDescendants(ctx, group) } : record;
}

export function registerNamespaceRoutes(router: Router): void {
  router.get('/namespaces/:id', { auth: 'required', params: { id: p.string().required() } }, (ctx) => {
    if (!ctx.user) throw unauthorized();
    const namespace = findNamespace(ctx, ctx.params.id);
    if (!namespace || !mayRead(ctx, namespace)) throw notFound('Namespace');
    return ok(namespaceRecord(ctx, namespace));
  });
}
