import type { CiJobResolvers } from '../../__generated__/resolvers-types.js';

/** The artifact fields of CiJob, spread into its resolvers; the others read the REST record. */
export const ciJobArtifactFields: Pick<CiJobResolvers, 'artifactsDownload'> = {
  // Runner job lists embed the project; the keep answer does not (its payload has the paths).
  artifactsDownload: (job) => (job.project ? { project: job.project.id, job: { kind: 'id', jobId: job.id } } : null),
};
