// Every row of the Issue boards (project) section of rest-v4-api.md, the same routes for group boards
// (GitLab's doc/api/group_boards.md), and the issue reorder that a board's drag and drop needs.
import type { Router } from '../../http/router.js';
import { registerBoardRoutes } from './boards.js';
import { registerBoardListRoutes } from './lists.js';
import { registerIssueReorderRoute } from './reorder.js';

export function registerBoardsDomain(router: Router): void {
  registerBoardRoutes(router);
  registerBoardListRoutes(router);
  registerIssueReorderRoute(router);
}
