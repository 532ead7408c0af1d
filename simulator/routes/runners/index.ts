import type { Router } from '../../http/router.js';
import { registerOwnedRunnerCreationRoutes } from './owned-creation.js';
import { registerRunnerRegistrationRoutes } from './registration.js';
import { registerRunnerRoutes } from './runners.js';
import { registerScopedRunnerRoutes } from './scoped.js';

/** Every row of the Runners table in rest-v4-api.md, with creation by users and registration token resets. */
export function registerRunnersDomain(router: Router): void {
  registerRunnerRoutes(router);
  registerRunnerRegistrationRoutes(router);
  registerScopedRunnerRoutes(router);
  registerOwnedRunnerCreationRoutes(router);
}
