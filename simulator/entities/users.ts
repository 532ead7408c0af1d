// User shapes, GitLab's entities from the smallest: UserBasic (authors, assignees: userSummary),
// User (a job's `user`: userPublic), UserPublic (GET /user: userFull), and what administrators
// read, UserWithAdmin and UserDetailsWithAdmin (rest-v4-api.md "User summary").
import { createHash } from 'node:crypto';
import type { User, UserStatus } from '../data/model.js';
import type { PresentContext } from './context.js';
import { extend } from './extend.js';

export function avatarUrl(user: User): string {
  const hash = createHash('md5').update(user.email.toLowerCase()).digest('hex');
  return `https://www.gravatar.com/avatar/${hash}?s=80&d=identicon`;
}

export function userSummary(ctx: PresentContext, user: User) {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    locked: false,
    avatar_url: avatarUrl(user),
    web_url: `${ctx.origin}/${user.username}`,
  };
}

/** GitLab's Entities::User: a job's `user`, `GET /users/:id` for other users. */
export function userPublic(ctx: PresentContext, user: User) {
  return extend(userSummary(ctx, user), {
    created_at: user.createdAt,
    bio: user.bio,
    location: user.location,
    public_email: user.publicEmail,
    skype: '',
    linkedin: '',
    twitter: '',
    discord: '',
    website_url: user.websiteUrl,
    organization: user.organization,
    job_title: user.jobTitle,
    pronouns: null,
    bot: false,
    work_information: user.organization || null,
    // Nobody follows anybody here.
    followers: 0,
    following: 0,
    ...(ctx.user ? { is_followed: false } : {}),
    // TimeZoneHelper#local_time is nil for a user who set no time zone, as nobody here has.
    local_time: null,
  });
}

/** GitLab's Entities::UserPublic (with EE's minutes limits): `GET /user`, an SSH key's `user`. */
export function userFull(ctx: PresentContext, user: User) {
  return extend(userPublic(ctx, user), {
    last_sign_in_at: user.lastSignInAt,
    confirmed_at: user.createdAt,
    last_activity_on: user.lastActivityOn,
    email: user.email,
    theme_id: 1,
    color_scheme_id: 1,
    projects_limit: 100000,
    current_sign_in_at: user.lastSignInAt,
    identities: [],
    can_create_group: true,
    can_create_project: true,
    two_factor_enabled: false,
    external: false,
    private_profile: false,
    commit_email: user.email,
    // Gitlab::CurrentSettings.default_preferred_language: nobody here chose another.
    preferred_language: 'en',
    shared_runners_minutes_limit: null,
    extra_shared_runners_minutes_limit: null,
  });
}

/** GitLab's Entities::UserWithAdmin: what administrators read of a user (`GET /user`, `GET /users`). */
export function userWithAdmin(ctx: PresentContext, user: User) {
  return extend(userFull(ctx, user), {
    is_admin: user.isAdmin,
    note: null,
    namespace_id: user.namespaceId,
    // Every user here signed up or was seeded; none was created by an administrator.
    created_by: null,
  });
}

/** User#highest_role: the highest access level of the user's memberships, 0 without any. */
function highestRole(ctx: PresentContext, user: User): number {
  let highest = 0;
  for (const membership of ctx.state.memberships) if (membership.userId === user.id) highest = Math.max(highest, membership.accessLevel);
  return highest;
}

/** GitLab's Entities::UserDetailsWithAdmin: `GET /users/:id` for administrators. */
export function userDetailsWithAdmin(ctx: PresentContext, user: User) {
  return extend(userWithAdmin(ctx, user), {
    highest_role: highestRole(ctx, user),
    // Sign-in addresses are not kept, and of the sign-ins only the last one.
    current_sign_in_ip: null,
    last_sign_in_ip: null,
    sign_in_count: user.lastSignInAt === null ? 0 : 1,
  });
}

/** `GET /users/:id/status` (Entities::UserStatus); `message_html` renders the message's Markdown. */
export function userStatusEntity(status: UserStatus | undefined) {
  return {
    emoji: status?.emoji ?? null,
    message: status?.message ?? null,
    availability: status?.availability ?? null,
    message_html: status?.message ? `<p>${renderInline(status.message)}</p>` : null,
    clear_status_at: status?.clearStatusAt ?? null,
  };
}

/** The little Markdown a status message uses: escaped text with **bold** and _italic_. */
function renderInline(text: string): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return escaped.replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>').replace(/(^|\W)_(.+?)_(?=\W|$)/g, '$1<em>$2</em>');
}
