import type { CiJobResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { arrayConnection } from '../../connections/connection.js';
import { declared } from '../../fields/declaration.js';
import { jobRecordWith } from '../runners/CiJob.js';
import { artifactRecords, projectIdOfJob } from './artifact-files.js';

/** The artifact fields of CiJob, spread into its resolvers; the others read the REST record. */
const ciJobArtifactFields: Pick<CiJobResolvers, 'artifactsDownload' | 'artifacts'> = {
  // Runner job lists embed the project, job records name it through their pipeline; the keep
  // answer of the documentation does neither (its payload has the paths).
  artifactsDownload: (job) => {
    const project = projectIdOfJob(job);
    return project === null ? null : { project, job: { kind: 'id', jobId: job.id } };
  },
  // The same job record's `artifacts`, windowed in the gateway.
  artifacts: declared(
    { reads: ['artifacts'], loader: 'job', items: 'window', rest: ['GET /projects/:id/jobs/:job_id'] },
    async (job, args, context) => {
      const record = await jobRecordWith(job, 'artifacts', context);
      return record ? arrayConnection(args, artifactRecords(record)) : null;
    },
  ),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { CiJob: ciJobArtifactFields };
