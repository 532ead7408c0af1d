// GitLab's artifact deletions over REST's one deletion of a job's artifacts
// (`DELETE /projects/:id/jobs/:job_id/artifacts`, Maintainer or higher), which removes every
// erasable file of the job together.
import type { MutationResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import type { FieldArgs } from '../../cost/field-cost.js';
import { RestError } from '../../datasources/rest-error.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import { idFromGlobalId } from '../global-id.js';
import { artifactRecords, parseArtifactId, type ArtifactKey } from './artifact-files.js';
import { explainArtifactFailure } from './location.js';

/** GitLab's Ci::JobArtifacts::BulkDeleteByProjectService limit on one call. */
export const BULK_DESTROY_LIMIT = 100;

/** How many `ids` a mutation's `input` lists. */
const inputIdsOf = (args: FieldArgs) => {
  const ids = (args['input'] as { ids?: unknown } | undefined)?.ids;
  return Array.isArray(ids) ? ids.length : 0;
};

/** The artifact keys of a bulk deletion, all of the named project, checked before any REST call. */
function bulkKeys(ids: ReadonlyArray<string>, projectId: number): Array<{ id: string; key: ArtifactKey }> {
  if (ids.length === 0) throw badUserInput('Give at least one artifact in `ids`.', 'ids');
  if (ids.length > BULK_DESTROY_LIMIT) throw badUserInput(`\`ids\` takes at most ${BULK_DESTROY_LIMIT} artifacts; got ${ids.length}.`, 'ids');
  return [...new Set(ids)].map((id) => {
    const key = parseArtifactId(id, 'ids');
    if (key.projectId !== projectId) throw badUserInput(`${id} is not an artifact of the project \`projectId\` names.`, 'ids');
    return { id, key };
  });
}

const artifactDestroyMutations: Pick<MutationResolvers, 'artifactDestroy' | 'bulkDestroyJobArtifacts'> = {
  // GET /projects/:id/jobs/:job_id for the payload's file, then the DELETE.
  artifactDestroy: declared({ calls: 2, rest: ['GET /projects/:id/jobs/:job_id', 'DELETE /projects/:id/jobs/:job_id/artifacts'] }, async (_parent, { input }, { api, loaders }) => {
    const key = parseArtifactId(input.id, 'id');
    const location = { project: key.projectId, job: { kind: 'id' as const, jobId: key.jobId } };
    const clientMutationId = input.clientMutationId ?? null;
    try {
      // The file as it was, for the payload: REST's deletion answers nothing.
      const job = await loaders.job.load({ project: key.projectId, jobId: key.jobId });
      const artifact = artifactRecords(job).find((record) => record.id === input.id);
      if (!artifact) return { clientMutationId, errors: ['The job has no such artifact file.'], artifact: null };
      await api.artifacts.remove(key.projectId, key.jobId);
      loaders.job.clear({ project: key.projectId, jobId: key.jobId });
      return { clientMutationId, errors: [], artifact };
    } catch (error) {
      throw explainArtifactFailure(error, location);
    }
  }),

  // One DELETE per job the files belong to, at most one per ID.
  bulkDestroyJobArtifacts: declared({ calls: (args) => Math.min(inputIdsOf(args), BULK_DESTROY_LIMIT), rest: ['DELETE /projects/:id/jobs/:job_id/artifacts'] }, async (_parent, { input }, { api, loaders }) => {
    const projectId = idFromGlobalId(input.projectId, 'Project', 'projectId');
    const keys = bulkKeys(input.ids, projectId);
    const jobIds = [...new Set(keys.map(({ key }) => key.jobId))];
    const outcomes = await Promise.allSettled(jobIds.map((jobId) => api.artifacts.remove(projectId, jobId)));
    const destroyedJobs = new Set<number>();
    const errors: string[] = [];
    outcomes.forEach((outcome, index) => {
      const jobId = jobIds[index]!;
      if (outcome.status === 'fulfilled') {
        destroyedJobs.add(jobId);
        loaders.job.clear({ project: projectId, jobId });
      } else if (outcome.reason instanceof RestError) {
        errors.push(`The artifacts of job ${jobId} were not destroyed: ${outcome.reason.reason}`);
      } else {
        throw outcome.reason;
      }
    });
    const destroyedIds = keys.filter(({ key }) => destroyedJobs.has(key.jobId)).map(({ id }) => id);
    return { clientMutationId: input.clientMutationId ?? null, errors, destroyedCount: destroyedIds.length, destroyedIds };
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Mutation: artifactDestroyMutations };
