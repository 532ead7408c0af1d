import type { ProjectResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { idFromGlobalId } from '../global-id.js';

function checkName(value: string, argumentName: string): string {
  if (!value.trim()) throw badUserInput(`\`${argumentName}\` must not be blank.`, argumentName);
  return value;
}

/** The artifact fields of Project, spread into its resolvers: locations only, no REST call. */
const projectArtifactFields: Pick<ProjectResolvers, 'jobArtifacts' | 'refJobArtifacts'> = {
  jobArtifacts: (project, { jobId }) => ({ project: project.id, job: { kind: 'id', jobId: idFromGlobalId(jobId, 'Ci::Build', 'jobId') } }),
  refJobArtifacts: (project, { refName, jobName }) => ({
    project: project.id,
    job: { kind: 'ref', refName: checkName(refName, 'refName'), jobName: checkName(jobName, 'jobName') },
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Project: projectArtifactFields };
