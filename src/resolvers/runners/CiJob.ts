import type { CiJobResolvers, CiRunnerManagerResolvers, PipelineResolvers } from '../../__generated__/resolvers-types.js';
import { toGlobalId } from '../global-id.js';

// Every other field of a job, its user, commit and project comes straight from the REST record.
export const CiJob: CiJobResolvers = {
  id: (job) => toGlobalId('Ci::Build', job.id),
};

export const Pipeline: PipelineResolvers = {
  id: (pipeline) => toGlobalId('Ci::Pipeline', pipeline.id),
};

export const CiRunnerManager: CiRunnerManagerResolvers = {
  id: (manager) => toGlobalId('Ci::RunnerManager', manager.id),
};
