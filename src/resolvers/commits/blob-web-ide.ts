// RepositoryBlob's Web IDE fields as GitLab's BlobPresenter builds them with BlobHelper: where the
// IDE edits the file (`ide_edit_path`) and whether the caller may edit it there
// (`can_modify_blob_with_web_ide?`). Both follow the project's push_code ability, the projects
// domain's own rule over REST's `permissions`; a caller who may not push edits in their fork.
import type { RepositoryBlobResolvers } from '../../__generated__/resolvers-types.js';
import { oneCall } from '../../cost/field-cost.js';
import { OWNED_FORK_PAGES } from '../../datasources/loaders.js';
import type { ProjectSchema } from '../../datasources/projects.js';
import { declared } from '../../fields/declaration.js';
import type { RepositoryBlobRecord } from '../../records/commits.js';
import type { GatewayContext } from '../../server/context.js';
import { mayCreateMergeRequestIn, mayPushCode, projectAbilities } from '../projects/permissions.js';
import { pathOfWebUrl } from '../web-path.js';
import { storedExternally } from './blob-content.js';

/**
 * BlobHelper#encode_ide_path: ERB::Util.url_encode (every byte but letters, digits and `_-.~`
 * percent-encoded), the slashes then given back.
 */
export function encodeIdePath(path: string): string {
  const bytes = Buffer.from(path, 'utf8');
  let encoded = '';
  for (const byte of bytes) {
    const char = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9_.~-]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded.replaceAll('%2F', '/');
}

/** The instance's relative URL root (`''`, or `/gitlab` under one): the project's page path without its full path. */
function relativeRoot(project: ProjectSchema): string | null {
  const projectPath = pathOfWebUrl(project.web_url);
  const fullPath = project.path_with_namespace;
  if (projectPath === null || !fullPath || !projectPath.endsWith(`/${fullPath}`)) return null;
  return projectPath.slice(0, -fullPath.length - 1);
}

/** Whether a signed-in caller may push code to the project (ProjectPolicy `push_code`). */
async function callerMayPushCode(project: ProjectSchema, context: GatewayContext): Promise<boolean> {
  return mayPushCode(await projectAbilities(project, context));
}

/**
 * BlobHelper#ide_edit_path: `/-/ide/project/<project>/edit/<ref>/-/<path>`, where the project is
 * this one for anonymous callers and those who may push, else the caller's fork as GitLab always
 * names it: the project's path in the caller's personal namespace (their username).
 */
export async function ideEditPath(blob: RepositoryBlobRecord, context: GatewayContext): Promise<string | null> {
  const project = await context.loaders.project.load(blob.project);
  const root = relativeRoot(project);
  if (root === null) return null;
  const editsHere = !context.credential || (await callerMayPushCode(project, context));
  const projectPath = editsHere ? project.path_with_namespace : `${(await context.loaders.currentUser()).username}/${project.path}`;
  return `${root}/-/ide/project/${projectPath}/edit/${encodeIdePath(blob.ref)}/-/${encodeIdePath(blob.file.file_path)}`;
}

/** User#already_forked?: the caller has a fork of the project in their personal namespace (REST's forks they own). */
async function callerHasFork(project: ProjectSchema, context: GatewayContext): Promise<boolean> {
  const [forks, user] = await Promise.all([context.loaders.ownedForks.load(project.id), context.loaders.currentUser()]);
  return forks.some((fork) => fork.namespace?.kind === 'user' && fork.namespace.full_path === user.username);
}

/**
 * ChecksCollaboration#can_collaborate_with_project?: push_code, or create_merge_request_in with a
 * fork to push to. Its last resort, pushing to the ref's branch, is asked without a ref here and
 * needs push_code or a branch open to collaboration, which no ref can give: never true on its own.
 * Anonymous callers collaborate nowhere, which needs no call.
 */
async function callerMayCollaborate(blob: RepositoryBlobRecord, context: GatewayContext): Promise<boolean> {
  if (!context.credential) return false;
  const project = await context.loaders.project.load(blob.project);
  const abilities = await projectAbilities(project, context);
  if (mayPushCode(abilities)) return true;
  return mayCreateMergeRequestIn(abilities) && (await callerHasFork(project, context));
}

export const blobWebIdeFields: Pick<RepositoryBlobResolvers, 'ideEditPath' | 'canModifyBlobWithWebIde'> = {
  // GET /user once per request (the caller's username names their fork; the project's record, read
  // by `blobs`, holds their `permissions`).
  ideEditPath: declared({ ...oneCall(), rest: ['GET /user', 'GET /projects/:id'] }, (blob, _args, context) => ideEditPath(blob, context)),
  // BlobHelper#can_modify_blob_with_web_ide?: not stored externally, and the caller may collaborate.
  // GET /user once per request and, for a caller who may not push, the forks they own of the project.
  canModifyBlobWithWebIde: declared(
    { calls: 1 + OWNED_FORK_PAGES, rest: ['GET /user', 'GET /projects/:id', 'GET /projects/:id/forks'] },
    async (blob, _args, context) => !storedExternally(blob) && (await callerMayCollaborate(blob, context)),
  ),
};
