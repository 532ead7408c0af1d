// Every row of the Issue boards (project) section of rest-v4-api.md.
import type { Router } from '../../http/router.js';
import { registerBoardRoutes } from './boards.js';
import { registerBoardListRoutes } from './lists.js';

export function registerBoardsDomain(router: Router): void {
  registerBoardRoutes(router);
  registerBoardListRoutes(router);
}
