import type { DeployKeysProjectResolvers, SshKeyResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { embedded, oneCall, UNBOUNDED_ARRAY_ITEMS } from '../../cost/field-cost.js';
import { PROJECT_LOADED, USER_FULL } from '../../cost/shapes.js';
import { declared } from '../../fields/declaration.js';
import { toGlobalId } from '../global-id.js';
import { nullWhenNotFound } from '../lookups.js';
import { md5Fingerprint, sha256Fingerprint } from './fingerprints.js';
import { recordField } from '../../fields/patterns.js';

export const SshKey: SshKeyResolvers = {
  user: recordField(embedded(USER_FULL)),
  id: (key) => toGlobalId('Key', key.id),
  fingerprint: (key) => md5Fingerprint(key.key),
  fingerprintSha256: (key) => sha256Fingerprint(key.key),
  // The record's own array, which REST does not paginate.
  deployKeysProjects: declared({ items: UNBOUNDED_ARRAY_ITEMS }, (key) => key.deploy_keys_projects ?? null),
};

export const DeployKeysProject: DeployKeysProjectResolvers = {
  id: (link) => toGlobalId('DeployKeysProject', link.id),
  deployKeyId: (link) => (link.deploy_key_id === undefined ? null : toGlobalId('Key', link.deploy_key_id)),
  project: declared({ ...oneCall(PROJECT_LOADED), rest: ['GET /projects/:id'] }, (link, _args, { loaders }) =>
    link.project_id === undefined ? null : nullWhenNotFound(loaders.project.load(link.project_id)),
  ),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { DeployKeysProject, SshKey };
