import type { MergeRequestPipelineResolvers, MergeRequestResolvers } from '../../__generated__/resolvers-types.js';
import { toGlobalId } from '../global-id.js';

export const MergeRequest: MergeRequestResolvers = {
  id: (mergeRequest) => toGlobalId('MergeRequest', mergeRequest.id),
  iid: (mergeRequest) => String(mergeRequest.iid),
  project: (mergeRequest) => ({ id: mergeRequest.target_project_id ?? mergeRequest.project_id }),
  sourceProject: (mergeRequest) => ({ id: mergeRequest.source_project_id ?? mergeRequest.project_id }),
  targetProject: (mergeRequest) => ({ id: mergeRequest.target_project_id ?? mergeRequest.project_id }),
  workInProgress: (mergeRequest) => mergeRequest.work_in_progress ?? mergeRequest.draft ?? null,
  // REST sends a string (it caps the count as "1000+"); older answers sent a number.
  changesCount: (mergeRequest) => (mergeRequest.changes_count === undefined || mergeRequest.changes_count === null ? null : String(mergeRequest.changes_count)),
  userPermissions: (mergeRequest) => mergeRequest.user ?? null,
};

export const MergeRequestPipeline: MergeRequestPipelineResolvers = {
  id: (pipeline) => toGlobalId('Ci::Pipeline', pipeline.id),
  coverage: (pipeline) => (pipeline.coverage === undefined || pipeline.coverage === null ? null : String(pipeline.coverage)),
  // REST gives whole seconds, but a float would not pass GraphQL's Int.
  duration: (pipeline) => (typeof pipeline.duration === 'number' ? Math.round(pipeline.duration) : null),
};
