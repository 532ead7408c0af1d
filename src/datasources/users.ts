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
  website_url?: string;
  organization?: string | null;
  /** `GET /user` and administrators' reads: whether the user is an instance administrator. */
  is_admin?: boolean;
}

/** `GET /users/:id/status`. */
export interface UserStatusSchema {
  emoji?: string | null;
  availability?: string | null;
  message?: string | null;
  message_html?: string | null;
  clear_status_at?: string | null;
}

/** REST `/users` and `/user`. */
export class UsersApi {
  constructor(private readonly rest: RestSession) {}

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
   * Users whose name, username or public e-mail (any e-mail for administrators) matches the text
   * (`GET /users?search=`), the first 20.
   */
  search(text: string): Promise<UserSchema[]> {
    return this.rest.getList<UserSchema>(restPath`/users`, { search: text });
  }

  /** The credential's own user (`GET /user`). */
  current(): Promise<UserSchema> {
    return this.rest.get<UserSchema>(restPath`/user`);
  }
}
