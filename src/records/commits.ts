// The records GraphQL's Commit, Repository, CommitReferences, Tree, its entries and RepositoryBlob
// resolve from (codegen.ts maps the types to them). The generated resolver types import this
// module, so it imports only data sources.
import type { CommitSchema, ProjectKey, RepositoryFileSchema, TreeObjectSchema } from '../datasources/commits.js';
import { withFields } from '../datasources/with-fields.js';

/**
 * A commit with the project it belongs to, which REST leaves out of most commit records but every
 * sub-resource path needs (`/projects/:id/repository/commits/:sha/...`). Null only for a commit
 * whose project is unknown (a runner job that came without its project).
 */
export type CommitRecord = CommitSchema & { project_ref: ProjectKey | null };

export function commitRecord(commit: CommitSchema, project: ProjectKey | null): CommitRecord {
  return withFields(commit, { project_ref: commit.project_id ?? project });
}

/** `Project.repository`: the project's key, for the commit look-ups under it. */
export interface RepositoryRecord {
  project: ProjectKey;
}

/** `Project.commitReferences`: the commit, resolved once, and its project. */
export interface CommitReferencesRecord {
  project: ProjectKey;
  sha: string;
}

/** `Repository.tree`: a directory at a ref (undefined: the default branch). */
export interface TreeRecord {
  project: ProjectKey;
  /** The ref as asked for, which names the entries' pages. */
  ref: string | undefined;
  /** `heads` or `tags` when asked with `refType`. */
  refType: 'heads' | 'tags' | undefined;
  /** The ref as REST is asked: the full ref name with `refType`. */
  restRef: string | undefined;
  path: string;
  recursive: boolean;
  /**
   * For a tree of `paginatedTree`: the page of the directory's entries (all types, in REST's order)
   * that its `trees`, `blobs` and `submodules` hold.
   */
  page?: { start: number; end: number };
  /** Whether the query selects `flatPath` below the tree: then its three connections share the recursive listing. */
  flatPaths?: boolean;
}

/** A submodule's page and its tree at the submodule's commit, as GitLab's SubmoduleHelper links them. */
export interface SubmoduleLinks {
  webUrl: string | null;
  treeUrl: string | null;
}

/** A tree entry with what GitLab's entry types add to REST's record. */
export interface TreeEntryRecord extends TreeObjectSchema {
  project: ProjectKey;
  /** The ref the entries were listed at (REST's `ref`; undefined: the default branch). */
  ref: string | undefined;
  /** Null for a subdirectory of a tree too large to read whole: TreeEntry.flatPath probes it. */
  flatPath: string | null;
  webPath: string | null;
  webUrl: string | null;
  /** A submodule's links from `.gitmodules`; undefined when the query does not select them. */
  links?: SubmoduleLinks;
}

/** Where a file's pages are: the project's page URL, the ref as asked and its type. */
export interface BlobPageBase {
  /** `https://host/group/project`, REST's project `web_url`. */
  projectUrl: string;
  ref: string;
  refType: 'heads' | 'tags' | undefined;
}

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
