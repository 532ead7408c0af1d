import type { DeployKeyResolvers, ProjectResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { restListField } from '../../fields/patterns.js';
import { toGlobalId } from '../global-id.js';

const projectDeployKeys: Pick<ProjectResolvers, 'deployKeys'> = {
  deployKeys: restListField('GET /projects/:id/deploy_keys'),
};

const DeployKey: Pick<DeployKeyResolvers, 'id'> = {
  id: (key) => toGlobalId('Key', key.id),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Project: projectDeployKeys, DeployKey };
