import type { MutationResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { embedded, oneCall } from '../../cost/field-cost.js';
import type { ArtifactsLocation } from '../../datasources/artifacts.js';
import { declared } from '../../fields/declaration.js';
import { idFromGlobalId } from '../global-id.js';
import { checkFullPath } from '../projects/Query.js';
import { explainArtifactFailure } from './location.js';
import { JOB_KEPT } from '../../cost/shapes.js';
import { recordField } from '../../fields/patterns.js';

function jobLocation(input: { projectPath: string; jobId: string }): ArtifactsLocation & { job: { kind: 'id' } } {
  return {
    project: checkFullPath(input.projectPath, 'projectPath'),
    job: { kind: 'id', jobId: idFromGlobalId(input.jobId, 'Ci::Build', 'jobId') },
  };
}

const artifactMutations: Pick<MutationResolvers, 'jobArtifactsKeep' | 'jobArtifactsDestroy'> = {
  jobArtifactsKeep: declared(
    { ...oneCall(), rest: ['POST /projects/:id/jobs/:job_id/artifacts/keep'] },
    async (_parent, { input }, { api }) => {
      const location = jobLocation(input);
      try {
        const job = await api.artifacts.keep(location.project, location.job.jobId);
        return { clientMutationId: input.clientMutationId ?? null, errors: [], job, artifactsDownload: location };
      } catch (error) {
        throw explainArtifactFailure(error, location);
      }
    },
  ),

  jobArtifactsDestroy: declared(
    { ...oneCall(), rest: ['DELETE /projects/:id/jobs/:job_id/artifacts'] },
    async (_parent, { input }, { api }) => {
      const location = jobLocation(input);
      try {
        await api.artifacts.remove(location.project, location.job.jobId);
      } catch (error) {
        throw explainArtifactFailure(error, location);
      }
      return { clientMutationId: input.clientMutationId ?? null, errors: [] };
    },
  ),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Mutation: artifactMutations, JobArtifactsKeepPayload: { job: recordField(embedded(JOB_KEPT)) } };
