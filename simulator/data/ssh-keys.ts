// SSH public keys as OpenSSH writes them (`<type> <base64 blob> [comment]`), and the two
// fingerprints GitLab stores for each key: MD5 (`fingerprint`, colon-separated hex, what
// `ssh-keygen -E md5 -l` prints after "MD5:") and SHA256 (`fingerprint_sha256`, unpadded base64,
// what `ssh-keygen -l` prints after "SHA256:"). Both are digests of the decoded blob.
import { createECDH, createHash } from 'node:crypto';

/** The key blob of a public key line, or null when the line is not `<type> <base64> ...`. */
export function publicKeyBlob(line: string): Buffer | null {
  const [type, data] = line.trim().split(/\s+/);
  if (!type || !data || !/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return null;
  const blob = Buffer.from(data, 'base64');
  // The blob starts with the key type as an SSH string; anything else is not this key's blob.
  if (blob.length < 4 || blob.readUInt32BE(0) !== type.length || blob.subarray(4, 4 + type.length).toString('latin1') !== type) return null;
  return blob;
}

/** `b5:d1:...:9c`: 16 lower-case hex pairs. */
export function md5Fingerprint(blob: Buffer): string {
  return createHash('md5').update(blob).digest('hex').match(/../g)!.join(':');
}

/** `SHA256:` followed by 43 characters of unpadded standard base64 (it may hold `/` and `+`). */
export function sha256Fingerprint(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/** An SSH wire-format string: a 32-bit big-endian length, then the bytes. */
function sshString(bytes: Buffer | string): Buffer {
  const data = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  return Buffer.concat([length, data]);
}

/** An SSH mpint of a positive big-endian magnitude: a zero byte in front when the top bit is set. */
function sshMpint(magnitude: Buffer): Buffer {
  const first = magnitude[0] ?? 0;
  return sshString(first & 0x80 ? Buffer.concat([Buffer.from([0]), magnitude]) : magnitude);
}

export type SshKeyType = 'ssh-ed25519' | 'ssh-rsa' | 'ecdsa-sha2-nistp256';

/**
 * A public key line of the given type built around `material` (random bytes from the seed): the
 * blob has the exact layout of a real key of that type, so fingerprints are computed as for one.
 */
export function publicKeyLine(type: SshKeyType, material: Buffer, comment: string): string {
  let blob: Buffer;
  switch (type) {
    case 'ssh-ed25519':
      blob = Buffer.concat([sshString(type), sshString(material.subarray(0, 32))]);
      break;
    case 'ecdsa-sha2-nistp256': {
      // The point must be on the curve (ssh-keygen checks): derive it from `material` as a private key.
      const ecdh = createECDH('prime256v1');
      ecdh.setPrivateKey(material.subarray(0, 32));
      blob = Buffer.concat([sshString(type), sshString('nistp256'), sshString(ecdh.getPublicKey())]);
      break;
    }
    case 'ssh-rsa': {
      const modulus = Buffer.from(material.subarray(0, 256));
      modulus[0] = (modulus[0] ?? 0) | 0x80; // a 2048-bit modulus has its top bit set
      modulus[255] = (modulus[255] ?? 0) | 1; // and is odd
      blob = Buffer.concat([sshString(type), sshMpint(Buffer.from([1, 0, 1])), sshMpint(modulus)]);
      break;
    }
  }
  return `${type} ${blob.toString('base64')} ${comment}`;
}
