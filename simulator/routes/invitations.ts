// Invitations by e-mail to groups and projects (rest-v4-api.md "Invitations"; GitLab's
// lib/api/invitations.rb). Listing, updating and deleting need the right to manage members:
// Owner of a group, Maintainer of a project, or an administrator; the source must be visible first.
import { canAdminGroup, canAdminProjectMembers } from '../data/access.js';
import { AccessLevel, type Invitation, type Membership } from '../data/model.js';
import type { SimulatorState } from '../data/state.js';
import { invitationEntity } from '../entities/invitations.js';
import { badRequest, forbidden, grapeError, notFound, validationError } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { p } from '../http/params.js';
import { created, noContent, ok } from '../http/response.js';
import type { RequestContext, Router } from '../http/router.js';
import { visibleGroup, visibleProject } from './lookup.js';

type SourceKind = 'group' | 'project';
type Source = Membership['source'];

/** The most addresses one POST may invite (Members::CreateService). */
const MAX_INVITES = 100;
const EMAIL = /^[^@\s,]+@[^@\s,]+\.[^@\s,]+$/;
/** `member_access_levels`, what Grape accepts on create; which of them a source allows is checked per address. */
const MEMBER_ACCESS_LEVELS = [5, 10, 20, 30, 40, 50] as const;
/** `Gitlab::Access.all_values`, what Grape accepts on update. */
const ALL_ACCESS_LEVELS = [0, 5, 10, 20, 30, 40, 50] as const;

/** The source named by the path, visible (404 otherwise) and manageable by the caller (403 otherwise). */
function managedSource(ctx: RequestContext<unknown>, kind: SourceKind, id: string): Source {
  const { state, user } = ctx;
  if (kind === 'group') {
    const group = visibleGroup(ctx, id);
    if (!canAdminGroup(state, user, group)) throw forbidden();
    return { kind: 'group', groupId: group.id };
  }
  const project = visibleProject(ctx, id);
  if (!canAdminProjectMembers(state, user, project)) throw forbidden();
  return { kind: 'project', projectId: project.id };
}

function sameSource(a: Source, b: Source): boolean {
  return a.kind === 'group' ? b.kind === 'group' && a.groupId === b.groupId : b.kind === 'project' && a.projectId === b.projectId;
}

/** Owner only for groups (rest-v4-api.md "Access levels"); Minimal access only on top-level groups. */
function allowedLevels(state: SimulatorState, source: Source): number[] {
  if (source.kind === 'project') return [AccessLevel.GUEST, AccessLevel.REPORTER, AccessLevel.DEVELOPER, AccessLevel.MAINTAINER];
  const topLevel = state.groups.get(source.groupId)?.parentId === null;
  return [...(topLevel ? [AccessLevel.MINIMAL] : []), AccessLevel.GUEST, AccessLevel.REPORTER, AccessLevel.DEVELOPER, AccessLevel.MAINTAINER, AccessLevel.OWNER];
}

function invitationsOf(state: SimulatorState, source: Source): Invitation[] {
  return [...state.invitations.values()].filter((invitation) => sameSource(invitation.source, source)).sort((a, b) => a.id - b.id);
}

function findInvitation(state: SimulatorState, source: Source, email: string): Invitation | undefined {
  const wanted = email.toLowerCase();
  return invitationsOf(state, source).find((invitation) => invitation.email.toLowerCase() === wanted);
}

/** `YYYY-MM-DD` or an ISO 8601 time, stored as a UTC timestamp; undefined when it is neither. */
function parseExpiry(value: string): string | undefined {
  const text = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
  const time = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time)) return undefined;
  return new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function expiryParam(ctx: RequestContext<{ expires_at?: string | undefined }>): string | undefined {
  if (ctx.params.expires_at === undefined) return undefined;
  const expiry = parseExpiry(ctx.params.expires_at);
  if (expiry === undefined) throw grapeError(400, 'expires_at is invalid');
  return expiry;
}

function isPast(state: SimulatorState, expiry: string): boolean {
  return expiry.slice(0, 10) < state.now.toISOString().slice(0, 10);
}

interface InviteRequest {
  email: string;
  accessLevel: number;
  expiresAt: string | null;
}

/**
 * One address of a POST (Members::InviteService): an address already invited or belonging to a
 * direct member is refused with a reason; an existing user's address makes them a member at once;
 * any other address gets a pending invitation. Returns the refusal, or null when it went through.
 */
function invite(ctx: RequestContext<unknown>, source: Source, request: InviteRequest): string | null {
  const { state, user } = ctx;
  if (!allowedLevels(state, source).includes(request.accessLevel)) return 'Access level is not included in the list';
  if (request.expiresAt !== null && isPast(state, request.expiresAt)) return 'Expires at cannot be a date in the past';
  if (findInvitation(state, source, request.email)) return 'Invite email has already been taken';
  const existing = [...state.users.values()].find((candidate) => candidate.email.toLowerCase() === request.email.toLowerCase());
  if (existing) {
    const member = state.memberships.some((m) => m.userId === existing.id && sameSource(m.source, source));
    if (member) return 'User already exists in source';
    state.memberships.push({ userId: existing.id, source, accessLevel: request.accessLevel, expiresAt: request.expiresAt?.slice(0, 10) ?? null });
    return null;
  }
  const id = state.nextId('invitations');
  state.invitations.set(id, {
    id,
    source,
    email: request.email,
    accessLevel: request.accessLevel,
    expiresAt: request.expiresAt,
    createdAt: state.now.toISOString(),
    createdById: user?.id ?? 0,
  });
  return null;
}

function registerFor(router: Router, kind: SourceKind): void {
  const base = kind === 'group' ? '/groups/:id/invitations' : '/projects/:id/invitations';

  router.post(
    base,
    {
      auth: 'required',
      params: {
        id: p.string().required(),
        email: p.stringArray().commaSeparated().required(),
        access_level: p.integer().values(MEMBER_ACCESS_LEVELS).required(),
        expires_at: p.string(),
      },
    },
    (ctx) => {
      const emails = [...new Map(ctx.params.email.map((email) => [email.toLowerCase(), email])).values()];
      if (emails.length === 0) throw badRequest('Must provide either email or user_id as a parameter');
      if (emails.some((email) => !EMAIL.test(email))) throw grapeError(400, 'email contains an invalid email address');
      const expiresAt = expiryParam(ctx) ?? null;
      const source = managedSource(ctx, kind, ctx.params.id);
      // Grape's POST answers 201 even when the body reports errors (the body's `status` says).
      if (emails.length > MAX_INVITES) return created({ status: 'error', message: `Too many users specified (limit is ${MAX_INVITES})` });
      const refused: Record<string, string> = {};
      for (const email of emails) {
        const reason = invite(ctx, source, { email, accessLevel: ctx.params.access_level, expiresAt });
        if (reason) refused[email] = reason;
      }
      return created(Object.keys(refused).length > 0 ? { status: 'error', message: refused } : { status: 'success' });
    },
  );

  // Invitations to this source only, not inherited ones; `query` must match an address exactly.
  router.get(base, { auth: 'required', paginated: true, params: { id: p.string().required(), query: p.string() } }, (ctx) => {
    const source = managedSource(ctx, kind, ctx.params.id);
    const query = ctx.params.query?.trim().toLowerCase();
    const invitations = invitationsOf(ctx.state, source).filter((invitation) => !query || invitation.email.toLowerCase() === query);
    return paginate(ctx, invitations, (invitation) => invitationEntity(ctx, invitation));
  });

  router.put(
    `${base}/:email`,
    {
      auth: 'required',
      params: { id: p.string().required(), email: p.string().required(), access_level: p.integer().values(ALL_ACCESS_LEVELS), expires_at: p.string() },
    },
    (ctx) => {
      const source = managedSource(ctx, kind, ctx.params.id);
      const invitation = findInvitation(ctx.state, source, ctx.params.email);
      if (!invitation) throw notFound();
      const expiresAt = expiryParam(ctx);
      if (ctx.params.access_level === undefined && expiresAt === undefined) throw badRequest();
      const errors: Record<string, string[]> = {};
      if (ctx.params.access_level !== undefined && !allowedLevels(ctx.state, source).includes(ctx.params.access_level)) {
        errors['access_level'] = ['is not included in the list'];
      }
      if (expiresAt !== undefined && isPast(ctx.state, expiresAt)) errors['expires_at'] = ['cannot be a date in the past'];
      if (Object.keys(errors).length > 0) throw validationError(errors);
      if (ctx.params.access_level !== undefined) invitation.accessLevel = ctx.params.access_level;
      if (expiresAt !== undefined) invitation.expiresAt = expiresAt;
      return ok(invitationEntity(ctx, invitation));
    },
  );

  router.delete(`${base}/:email`, { auth: 'required', params: { id: p.string().required(), email: p.string().required() } }, (ctx) => {
    const source = managedSource(ctx, kind, ctx.params.id);
    const invitation = findInvitation(ctx.state, source, ctx.params.email);
    if (!invitation) throw notFound();
    ctx.state.invitations.delete(invitation.id);
    return noContent();
  });
}

export function registerInvitationRoutes(router: Router): void {
  registerFor(router, 'group');
  registerFor(router, 'project');
}
