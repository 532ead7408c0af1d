// What RepositoryBlob's resolvers read: a file of `Repository.blobs` with what GitLab's
// BlobPresenter needs of its project, and whether its content lives in LFS.
import type { ProjectKey, RepositoryFileSchema } from '../../datasources/commits.js';
import { lfsPointerOf } from './blob-content.js';
import type { BlobPageBase } from './blob-paths.js';

/** A file of `Repository.blobs`, with what its presenter needs of the project. */
export interface RepositoryBlobRecord {
  project: ProjectKey;
  file: RepositoryFileSchema;
  /** Where the file's pages are; null when REST's project record has no `web_url`. */
  pages: BlobPageBase | null;
  /** The ref as asked (or the default branch), GitLab's unqualified `commit_id` of the blob. */
  ref: string;
  archived: boolean;
  lfsEnabled: boolean;
}

/** Whether the content lives in LFS (Blob#stored_externally?): an LFS pointer in a project with LFS enabled. */
export function storedExternally(blob: RepositoryBlobRecord): boolean {
  return blob.lfsEnabled && lfsPointerOf(blob.file) !== null;
}
