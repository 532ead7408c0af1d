import type { GatewayContext } from '../../server/context.js';

/** Who is asking, as far as GitLab's policies need: their user id and administrator flag. */
export interface Caller {
  id: number;
  isAdmin: boolean;
}

/** One `GET /user` per request however many permission fields ask; null for anonymous callers. */
const callers = new WeakMap<GatewayContext, Promise<Caller | null>>();

export function callerOf(context: GatewayContext): Promise<Caller | null> {
  let caller = callers.get(context);
  if (!caller) {
    caller = context.credential
      ? context.api.users.current().then((user) => {
          context.loaders.user.prime(user.id, user);
          return { id: user.id, isAdmin: user.is_admin === true };
        })
      : Promise.resolve(null);
    callers.set(context, caller);
  }
  return caller;
}
