// Every REST domain of the simulator. Adding a domain = a routes file (or folder) registered
// here, plus its records in data/model.ts and its seed in data/seed/.
import { Router } from '../http/router.js';
import { registerGroupsDomain } from './groups/index.js';
import { registerInvitationRoutes } from './invitations.js';
import { registerProjectRoutes } from './projects.js';
import { registerRunnersDomain } from './runners/index.js';
import { registerUserRoutes } from './users.js';

export function createRouter(): Router {
  const router = new Router();
  registerRunnersDomain(router);
  registerProjectRoutes(router);
  registerGroupsDomain(router);
  registerInvitationRoutes(router);
  registerUserRoutes(router);
  return router;
}
