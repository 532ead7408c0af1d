import type { GatewayContext } from '../../server/context.js';
import type { UserSchema } from '../../datasources/users.js';
import { nullWhenNotFound } from '../lookups.js';

/** The user a token or key belongs to: REST gives only `user_id`, so the user is fetched, once per request. */
export function ownerOf(record: { user_id?: number }, _args: unknown, { loaders }: GatewayContext): Promise<UserSchema | null> | null {
  return typeof record.user_id === 'number' ? nullWhenNotFound(loaders.user.load(record.user_id)) : null;
}
