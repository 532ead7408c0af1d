import { projectAccessLevel } from '../data/access.js';
import { AccessLevel } from '../data/model.js';
import { projectRecord, projectStatistics } from '../entities/projects.js';
import { p } from '../http/params.js';
import { countCommits } from '../repository/log.js';
import { ok } from '../http/response.js';
import type { Router } from '../http/router.js';
import { visibleProject } from './lookup.js';

export function registerProjectRoutes(router: Router): void {
  // Public projects to anyone, internal to any signed-in user, private to members and admins.
  // `statistics=true` adds the storage statistics for Reporters and above (GitLab's
  // `read_statistics`); others get the record without them.
  router.get('/projects/:id', { auth: 'optional', params: { id: p.string().required(), statistics: p.boolean().default(false) } }, (ctx) => {
    const project = visibleProject(ctx, ctx.params.id);
    const record = projectRecord(ctx, project);
    const mayReadStatistics = ctx.user?.isAdmin === true || projectAccessLevel(ctx.state, ctx.user, project) >= AccessLevel.REPORTER;
    if (!ctx.params.statistics || !mayReadStatistics) return ok(record);
    const repository = ctx.state.repositories.get(project.id);
    const head = repository?.branchHead(project.defaultBranch);
    const commitCount = repository && head ? countCommits(repository, head.sha, false) : 0;
    return ok({ ...record, statistics: { commit_count: commitCount, ...projectStatistics(project), container_registry_size: 0 } });
  });
}
