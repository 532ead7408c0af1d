import type { CommitPipelinesArgs, CommitResolvers, ProjectPipelinesArgs, ProjectResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';
import { restList } from '../../cost/field-cost.js';
import { PIPELINE_LISTED } from '../../cost/shapes.js';
import type { PipelineListFilters } from '../../datasources/pipelines.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';

/**
 * Ci::Pipeline.sources: the values REST's `source` takes. GitLab's GraphQL takes any string and
 * ignores one it does not know; REST refuses it (400), so the gateway refuses it before the call.
 */
export const PIPELINE_SOURCES: ReadonlySet<string> = new Set([
  'unknown',
  'push',
  'web',
  'trigger',
  'schedule',
  'api',
  'external',
  'pipeline',
  'chat',
  'webide',
  'merge_request_event',
  'external_pull_request_event',
  'parent_pipeline',
  'ondemand_dast_scan',
  'ondemand_dast_validation',
  'security_orchestration_policy',
]);

/** The list arguments both pipeline lists share, as REST's filters, checked before any call. */
function listFilters(args: ProjectPipelinesArgs | CommitPipelinesArgs): PipelineListFilters {
  const source = args.source ?? undefined;
  if (source !== undefined && !PIPELINE_SOURCES.has(source)) {
    throw badUserInput(`\`source\` is not a pipeline source REST knows: one of ${[...PIPELINE_SOURCES].join(', ')}.`, 'source');
  }
  return {
    scope: args.scope ?? undefined,
    ref: args.ref ?? undefined,
    status: args.status ?? undefined,
    source,
    username: args.username ?? undefined,
    updatedAfter: args.updatedAfter ?? undefined,
    updatedBefore: args.updatedBefore ?? undefined,
  };
}

// GET /projects/:id/pipelines, of the project or of the commit's SHA.
const PIPELINE_LIST = { ...restList(PIPELINE_LISTED), rest: ['GET /projects/:id/pipelines'] };

/** `Project.pipelines`: REST's list with its filters. */
const projectPipelineFields: Pick<ProjectResolvers, 'pipelines'> = {
  pipelines: declared(PIPELINE_LIST, (project, args, { api }) => {
    const filters = { ...listFilters(args), sha: args.sha ?? undefined };
    return restConnection(args, (page) => api.pipelines.all(project.id, filters, page));
  }),
};

/** `Commit.pipelines`: the project's pipelines of the commit's SHA; null when the commit names no project. */
const commitPipelineFields: Pick<CommitResolvers, 'pipelines'> = {
  pipelines: declared(PIPELINE_LIST, (commit, args, { api }) => {
    const filters = { ...listFilters(args), sha: commit.id };
    if (commit.project_ref === null) return null;
    return restConnection(args, (page) => api.pipelines.all(commit.project_ref!, filters, page));
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Commit: commitPipelineFields, Project: projectPipelineFields };
