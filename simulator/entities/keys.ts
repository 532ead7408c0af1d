// SSH key shapes (fixtures/gitlab-docs/keys/): the key with its user, and for a deploy key found
// by fingerprint, the projects it is enabled in.
import type { DeployKeysProject, SshKey } from '../data/model.js';
import { md5Fingerprint, publicKeyBlob, sha256Fingerprint } from '../data/ssh-keys.js';
import type { PresentContext } from './context.js';
import { userFull } from './users.js';

export function sshKeyWithUser(ctx: PresentContext, key: SshKey) {
  const user = ctx.state.users.get(key.userId);
  return {
    id: key.id,
    title: key.title,
    key: key.key,
    created_at: key.createdAt,
    expires_at: key.expiresAt,
    last_used_at: key.lastUsedAt,
    usage_type: key.usageType,
    user: user ? userFull(ctx, user) : null,
  };
}

export function deployKeysProjectEntity(link: DeployKeysProject) {
  return {
    id: link.id,
    deploy_key_id: link.deployKeyId,
    project_id: link.projectId,
    created_at: link.createdAt,
    updated_at: link.updatedAt,
    can_push: link.canPush,
  };
}

/**
 * A deploy key as a project lists it: GitLab's Entities::DeployKeysProject, the key
 * (Entities::DeployKey: Entities::SSHKey with `fingerprint` when the key has one and
 * `fingerprint_sha256`) merged with the link's `can_push`.
 */
export function projectDeployKeyEntity(key: SshKey, link: DeployKeysProject) {
  const blob = publicKeyBlob(key.key);
  return {
    id: key.id,
    title: key.title,
    created_at: key.createdAt,
    expires_at: key.expiresAt,
    key: key.key,
    usage_type: key.usageType,
    ...(blob ? { fingerprint: md5Fingerprint(blob) } : {}),
    fingerprint_sha256: blob ? sha256Fingerprint(blob) : null,
    can_push: link.canPush,
  };
}
