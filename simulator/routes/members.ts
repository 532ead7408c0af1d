// Group and project members (GitLab REST "Group and project members"): the direct members
// (`/members`), everyone with access including through ancestor groups and shares (`/members/all`,
// one entry per user at their highest level), and one member of either list. The members API
// authenticates every request (`before { authenticate! }`); then whoever can see the group or
// project can list its members.
import { groupAccessLevel, projectAccessLevel } from '../data/access.js';
import { AccessLevel, type Group, type Project, type User } from '../data/model.js';
import type { SimulatorState } from '../data/state.js';
import { userSummary } from '../entities/users.js';
import type { PresentContext } from '../entities/context.js';
import { messageError } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { p } from '../http/params.js';
import { ok } from '../http/response.js';
import type { RequestContext, Router } from '../http/router.js';
import { visibleGroup, visibleProject } from './lookup.js';

type Source = { kind: 'group'; group: Group } | { kind: 'project'; project: Project };

interface MemberEntry {
  user: User;
  accessLevel: number;
  expiresAt: string | null;
}

/** Memberships of the source itself; a personal project's namespace owner is its Owner. */
function directMembers(state: SimulatorState, source: Source): MemberEntry[] {
  const entries = new Map<number, MemberEntry>();
  for (const membership of state.memberships) {
    const matches =
      source.kind === 'group'
        ? membership.source.kind === 'group' && membership.source.groupId === source.group.id
        : membership.source.kind === 'project' && membership.source.projectId === source.project.id;
    const user = state.users.get(membership.userId);
    if (matches && user) entries.set(user.id, { user, accessLevel: membership.accessLevel, expiresAt: membership.expiresAt });
  }
  if (source.kind === 'project' && source.project.namespace.kind === 'user' && !entries.has(source.project.namespace.userId)) {
    const owner = state.users.get(source.project.namespace.userId);
    if (owner) entries.set(owner.id, { user: owner, accessLevel: AccessLevel.OWNER, expiresAt: null });
  }
  return [...entries.values()];
}

/** Everyone with access, at their effective (highest) level: direct, inherited and through shares. */
function allMembers(state: SimulatorState, source: Source): MemberEntry[] {
  const direct = new Map(directMembers(state, source).map((entry) => [entry.user.id, entry]));
  const entries: MemberEntry[] = [];
  for (const user of state.users.values()) {
    const level = source.kind === 'group' ? groupAccessLevel(state, user, source.group) : projectAccessLevel(state, user, source.project);
    if (level < AccessLevel.GUEST) continue;
    entries.push({ user, accessLevel: level, expiresAt: direct.get(user.id)?.expiresAt ?? null });
  }
  return entries;
}

/**
 * `query` is GitLab's `User.search` without private e-mails: a name or username containing the
 * text (any case, a leading `@` dropped), or a public e-mail equal to it.
 */
function matchesQuery(user: User, query: string | undefined): boolean {
  if (!query) return true;
  const text = query.replace(/^@/, '').toLowerCase();
  if (text === '') return false;
  return user.name.toLowerCase().includes(text) || user.username.toLowerCase().includes(text) || user.publicEmail.toLowerCase() === text;
}

/** The member entity: the user summary, the level, and when the membership was made and ends. */
function memberRecord(ctx: PresentContext, entry: MemberEntry) {
  return {
    ...userSummary(ctx, entry.user),
    // The model keeps no creation time of a membership; the user's own is the closest honest date.
    created_at: entry.user.createdAt,
    expires_at: entry.expiresAt,
    access_level: entry.accessLevel,
    membership_state: 'active',
  };
}

function sourceOf(ctx: RequestContext<unknown>, kind: 'group' | 'project', id: string): Source {
  return kind === 'group' ? { kind, group: visibleGroup(ctx, id) } : { kind, project: visibleProject(ctx, id) };
}

const listParams = { id: p.string().required(), query: p.string(), user_ids: p.integerArray() };

export function registerMemberRoutes(router: Router): void {
  for (const kind of ['group', 'project'] as const) {
    const base = kind === 'group' ? '/groups/:id' : '/projects/:id';
    for (const [suffix, list] of [
      ['/members', directMembers],
      ['/members/all', allMembers],
    ] as const) {
      router.get(`${base}${suffix}`, { auth: 'required', paginated: true, params: listParams }, (ctx) => {
        const source = sourceOf(ctx, kind, ctx.params.id);
        const userIds = ctx.params.user_ids && ctx.params.user_ids.length > 0 ? new Set(ctx.params.user_ids) : undefined;
        const entries = list(ctx.state, source)
          .filter((entry) => matchesQuery(entry.user, ctx.params.query) && (!userIds || userIds.has(entry.user.id)))
          .sort((a, b) => a.user.id - b.user.id);
        return paginate(ctx, entries, (entry) => memberRecord(ctx, entry));
      });
      router.get(`${base}${suffix}/:user_id`, { auth: 'required', params: { id: p.string().required(), user_id: p.integer().required() } }, (ctx) => {
        const source = sourceOf(ctx, kind, ctx.params.id);
        const entry = list(ctx.state, source).find((candidate) => candidate.user.id === ctx.params.user_id);
        // `members.find_by!(user_id:)`: ActiveRecord's not-found body, lower-case "found".
        if (!entry) throw messageError(404, '404 Not found');
        return ok(memberRecord(ctx, entry));
      });
    }
  }
}
