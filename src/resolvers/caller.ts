import type { GatewayContext } from '../server/context.js';

/** Who is asking, as far as GitLab's policies need: their user id, administrator and external flags. */
export interface Caller {
  id: number;
  isAdmin: boolean;
  /** External users see no internal project they are not a member of (GitLab's `internal_access`). */
  isExternal: boolean;
}

/** The caller, from the request's one `GET /user` (loaders.currentUser); null for anonymous callers. */
export async function callerOf(context: GatewayContext): Promise<Caller | null> {
  if (!context.credential) return null;
  const user = await context.loaders.currentUser();
  return { id: user.id, isAdmin: user.is_admin === true, isExternal: user.external === true };
}
