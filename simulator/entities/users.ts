// User shapes: summary (authors, assignees), public record (job `user`, GET /users/:id), and the
// full record of GET /user and of administrators (rest-v4-api.md "User summary").
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

export function userPublic(ctx: PresentContext, user: User) {
  return extend(userSummary(ctx, user), {
    created_at: user.createdAt,
    bio: user.bio,
    location: user.location,
    public_email: user.publicEmail,
    linkedin: '',
    twitter: '',
    discord: '',
    website_url: user.websiteUrl,
    organization: user.organization,
    job_title: user.jobTitle,
    pronouns: null,
    bot: false,
    work_information: user.organization || null,
  });
}

/** GET /user, and GET /users/:id for administrators. */
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
    shared_runners_minutes_limit: null,
    extra_shared_runners_minutes_limit: null,
    is_admin: user.isAdmin,
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
