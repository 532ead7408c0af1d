// SSH key shapes (fixtures/gitlab-docs/keys/): the key with its user, and for a deploy key found
// by fingerprint, the projects it is enabled in.
import type { DeployKeysProject, SshKey } from '../data/model.js';
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
