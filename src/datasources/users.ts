import type { Page, PageRequest } from './pagination.js';
import type { RestSession } from './rest-client.js';
import { restPath } from './path.js';

/** A user summary as REST embeds it (authors, assignees, job users). */
export interface UserSchema {
  id: number;
  username: string;
  name: string;
  state?: string;
  avatar_url?: string | null;
  web_url?: string;
  created_at?: string;
  bio?: string | null;
  location?: string | null;
  public_email?: string | null;
  /** Administrators' reads: the primary e-mail. */
  email?: string | null;
  website_url?: string;
  organization?: string | null;
  /** `GET /user` and administrators' reads: whether the user is an instance administrator. */
  is_admin?: boolean;
  /** `GET /user` and administrators' reads: whether the user is external (no access to internal projects). */
  external?: boolean;
}

/** `GET /users/:id/status`. */
export interface UserStatusSchema {
  emoji?: string | null;
  availability?: string | null;
  message?: string | null;
  message_html?: string | null;
  clear_status_at?: string | null;
}

/** The filters of REST's `GET /users` the gateway passes on. */
export interface UserListFilters {
  /** Exactly this username, any case: none or one user. */
  username?: string | undefined;
  search?: string | undefined;
  /** Only administrators; REST honours it for administrators only. */
  admins?: boolean | undefined;
  /** Only active users; REST takes `true` only. */
  active?: boolean | undefined;
}

/** REST `/users` and `/user`. */
export class UsersApi {
  constructor(private readonly rest: RestSession) {}

  /** A page of `GET /users`: newest first (REST's default `order_by=id`, `sort=desc`). */
  all(filters: UserListFilters, page: PageRequest): Promise<Page<UserSchema>> {
    return this.rest.getPage<UserSchema>(restPath`/users`, page, {
      username: filters.username,
      search: filters.search,
      admins: filters.admins,
      active: filters.active,
    });
  }

  show(id: number): Promise<UserSchema> {
    return this.rest.get<UserSchema>(restPath`/users/${id}`);
  }

  /** A user's status (emoji, message, availability); public for every user. */
  status(id: number): Promise<UserStatusSchema> {
    return this.rest.get<UserStatusSchema>(restPath`/users/${id}/status`);
  }

  /** Users with exactly this username: none or one (`GET /users?username=`). */
  byUsername(username: string): Promise<UserSchema[]> {
    return this.rest.getList<UserSchema>(restPath`/users`, { username });
  }

  /**
   * Users matching `GET /users?search=`, the first 20: a name or username containing the text, or an
   * e-mail equal to it (any of a user's e-mails for administrators, the public one for others).
   * REST refuses anonymous callers a search.
   */
  search(text: string): Promise<UserSchema[]> {
    return this.rest.getList<UserSchema>(restPath`/users`, { search: text });
  }

  /**
   * The user with this e-mail as REST lets the caller find one (`GET /users?search=<email>`):
   * by any of a user's e-mails for administrators, by the public e-mail for others; null when none.
   * The search also matches names and usernames that contain the text, so only an equal e-mail counts.
   */
  async byEmail(email: string): Promise<UserSchema | null> {
    const wanted = email.trim().toLowerCase();
    const users = await this.search(wanted);
    return users.find((user) => [user.email, user.public_email].some((address) => address?.toLowerCase() === wanted)) ?? null;
  }

  /** The credential's own user (`GET /user`). */
  current(): Promise<UserSchema> {
    return this.rest.get<UserSchema>(restPath`/user`);
  }
}
