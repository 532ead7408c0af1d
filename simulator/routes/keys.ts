// SSH key look-ups (rest-v4-api.md "SSH keys (administrators)"; GitLab's lib/api/keys.rb and
// KeysFinder). A fingerprint starting `SHA256:` (or `sha256:`) is looked up by its SHA256 digest,
// anything else as an MD5 fingerprint; both are computed from the stored public key.
import { projectAccessLevel } from '../data/access.js';
import { AccessLevel, type SshKey } from '../data/model.js';
import { md5Fingerprint, publicKeyBlob, sha256Fingerprint } from '../data/ssh-keys.js';
import { deployKeysProjectEntity, projectDeployKeyEntity, sshKeyWithUser } from '../entities/keys.js';
import { forbidden, messageError, notFound } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { p } from '../http/params.js';
import { ok } from '../http/response.js';
import type { RequestContext, Router } from '../http/router.js';
import { visibleProject } from './lookup.js';

function asAdmin(ctx: RequestContext<unknown>): void {
  if (!ctx.user?.isAdmin) throw forbidden();
}

/** KeysFinder#by_fingerprint: which digest to compare, or null when the value cannot be one. */
function parseFingerprint(value: string): { kind: 'sha256' | 'md5'; value: string } | null {
  if (/^(sha256|SHA256):/.test(value)) {
    const digest = value.replace(/sha256:|SHA256:/g, '');
    // `Base64.decode64(fingerprint).length == 32`: Ruby's decoder skips what is not base64.
    return Buffer.from(digest, 'base64').length === 32 ? { kind: 'sha256', value: digest } : null;
  }
  return /^([0-9a-fA-F]{2}:){15}[0-9a-fA-F]{2}/.test(value) ? { kind: 'md5', value } : null;
}

function matches(key: SshKey, fingerprint: { kind: 'sha256' | 'md5'; value: string }): boolean {
  const blob = publicKeyBlob(key.key);
  if (!blob) return false;
  // Stored without the prefix, compared as the database does: exactly.
  return fingerprint.kind === 'sha256'
    ? sha256Fingerprint(blob).slice('SHA256:'.length) === fingerprint.value
    : md5Fingerprint(blob) === fingerprint.value;
}

/**
 * lib/api/deploy_keys.rb `GET :id/deploy_keys`: signed-in callers only, a project they can see
 * (404 otherwise), and `authorize_admin_project` (403 below Maintainer); the project's links in
 * their order, each with its key.
 */
function registerProjectDeployKeyRoutes(router: Router): void {
  router.get('/projects/:id/deploy_keys', { auth: 'required', paginated: true, params: { id: p.string().required() } }, (ctx) => {
    const project = visibleProject(ctx, ctx.params.id);
    if (!ctx.user?.isAdmin && projectAccessLevel(ctx.state, ctx.user, project) < AccessLevel.MAINTAINER) throw forbidden();
    const listed = ctx.state.deployKeysProjects
      .filter((link) => link.projectId === project.id)
      .sort((a, b) => a.id - b.id)
      .flatMap((link) => {
        const key = ctx.state.sshKeys.get(link.deployKeyId);
        return key ? [{ key, link }] : [];
      });
    return paginate(ctx, listed, ({ key, link }) => projectDeployKeyEntity(key, link));
  });
}

export function registerKeyRoutes(router: Router): void {
  registerProjectDeployKeyRoutes(router);
  router.get('/keys/:id', { auth: 'required', params: { id: p.integer().required() } }, (ctx) => {
    asAdmin(ctx);
    const key = ctx.state.sshKeys.get(ctx.params.id);
    if (!key) throw messageError(404, '404 Not found');
    return ok(sshKeyWithUser(ctx, key));
  });

  router.get('/keys', { auth: 'required', params: { fingerprint: p.string().required() } }, (ctx) => {
    asAdmin(ctx);
    const fingerprint = parseFingerprint(ctx.params.fingerprint);
    if (!fingerprint) throw messageError(400, 'Failed to return the key');
    const key = [...ctx.state.sshKeys.values()].find((candidate) => matches(candidate, fingerprint));
    if (!key) throw notFound('Key');
    if (key.kind === 'ssh') return ok(sshKeyWithUser(ctx, key));
    const projects = ctx.state.deployKeysProjects.filter((link) => link.deployKeyId === key.id).map(deployKeysProjectEntity);
    return ok({ ...sshKeyWithUser(ctx, key), deploy_keys_projects: projects });
  });
}
