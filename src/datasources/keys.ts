import { restPath } from './path.js';
import type { RestSession } from './rest-client.js';
import type { UserSchema } from './users.js';

/** A deploy key's link to a project (`deploy_keys_projects`). */
export interface DeployKeysProjectSchema {
  id: number;
  deploy_key_id?: number;
  project_id?: number;
  created_at?: string;
  updated_at?: string;
  can_push?: boolean;
}

/** The full user record key look-ups embed (rest-v4-api.md "User summary", "Full user records"). */
export interface FullUserSchema extends UserSchema {
  last_sign_in_at?: string | null;
  confirmed_at?: string | null;
  last_activity_on?: string | null;
  email?: string | null;
  theme_id?: number | null;
  color_scheme_id?: number | null;
  projects_limit?: number | null;
  current_sign_in_at?: string | null;
  identities?: Array<{ provider?: string; extern_uid?: string }>;
  can_create_group?: boolean;
  can_create_project?: boolean;
  two_factor_enabled?: boolean;
  external?: boolean;
  private_profile?: boolean | null;
  shared_runners_minutes_limit?: number | null;
  extra_shared_runners_minutes_limit?: number | null;
}

/** An SSH key or deploy key with its user; a deploy key found by fingerprint adds its projects. */
export interface SshKeySchema {
  id: number;
  title?: string;
  key?: string;
  created_at?: string;
  expires_at?: string | null;
  last_used_at?: string | null;
  usage_type?: string;
  user?: FullUserSchema | null;
  deploy_keys_projects?: DeployKeysProjectSchema[];
}

/** A deploy key as a project lists it (REST `Entities::DeployKeysProject`). */
export interface DeployKeySchema {
  id: number;
  title?: string;
  key?: string;
  fingerprint?: string;
  fingerprint_sha256?: string | null;
  created_at?: string;
  expires_at?: string | null;
  usage_type?: string;
  can_push?: boolean;
}

/** REST `/keys` (administrators). */
export class KeysApi {
  constructor(private readonly rest: RestSession) {}

  show(id: number): Promise<SshKeySchema> {
    return this.rest.get<SshKeySchema>(restPath`/keys/${id}`);
  }

  /**
   * The key with this MD5 or `SHA256:` fingerprint. It travels in the query string, where
   * toQueryString encodes `:`, `/` and `+` (`SHA256%3A...%2F...`), as the REST documentation asks.
   */
  findByFingerprint(fingerprint: string): Promise<SshKeySchema> {
    return this.rest.get<SshKeySchema>(restPath`/keys`, { fingerprint });
  }
}
