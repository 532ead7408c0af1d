// Every REST domain of the simulator. Adding a domain = a routes file (or folder) registered
// here, plus its records in data/model.ts and its seed in data/seed/.
import { Router } from '../http/router.js';
import { registerBoardsDomain } from './boards/index.js';
import { registerCommitsDomain } from './commits/index.js';
import { registerGroupsDomain } from './groups/index.js';
import { registerIssuesDomain } from './issues/index.js';
import { registerInvitationRoutes } from './invitations.js';
import { registerProjectRoutes } from './projects.js';
import { registerRunnersDomain } from './runners/index.js';
import { registerUserRoutes } from './users.js';
import { registerStarredProjectRoutes } from './starred-projects.js';
import { registerLabelRoutes } from './labels.js';
import { registerTodoRoutes } from './todos.js';
import { registerArtifactRoutes } from './artifacts.js';
import { registerPipelineRoutes } from './pipelines.js';
import { registerKeyRoutes } from './keys.js';
import { registerSnippetStorageMoveRoutes } from './snippet-storage-moves.js';
import { registerWikiRoutes } from './wikis.js';
import { registerMarkdownRoutes } from './markdown.js';
import { registerMemberRoutes } from './members.js';
import { registerCredentialsInventoryRoutes } from './credentials-inventory.js';
import { registerMergeRequestRoutes } from './merge-requests.js';
import { registerMergeRequestSidebarRoutes } from './merge-request-sidebar.js';
import { registerMergeRequestDiscussionRoutes } from './merge-request-discussions.js';
import { registerProjectJobRoutes } from './project-jobs.js';
import { registerProjectForkRoutes } from './project-forks.js';
import { registerPipelineJobRoutes } from './pipeline-jobs.js';

export function createRouter(): Router {
  const router = new Router();
  registerRunnersDomain(router);
  registerProjectRoutes(router);
  registerProjectForkRoutes(router);
  registerGroupsDomain(router);
  registerInvitationRoutes(router);
  registerUserRoutes(router);
  registerStarredProjectRoutes(router);
  registerWikiRoutes(router);
  registerMemberRoutes(router);
  registerMarkdownRoutes(router);
  registerSnippetStorageMoveRoutes(router);
  registerKeyRoutes(router);
  registerArtifactRoutes(router);
  registerPipelineRoutes(router);
  registerPipelineJobRoutes(router);
  registerIssuesDomain(router);
  registerLabelRoutes(router);
  registerTodoRoutes(router);
  registerBoardsDomain(router);
  registerCommitsDomain(router);
  registerCredentialsInventoryRoutes(router);
  registerMergeRequestRoutes(router);
  registerMergeRequestSidebarRoutes(router);
  registerMergeRequestDiscussionRoutes(router);
  registerProjectJobRoutes(router);
  return router;
}
