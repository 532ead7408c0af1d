import type { PipelineResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { embedded } from '../../cost/field-cost.js';
import { ID_ONLY, USER_SUMMARY } from '../../cost/shapes.js';
import { UpstreamShapeError } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import type { PipelineRecord } from '../../records/runners.js';
import type { GatewayContext } from '../../server/context.js';
import { FULL_RECORD_LOADERS } from '../full-records.js';
import { toGlobalId } from '../global-id.js';
import { readRecordField } from '../record-fields.js';
import { pathOfWebUrl } from '../web-path.js';
import { pipelineDetailedStatus } from './detailed-status.js';
import { wholeSeconds } from './duration.js';
import { recordField } from '../../fields/patterns.js';

function pathOfPipeline(pipeline: PipelineRecord): string | null {
  return pipeline.path ?? pathOfWebUrl(pipeline.web_url);
}

/** REST's job records always carry their pipeline's status; one without is the upstream's fault. */
function statusOf(pipeline: PipelineRecord): string {
  if (typeof pipeline.status !== 'string') throw new UpstreamShapeError('a job whose pipeline has no status');
  return pipeline.status;
}

/**
 * Ci::HasStatus::ACTIVE_STATUSES, with `canceling`, which GitLab counts active since it has that
 * status, and COMPLETED_STATUSES.
 */
export const ACTIVE_PIPELINE_STATUSES: ReadonlySet<string> = new Set(['waiting_for_resource', 'preparing', 'pending', 'running', 'canceling']);
export const COMPLETED_PIPELINE_STATUSES: ReadonlySet<string> = new Set(['success', 'failed', 'canceled', 'skipped']);

/** The commit page beside the pipeline's page: both hang from the project's path. */
function commitPathOf(pipeline: PipelineRecord): string | null {
  const page = pathOfPipeline(pipeline);
  const suffix = `/-/pipelines/${pipeline.id}`;
  if (!page?.endsWith(suffix) || !pipeline.sha) return null;
  return `${page.slice(0, -suffix.length)}/-/commit/${pipeline.sha}`;
}

/** A key of the pipeline's own record: from the record at hand, else `GET .../pipelines/:pipeline_id` once per request. */
const recordKey = (pipeline: PipelineRecord, key: string, context: GatewayContext) => readRecordField(pipeline, key, context, FULL_RECORD_LOADERS['Pipeline']);

// Listed pipelines lack these keys too (Entities::Ci::Pipeline has them): the same pipeline loader.
const PIPELINE_RECORD = 'GET /projects/:id/pipelines/:pipeline_id';

export const Pipeline: PipelineResolvers = {
  user: recordField({ reads: ['user'], returns: USER_SUMMARY }),
  id: (pipeline) => toGlobalId('Ci::Pipeline', pipeline.id),
  detailedStatus: (pipeline) => pipelineDetailedStatus({ id: pipeline.id, status: statusOf(pipeline) }, pathOfPipeline(pipeline)),
  path: (pipeline) => pathOfPipeline(pipeline),
  commitPath: (pipeline) => commitPathOf(pipeline),
  project: declared(embedded(ID_ONLY), (pipeline) => (typeof pipeline.project_id === 'number' ? { id: pipeline.project_id } : null)),
  active: (pipeline) => ACTIVE_PIPELINE_STATUSES.has(statusOf(pipeline)),
  complete: (pipeline) => COMPLETED_PIPELINE_STATUSES.has(statusOf(pipeline)),
  createdByTag: declared({ reads: ['tag'], rest: [PIPELINE_RECORD] }, async (pipeline, _args, context) => (await recordKey(pipeline, 'tag', context)) === true),
  // GitLab's `yamlErrors` says whether there are any; `yamlErrorMessages` holds REST's text.
  yamlErrors: declared({ reads: ['yaml_errors'], rest: [PIPELINE_RECORD] }, async (pipeline, _args, context) => {
    const errors = await recordKey(pipeline, 'yaml_errors', context);
    return typeof errors === 'string' && errors !== '';
  }),
  yamlErrorMessages: declared({ reads: ['yaml_errors'], rest: [PIPELINE_RECORD] }, async (pipeline, _args, context) => {
    const errors = await recordKey(pipeline, 'yaml_errors', context);
    return typeof errors === 'string' && errors !== '' ? errors : null;
  }),
  // REST sends whole seconds (a column of integers); a fraction would be truncated as GitLab's Int is.
  duration: declared({ reads: ['duration'], rest: [PIPELINE_RECORD] }, async (pipeline, _args, context) => wholeSeconds(await recordKey(pipeline, 'duration', context))),
  // REST's decimal string ("46.68") as GitLab's Float.
  coverage: declared({ reads: ['coverage'], rest: [PIPELINE_RECORD] }, async (pipeline, _args, context) => {
    const coverage = await recordKey(pipeline, 'coverage', context);
    const value = typeof coverage === 'string' ? Number.parseFloat(coverage) : coverage;
    return typeof value === 'number' && Number.isFinite(value) ? value : null;
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Pipeline };
