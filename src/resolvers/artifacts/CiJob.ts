import type { CiJobResolvers } from '../../__generated__/resolvers-types.js';
import { arrayConnection } from '../../connections/connection.js';
import { jobRecordWith } from '../runners/CiJob.js';
import { artifactRecords } from './artifact-files.js';

/** The artifact fields of CiJob, spread into its resolvers; the others read the REST record. */
export const ciJobArtifactFields: Pick<CiJobResolvers, 'artifactsDownload' | 'artifacts'> = {
  // Runner job lists embed the project; the keep answer does not (its payload has the paths).
  artifactsDownload: (job) => (job.project ? { project: job.project.id, job: { kind: 'id', jobId: job.id } } : null),
  async artifacts(job, args, context) {
    const record = await jobRecordWith(job, 'artifacts', context);
    return record ? arrayConnection(args, artifactRecords(record)) : null;
  },
};
