import { crc32, inflateRawSync } from 'node:zlib';

export interface ReadEntry {
  path: string;
  bytes: Buffer;
  method: number;
}

/**
 * Reads a ZIP archive the way unzip does, from its central directory, and checks every entry's
 * CRC-32 and sizes: a test's independent proof that an artifacts archive is a real ZIP file.
 */
export function readZip(archive: Buffer): ReadEntry[] {
  const endAt = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endAt < 0) throw new Error('no end of central directory record');
  const count = archive.readUInt16LE(endAt + 10);
  let at = archive.readUInt32LE(endAt + 16);
  const entries: ReadEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (archive.readUInt32LE(at) !== 0x02014b50) throw new Error(`no central directory header at ${at}`);
    const method = archive.readUInt16LE(at + 10);
    const checksum = archive.readUInt32LE(at + 16);
    const compressedSize = archive.readUInt32LE(at + 20);
    const size = archive.readUInt32LE(at + 24);
    const nameLength = archive.readUInt16LE(at + 28);
    const extraLength = archive.readUInt16LE(at + 30);
    const commentLength = archive.readUInt16LE(at + 32);
    const localAt = archive.readUInt32LE(at + 42);
    const path = archive.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + nameLength + extraLength + commentLength;

    if (archive.readUInt32LE(localAt) !== 0x04034b50) throw new Error(`no local header for ${path}`);
    const dataAt = localAt + 30 + archive.readUInt16LE(localAt + 26) + archive.readUInt16LE(localAt + 28);
    const data = archive.subarray(dataAt, dataAt + compressedSize);
    const bytes = method === 8 ? inflateRawSync(data) : method === 0 ? Buffer.from(data) : null;
    if (!bytes) throw new Error(`unsupported method ${method} for ${path}`);
    if (bytes.length !== size) throw new Error(`size mismatch for ${path}`);
    if (crc32(bytes) !== checksum) throw new Error(`CRC mismatch for ${path}`);
    entries.push({ path, bytes, method });
  }
  return entries;
}
