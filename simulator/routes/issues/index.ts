// Every row of the Issues section of rest-v4-api.md.
import type { Router } from '../../http/router.js';
import { registerIssueActionRoutes } from './actions.js';
import { registerIssueListRoutes } from './lists.js';
import { registerRelatedRoutes } from './related.js';
import { registerTimeTrackingRoutes } from './time-tracking.js';
import { registerIssueWriteRoutes } from './writes.js';
import { registerIssueNoteRoutes } from './notes.js';
import { registerIssueAwardEmojiRoutes } from './award-emoji.js';

export function registerIssuesDomain(router: Router): void {
  registerIssueListRoutes(router);
  registerIssueWriteRoutes(router);
  registerIssueActionRoutes(router);
  registerIssueNoteRoutes(router);
  registerIssueAwardEmojiRoutes(router);
  registerTimeTrackingRoutes(router);
  registerRelatedRoutes(router);
}
