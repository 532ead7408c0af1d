import type { DeployKeysProjectResolvers, SshKeyResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { toGlobalId } from '../global-id.js';
import { nullWhenNotFound } from '../lookups.js';
import { md5Fingerprint, sha256Fingerprint } from './fingerprints.js';

export const SshKey: SshKeyResolvers = {
  id: (key) => toGlobalId('Key', key.id),
  fingerprint: (key) => md5Fingerprint(key.key),
  fingerprintSha256: (key) => sha256Fingerprint(key.key),
  deployKeysProjects: (key) => key.deploy_keys_projects ?? null,
};

export const DeployKeysProject: DeployKeysProjectResolvers = {
  id: (link) => toGlobalId('DeployKeysProject', link.id),
  deployKeyId: (link) => (link.deploy_key_id === undefined ? null : toGlobalId('Key', link.deploy_key_id)),
  project: (link, _args, { loaders }) => (link.project_id === undefined ? null : nullWhenNotFound(loaders.project.load(link.project_id))),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { DeployKeysProject, SshKey };
