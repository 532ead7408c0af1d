// What GitLab's Blob model tells from a file's content (app/models/blob.rb, Gitlab::Git::Blob):
// whether it is text, whether it is a Git LFS pointer and of which object, and whether it lives in
// LFS. The content comes from REST base64-encoded.
import type { RepositoryFileSchema } from '../../datasources/commits.js';
import type { RepositoryBlobRecord } from '../../records/commits.js';
import { lfsOidOf } from './entry-types.js';

/** How much of a file git (and GitLab's binary detection) reads to tell binary from text. */
const BINARY_SNIFF_BYTES = 8000;

/** The file's bytes, from REST's base64 (or, should REST ever send it so, text) content. */
export function fileBytes(file: Pick<RepositoryFileSchema, 'encoding' | 'content'>): Buffer {
  return Buffer.from(file.content, file.encoding === 'base64' ? 'base64' : 'utf8');
}

/** Binary as git judges it: a NUL byte within the first 8000 bytes. */
export function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** An LFS pointer's object: its `oid sha256:` and its `size`. */
export interface LfsPointer {
  oid: string;
  size: number;
}

/**
 * The LFS object a file points at, when the file is an LFS pointer as Gitlab::Git::Blob#lfs_pointer?
 * has it: the specification's version line (lfsOidOf, shared with the tree's Blob.lfsOid), an oid
 * and a size. Null for every other file.
 */
export function lfsPointerOf(file: Pick<RepositoryFileSchema, 'size' | 'encoding' | 'content'>): LfsPointer | null {
  const oid = lfsOidOf(file);
  if (oid === null) return null;
  const size = /^size (\d+)$/m.exec(fileBytes(file).toString('utf8'))?.[1];
  return size === undefined ? null : { oid, size: Number(size) };
}

/** Whether the content lives in LFS (Blob#stored_externally?): an LFS pointer in a project with LFS enabled. */
export function storedExternally(blob: Pick<RepositoryBlobRecord, 'lfsEnabled' | 'file'>): boolean {
  return blob.lfsEnabled && lfsPointerOf(blob.file) !== null;
}
