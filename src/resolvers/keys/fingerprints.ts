import { createHash } from 'node:crypto';

/** The key blob of an OpenSSH public key line (`<type> <base64> [comment]`), or null. */
function keyBlob(line: string | undefined): Buffer | null {
  const [type, data] = (line ?? '').trim().split(/\s+/);
  if (!type || !data || !/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return null;
  const blob = Buffer.from(data, 'base64');
  // A real blob starts with its key type as an SSH string.
  return blob.length > 4 + type.length && blob.subarray(4, 4 + type.length).toString('latin1') === type ? blob : null;
}

/** `ssh-keygen -E md5 -l`'s fingerprint, without its `MD5:` label: 16 colon-separated hex pairs. */
export function md5Fingerprint(publicKey: string | undefined): string | null {
  const blob = keyBlob(publicKey);
  return blob ? createHash('md5').update(blob).digest('hex').match(/../g)!.join(':') : null;
}

/** `ssh-keygen -l`'s fingerprint: `SHA256:` and the unpadded base64 digest. */
export function sha256Fingerprint(publicKey: string | undefined): string | null {
  const blob = keyBlob(publicKey);
  return blob ? `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}` : null;
}

const MD5 = /^([0-9a-f]{2}:){15}[0-9a-f]{2}$/;
const SHA256 = /^SHA256:[A-Za-z0-9+/]{43}$/;

/**
 * A fingerprint as REST's look-up wants it (KeysFinder): an MD5 one in lower-case hex (an
 * `MD5:` label, as ssh-keygen prints it, is dropped), or `SHA256:` with its 43 base64 characters
 * (padding dropped). Null for anything else, which could never match a key.
 */
export function normalizeFingerprint(value: string): string | null {
  const text = value.trim();
  if (/^sha256:/i.test(text)) {
    const normalized = `SHA256:${text.slice('SHA256:'.length).replace(/=+$/, '')}`;
    return SHA256.test(normalized) ? normalized : null;
  }
  const md5 = text.replace(/^MD5:/i, '').toLowerCase();
  return MD5.test(md5) ? md5 : null;
}
