import { oneCall } from '../../cost/field-cost.js';
import { USER_LOADED } from '../../cost/shapes.js';
import { declared } from '../../fields/declaration.js';
import type { GatewayContext } from '../../server/context.js';
import type { UserSchema } from '../../datasources/users.js';
import { nullWhenNotFound } from '../lookups.js';

/**
 * The user a token or key belongs to: REST gives only `user_id`, so the user is fetched through the
 * user loader, once per request.
 */
export const ownerOf = declared(
  { ...oneCall(USER_LOADED), rest: ['GET /users/:id'] },
  (record: { user_id?: number }, _args: unknown, { loaders }: GatewayContext): Promise<UserSchema | null> | null =>
    typeof record.user_id === 'number' ? nullWhenNotFound(loaders.user.load(record.user_id)) : null,
);
