// The page paths of a file at a ref, as GitLab's BlobPresenter builds them with Rails' route
// helpers: `/<project>/-/<page>/<ref>/<path>`, each segment escaped, with `?ref_type=` when the
// file was asked with a ref type. The ref is the one asked for (GitLab's blob `commit_id`, the ref
// unqualified), so that a branch's pages follow the branch; only the permalink names the commit.
import type { BlobPageBase } from '../../records/commits.js';

/** Each path segment escaped as Rails' route helpers escape a glob parameter. */
function escapedPath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** The kinds of a file's pages that GitLab's BlobPresenter links. */
export type BlobPage = 'blob' | 'edit' | 'raw' | 'update' | 'blame' | 'commits';

/** URL of one of the file's pages at the ref (`path_params` of BlobPresenter: the ref type as a query). */
export function blobPageUrl(base: BlobPageBase, page: BlobPage, path: string): string {
  const query = base.refType ? `?ref_type=${base.refType}` : '';
  return `${base.projectUrl}/-/${page}/${escapedPath(base.ref)}/${escapedPath(path)}${query}`;
}

/** The file's page at a commit (BlobPresenter#permalink_path): no ref type, the SHA names the version. */
export function permalinkUrl(base: BlobPageBase, commitSha: string, path: string): string {
  return `${base.projectUrl}/-/blob/${commitSha}/${escapedPath(path)}`;
}

/** BlobPresenter#find_file_path: the find-file page of the ref, with its type. */
export function findFileUrl(base: BlobPageBase): string {
  const query = base.refType ? `?ref_type=${base.refType}` : '';
  return `${base.projectUrl}/-/find_file/${escapedPath(base.ref)}${query}`;
}

/** BlobPresenter#project_blob_path_root: the ref's files, without a path or a type. */
export function blobRootUrl(base: BlobPageBase): string {
  return `${base.projectUrl}/-/blob/${escapedPath(base.ref)}`;
}
