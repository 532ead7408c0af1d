// `Repository.blobs` as GitLab's BlobsResolver answers it, and its RepositoryBlob type as
// BlobPresenter presents it, over REST's `GET .../repository/files/:file_path` (one call per path
// and request, the repositoryFile loader). GitLab reads every path from Gitaly at once and skips
// the ones that name no blob; REST answers 404 for those, and they are left out the same way.
import type { RepositoryBlobResolvers, RepositoryResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { arrayConnection } from '../../connections/connection.js';
import { oneCall, type FieldArgs } from '../../cost/field-cost.js';
import type { RepositoryFileSchema } from '../../datasources/commits.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import type { RepositoryBlobRecord } from '../../records/commits.js';
import type { GatewayContext } from '../../server/context.js';
import { nullWhenNotFound } from '../lookups.js';
import { pathOfWebUrl } from '../web-path.js';
import { fileBytes, isBinary, lfsPointerOf, storedExternally } from './blob-content.js';
import { blobWebIdeFields } from './blob-web-ide.js';
import { blobForkPathFields } from './blob-fork-paths.js';
import { blobPageUrl, blobRootUrl, findFileUrl, permalinkUrl, type BlobPage } from './blob-paths.js';
import { qualifiedRef } from './references.js';
import { isValidRefName } from './ref-name.js';

/** Most paths one `blobs` field reads (one REST call each): more are refused before any call. */
export const MAX_BLOB_PATHS = 100;

/** The paths `Repository.blobs` reads, one REST call each. */
const blobPathCount = (args: FieldArgs): number => Math.min(Array.isArray(args['paths']) ? args['paths'].length : 1, MAX_BLOB_PATHS);

/** The distinct, non-blank paths asked for, at most MAX_BLOB_PATHS of them. */
function checkedPaths(paths: readonly string[]): string[] {
  if (paths.length > MAX_BLOB_PATHS) throw badUserInput(`\`paths\` takes at most ${MAX_BLOB_PATHS} paths.`, 'paths');
  return [...new Set(paths.filter((path) => path !== ''))];
}

export const repositoryBlobsFields: Pick<RepositoryResolvers, 'blobs'> = {
  // The project's record (default branch, page URL, archived, LFS), then GET .../repository/files/:file_path
  // once per distinct path (at most MAX_BLOB_PATHS, refused beyond); a missing file is no node.
  blobs: declared(
    { calls: (args) => 1 + blobPathCount(args), items: blobPathCount, rest: ['GET /projects/:id', 'GET /projects/:id/repository/files/:file_path'] },
    async (repository, args, { loaders }) => {
      const paths = checkedPaths(args.paths);
      // BlobsResolver#validate_ref: a ref git would not accept as a branch name is an argument error.
      if (args.ref !== null && args.ref !== undefined && !isValidRefName(args.ref)) throw badUserInput('Ref is not valid', 'ref');
      const project = await loaders.project.load(repository.project);
      // GitLab answers no blobs for an empty repository, and reads the default branch when no ref is given.
      const ref = args.ref ?? project.default_branch ?? null;
      if (project.empty_repo === true || ref === null || paths.length === 0) return arrayConnection(args, []);
      const refType = args.refType ?? undefined;
      const restRef = qualifiedRef(ref, refType) ?? ref;
      const files = await Promise.all(paths.map((path) => nullWhenNotFound(loaders.repositoryFile.load({ project: repository.project, ref: restRef, path }))));
      const pages = project.web_url ? { projectUrl: project.web_url.replace(/\/+$/, ''), ref, refType } : null;
      const records = files
        .filter((file): file is RepositoryFileSchema => file !== null)
        .map((file) => ({ project: repository.project, file, pages, ref, archived: project.archived === true, lfsEnabled: project.lfs_enabled !== false }));
      return arrayConnection(args, records);
    },
  ),
};

/**
 * GitLab's `user_access.can_push_to_branch?(ref)` behind `branch_exists?(ref)`: REST's branch
 * record answers `can_push` for the caller (false in an archived project), and 404 for a ref that
 * is no branch. Anonymous callers push nowhere, which needs no call.
 */
async function canPushToRefBranch(blob: RepositoryBlobRecord, { credential, loaders }: GatewayContext): Promise<boolean> {
  if (!credential) return false;
  const branch = await nullWhenNotFound(loaders.branch.load({ project: blob.project, name: blob.ref }));
  return branch?.can_push === true;
}

const BRANCH = 'GET /projects/:id/repository/branches/:branch';

const pageUrl = (page: BlobPage) => (blob: RepositoryBlobRecord) => (blob.pages ? blobPageUrl(blob.pages, page, blob.file.file_path) : null);
const pagePath = (page: BlobPage) => (blob: RepositoryBlobRecord) => pathOfWebUrl(pageUrl(page)(blob));

export const RepositoryBlob: RepositoryBlobResolvers = {
  id: (blob) => `gid://gitlab/Blob/${blob.file.blob_id}`,
  oid: (blob) => blob.file.blob_id,
  path: (blob) => blob.file.file_path,
  name: (blob) => blob.file.file_name,
  // REST tells only whether the file is executable.
  mode: (blob) => (blob.file.execute_filemode === true ? '100755' : '100644'),
  lfsOid: (blob) => lfsPointerOf(blob.file)?.oid ?? null,
  webUrl: pageUrl('blob'),
  webPath: pagePath('blob'),
  editBlobPath: pagePath('edit'),
  rawPath: pagePath('raw'),
  replacePath: pagePath('update'),
  blamePath: pagePath('blame'),
  historyPath: pagePath('commits'),
  findFilePath: (blob) => (blob.pages ? pathOfWebUrl(findFileUrl(blob.pages)) : null),
  projectBlobPathRoot: (blob) => (blob.pages ? pathOfWebUrl(blobRootUrl(blob.pages)) : null),
  // REST's commit_id is the commit the ref names.
  permalinkPath: (blob) => (blob.pages ? pathOfWebUrl(permalinkUrl(blob.pages, blob.file.commit_id, blob.file.file_path)) : null),
  size: (blob) => blob.file.size,
  // Blob#raw_size: the LFS object's size when the content is stored externally.
  rawSize: (blob) => (storedExternally(blob) ? lfsPointerOf(blob.file)!.size : blob.file.size),
  rawBlob: (blob) => fileBytes(blob.file).toString('utf8'),
  rawTextBlob: (blob) => {
    const bytes = fileBytes(blob.file);
    return isBinary(bytes) ? null : bytes.toString('utf8');
  },
  storedExternally: (blob) => storedExternally(blob),
  // Gitlab::Git::Blob#external_storage: `lfs` for any LFS pointer, LFS enabled or not.
  externalStorage: (blob) => (lfsPointerOf(blob.file) ? 'lfs' : null),
  archived: (blob) => blob.archived,
  // GET .../repository/branches/:branch for `can_push`, once per ref and request (none for anonymous callers).
  canCurrentUserPushToBranch: declared({ ...oneCall(), rest: [BRANCH] }, (blob, _args, context) => canPushToRefBranch(blob, context)),
  // BlobHelper#can_modify_blob?: not stored externally, and can_edit_tree? (a branch the caller may push to).
  canModifyBlob: declared({ ...oneCall(), rest: [BRANCH] }, async (blob, _args, context) => !storedExternally(blob) && (await canPushToRefBranch(blob, context))),
  ...blobWebIdeFields,
  ...blobForkPathFields,
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { RepositoryBlob };
