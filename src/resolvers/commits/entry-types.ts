// GitLab's tree entry types (Types::Tree::TreeEntryType, BlobType, SubmoduleType) over REST's tree
// entries (tree-entries.ts). Entry IDs are GitLab's: the global ID of the entry representation
// with the object's SHA.
import type { BlobResolvers, EntryResolvers, SubmoduleResolvers, TreeEntryResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { oneCall } from '../../cost/field-cost.js';
import type { BlobSchema } from '../../datasources/commits.js';
import { declared } from '../../fields/declaration.js';
import type { TreeEntryRecord } from '../../records/commits.js';
import { nullWhenNotFound } from '../lookups.js';
import { FLAT_PATH_PROBES, probedFlatPath } from './tree-entries.js';

/** Gitaly's LfsPointerMaxSize: a bigger blob is never an LFS pointer. */
const LFS_POINTER_MAX_SIZE = 200;
const LFS_SPEC_PREFIX = 'version https://git-lfs.github.com/spec';

/**
 * The LFS object id a blob points at, when the blob is an LFS pointer as Gitaly's ListLFSPointers
 * finds them (at most 200 bytes, starting with the LFS specification's version line); the
 * `sha256:` id as GitLab's Blob#lfs_oid reads it. Null for every other blob.
 */
export function lfsOidOf(blob: Pick<BlobSchema, 'size' | 'encoding' | 'content'>): string | null {
  if (blob.size > LFS_POINTER_MAX_SIZE) return null;
  const text = Buffer.from(blob.content, blob.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8');
  if (!text.startsWith(LFS_SPEC_PREFIX)) return null;
  return /^oid sha256:([0-9a-f]{64})$/m.exec(text)?.[1] ?? null;
}

const entryId = (representation: string) => (entry: TreeEntryRecord) => `gid://gitlab/Gitlab::Graphql::Representation::${representation}/${entry.id}`;

export const Entry: EntryResolvers = {
  __resolveType: (entry) => (entry.type === 'tree' ? 'TreeEntry' : entry.type === 'blob' ? 'Blob' : 'Submodule'),
};

export const TreeEntry: TreeEntryResolvers = {
  id: entryId('TreeEntry'),
  sha: (entry) => entry.id,
  // From the tree's recursive listing when it was small enough to read; else probed (tree-entries.ts):
  // a subdirectory of a tree too large for its recursive listing costs one listing head per level.
  flatPath: declared({ calls: FLAT_PATH_PROBES, rest: ['GET /projects/:id/repository/tree'] }, (entry, _args, { loaders }) => entry.flatPath ?? probedFlatPath(entry, loaders)),
};

export const Blob: BlobResolvers = {
  id: entryId('TreeEntry'),
  sha: (entry) => entry.id,
  // One REST read per distinct blob and request (the blob loader), only when selected.
  lfsOid: declared({ ...oneCall(), rest: ['GET /projects/:id/repository/blobs/:sha'] }, async (entry, _args, { loaders }) => {
    const blob = await nullWhenNotFound(loaders.blob.load({ project: entry.project, sha: entry.id }));
    return blob ? lfsOidOf(blob) : null;
  }),
};

export const Submodule: SubmoduleResolvers = {
  id: entryId('SubmoduleTreeEntry'),
  sha: (entry) => entry.id,
  webUrl: (entry) => entry.links?.webUrl ?? null,
  treeUrl: (entry) => entry.links?.treeUrl ?? null,
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Blob, Entry, Submodule, TreeEntry };
