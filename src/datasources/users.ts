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
}

/** REST `/users` and `/user`. */
export class UsersApi {
  constructor(private readonly rest: RestSession) {}

  show(id: number): Promise<UserSchema> {
    return this.rest.get<UserSchema>(restPath`/users/${id}`);
  }

  /** The credential's own user (`GET /user`). */
  current(): Promise<UserSchema> {
    return this.rest.get<UserSchema>(restPath`/user`);
  }
}
