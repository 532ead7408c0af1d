// RepositoryBlob's fork paths as GitLab's BlobPresenter builds them with BlobHelper's
// fork_path_for_current_user: the project's fork page (`/<project>/-/forks`) told to fork into the
// caller's personal namespace (`namespace_key`, its id) and then to continue to the blob's edit
// page, Web IDE or page, with the notices GitLab shows there. GitLab answers them to every
// signed-in caller, whatever they may do with the project, and null to anonymous callers only.
import type { RepositoryBlobResolvers } from '../../__generated__/resolvers-types.js';
import { declared } from '../../fields/declaration.js';
import type { RepositoryBlobRecord } from '../../records/commits.js';
import type { GatewayContext } from '../../server/context.js';
import { pathOfWebUrl } from '../web-path.js';
import { blobPageUrl, type BlobPage } from './blob-paths.js';
import { ideEditPath } from './blob-web-ide.js';

/** TreeHelper#edit_in_new_fork_notice: shown once the fork exists. */
const FORK_CREATED_NOTICE =
  "You're not allowed to make changes to this project directly. A fork of this project has been created that you can make changes in, so you can submit a merge request.";
/** TreeHelper#edit_in_new_fork_notice_now: shown while the fork is being created. */
const FORK_BEING_CREATED_NOTICE =
  "You're not allowed to make changes to this project directly. A fork of this project is being created that you can make changes in, so you can submit a merge request.";

/** Ruby's CGI.escape, which Rails' `to_query` applies to keys and values: all but `A-Za-z0-9_.-~` percent-encoded, spaces as `+`. */
export function cgiEscape(text: string): string {
  let escaped = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    if (char === ' ') escaped += '+';
    else escaped += /[A-Za-z0-9_.~-]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return escaped;
}

/**
 * BlobHelper#fork_path_for_current_user: `project_forks_path(project, namespace_key:, continue:
 * { to:, notice:, notice_now: })`, whose query Rails' `to_query` writes as sorted `key=value` pairs.
 */
export function forkPath(projectPath: string, namespaceId: number, continueTo: string): string {
  const pairs: [string, string][] = [
    ['continue[notice]', FORK_CREATED_NOTICE],
    ['continue[notice_now]', FORK_BEING_CREATED_NOTICE],
    ['continue[to]', continueTo],
    ['namespace_key', String(namespaceId)],
  ];
  const query = pairs
    .map(([key, value]) => `${cgiEscape(key)}=${cgiEscape(value)}`)
    .sort()
    .join('&');
  return `${projectPath}/-/forks?${query}`;
}

/** The fork path continuing to `continueTo`: null for anonymous callers (no personal namespace) and when REST gives no page URLs. */
async function forkPathForCaller(blob: RepositoryBlobRecord, context: GatewayContext, continueTo: string | null): Promise<string | null> {
  if (!context.credential || continueTo === null || !blob.pages) return null;
  const projectPath = pathOfWebUrl(blob.pages.projectUrl);
  if (projectPath === null) return null;
  const namespace = await context.loaders.currentUserNamespace();
  return forkPath(projectPath, namespace.id, continueTo);
}

const pagePath = (blob: RepositoryBlobRecord, page: BlobPage) => (blob.pages ? pathOfWebUrl(blobPageUrl(blob.pages, page, blob.file.file_path)) : null);

/** GET /user and GET /namespaces/:username once per request (the caller's personal namespace id; none for anonymous callers). */
const CALLER_NAMESPACE = { calls: 2, rest: ['GET /user', 'GET /namespaces/:id'] } as const;

export const blobForkPathFields: Pick<RepositoryBlobResolvers, 'forkAndEditPath' | 'ideForkAndEditPath' | 'forkAndViewPath'> = {
  // BlobPresenter#fork_and_edit_path: then to the single-file editor (edit_blob_path).
  forkAndEditPath: declared(CALLER_NAMESPACE, (blob, _args, context) => forkPathForCaller(blob, context, pagePath(blob, 'edit'))),
  // BlobPresenter#ide_fork_and_edit_path: then to the Web IDE (ide_edit_path, in the caller's fork unless they may push).
  // The same two calls, and the project's permissions for where the Web IDE edits (ideEditPath).
  ideForkAndEditPath: declared({ calls: 2, rest: ['GET /user', 'GET /namespaces/:id', 'GET /projects/:id'] }, async (blob, _args, context) =>
    context.credential ? forkPathForCaller(blob, context, await ideEditPath(blob, context)) : null,
  ),
  // BlobPresenter#fork_and_view_path: then to the file's page (web_path).
  forkAndViewPath: declared(CALLER_NAMESPACE, (blob, _args, context) => forkPathForCaller(blob, context, pagePath(blob, 'blob'))),
};
