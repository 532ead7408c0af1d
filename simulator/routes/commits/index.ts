// The commits domain (rest-v4-api.md "Commits"): reads, creation, cherry-pick and revert,
// comments and discussions, statuses, submodule updates, the repository tree and its files, over the
// repositories of simulator/repository/.
import type { Router } from '../../http/router.js';
import { registerBranchAndTagRoutes } from './branches.js';
import { registerCommitChangeRoutes } from './change.js';
import { registerCommitCommentRoutes } from './comments.js';
import { registerCommitCreateRoute } from './create.js';
import { registerCommitReadRoutes } from './reads.js';
import { registerRepositoryFileRoutes } from './files.js';
import { registerCommitStatusRoutes } from './statuses.js';
import { registerSubmoduleRoutes } from './submodules.js';
import { registerRepositoryTreeRoute } from './tree.js';

export function registerCommitsDomain(router: Router): void {
  registerCommitReadRoutes(router);
  registerBranchAndTagRoutes(router);
  registerCommitCreateRoute(router);
  registerCommitChangeRoutes(router);
  registerCommitCommentRoutes(router);
  registerCommitStatusRoutes(router);
  registerSubmoduleRoutes(router);
  registerRepositoryTreeRoute(router);
  registerRepositoryFileRoutes(router);
}
