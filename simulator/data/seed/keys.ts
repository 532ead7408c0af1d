import type { SshKey, SshKeyUsage } from '../model.js';
import { minutesBefore, Rng } from '../rng.js';
import { publicKeyBlob, publicKeyLine, sha256Fingerprint, type SshKeyType } from '../ssh-keys.js';
import type { SimulatorState } from '../state.js';
import { USER_IDS } from './users.js';

type KeySeed = [kind: SshKey['kind'], userId: number, type: SshKeyType, title: string, usage: SshKeyUsage, expiresAt: string | null];

const KEYS: KeySeed[] = [
  ['ssh', USER_IDS.root, 'ssh-ed25519', 'root@workstation', 'auth_and_signing', null],
  ['ssh', USER_IDS.root, 'ssh-rsa', 'root@build-host', 'auth', '2026-01-31T00:00:00.000Z'],
  ['ssh', USER_IDS.maintainer, 'ssh-ed25519', 'maria@laptop', 'auth_and_signing', null],
  ['ssh', USER_IDS.developer, 'ecdsa-sha2-nistp256', 'dan@desktop', 'auth', null],
  ['ssh', USER_IDS.developer, 'ssh-ed25519', 'dan signing key', 'signing', null],
  ['ssh', USER_IDS.guest, 'ssh-rsa', 'grace@old-laptop', 'auth', '2024-12-31T00:00:00.000Z'],
  ['deploy', USER_IDS.maintainer, 'ssh-ed25519', 'Production deploy', 'auth', null],
  ['deploy', USER_IDS.root, 'ssh-rsa', 'Docs mirror', 'auth', null],
  ['ssh', USER_IDS.alice, 'ssh-ed25519', 'alice@acme', 'auth_and_signing', null],
  ['deploy', USER_IDS.developer, 'ecdsa-sha2-nistp256', 'Web UI CI', 'auth', '2026-06-30T00:00:00.000Z'],
];

/** Deploy keys enabled in projects: [deploy key index in KEYS, project id, can push]. */
const DEPLOY_KEYS_PROJECTS: Array<[keyIndex: number, projectId: number, canPush: boolean]> = [
  [6, 1, true],
  [6, 2, false],
  [7, 1, false],
  [9, 6, true],
];

/**
 * SSH and deploy keys with public keys laid out as real ones, so their MD5 and SHA256 fingerprints
 * are real. The first key is drawn until its SHA256 fingerprint holds both `/` and `+`, the
 * characters that must be URL-encoded in `GET /keys?fingerprint=` (rest-v4-api.md "SSH keys").
 */
export function seedKeys(state: SimulatorState): void {
  const rng = new Rng(0x55_4b_45_59);
  const material = () => Buffer.from(Array.from({ length: 256 }, () => rng.int(0, 255)));
  KEYS.forEach(([kind, userId, type, title, usageType, expiresAt], index) => {
    const line = () => publicKeyLine(type, material(), title.replace(/\s+/g, '-'));
    let key = line();
    if (index === 0) {
      const hasBoth = (fingerprint: string) => fingerprint.includes('/') && fingerprint.includes('+');
      while (!hasBoth(sha256Fingerprint(publicKeyBlob(key)!))) key = line();
    }
    const id = index + 1;
    state.sshKeys.set(id, {
      id,
      kind,
      title,
      key,
      userId,
      createdAt: minutesBefore(state.now, (300 - index * 20) * 24 * 60),
      expiresAt,
      lastUsedAt: index % 3 === 2 ? null : minutesBefore(state.now, (index + 1) * 37),
      usageType,
    });
  });
  DEPLOY_KEYS_PROJECTS.forEach(([keyIndex, projectId, canPush], index) => {
    const created = minutesBefore(state.now, (200 - index * 10) * 24 * 60);
    state.deployKeysProjects.push({ id: index + 1, deployKeyId: keyIndex + 1, projectId, canPush, createdAt: created, updatedAt: created });
  });
}
