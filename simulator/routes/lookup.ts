// Finding a resource the caller may see. rest-conventions §7: what the caller may not see is a
// 404, exactly like what does not exist, so that existence never leaks.
import { canReadGroup, canReadProject } from '../data/access.js';
import type { Group, Project, Runner } from '../data/model.js';
import { notFound } from '../http/errors.js';
import type { RequestContext } from '../http/router.js';

export function visibleProject(ctx: RequestContext<unknown>, idOrPath: string | number): Project {
  const project = ctx.state.findProject(idOrPath);
  if (!project || !canReadProject(ctx.state, ctx.user, project)) throw notFound('Project');
  return project;
}

export function visibleGroup(ctx: RequestContext<unknown>, idOrPath: string | number): Group {
  const group = ctx.state.findGroup(idOrPath);
  if (!group || !canReadGroup(ctx.state, ctx.user, group)) throw notFound('Group');
  return group;
}

export function existingRunner(ctx: RequestContext<unknown>, id: number): Runner {
  const runner = ctx.state.runners.get(id);
  if (!runner) throw notFound('Runner');
  return runner;
}
