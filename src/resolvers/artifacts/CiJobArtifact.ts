import type { CiJobArtifactResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { UpstreamShapeError } from '../../errors/graphql-errors.js';

export const CiJobArtifact: CiJobArtifactResolvers = {
  id: (artifact) => {
    if (artifact.id === null) throw new UpstreamShapeError('a job artifact whose job names no project, or of an unknown file type');
    return artifact.id;
  },
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { CiJobArtifact };
