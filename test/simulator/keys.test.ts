import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Fingerprint, publicKeyBlob, sha256Fingerprint } from '../../simulator/data/ssh-keys.js';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, record } from './helpers.js';

let sim: Simulator;
const { admin, maintainer } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

const fingerprintsOf = (id: number) => {
  const blob = publicKeyBlob(sim.state.sshKeys.get(id)!.key)!;
  return { md5: md5Fingerprint(blob), sha256: sha256Fingerprint(blob) };
};

/** ssh-keygen's own reading of a public key line; null when OpenSSH is not installed. */
function sshKeygen(line: string, hash: 'md5' | 'sha256'): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'keys-'));
  try {
    writeFileSync(join(dir, 'key.pub'), `${line}\n`);
    return (
      execFileSync('ssh-keygen', ['-l', '-E', hash, '-f', join(dir, 'key.pub')], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      }).split(' ')[1] ?? ''
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('SSH key fingerprints', () => {
  it('are computed from the key blob as ssh-keygen prints them', () => {
    const checkedTypes = new Set<string>();
    for (const key of sim.state.sshKeys.values()) {
      const { md5, sha256 } = fingerprintsOf(key.id);
      expect(md5).toMatch(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
      expect(sha256).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
      // One key of each type is enough for ssh-keygen to vouch for the layout.
      const type = key.key.split(' ')[0]!;
      if (checkedTypes.has(type)) continue;
      checkedTypes.add(type);
      const fromKeygen = sshKeygen(key.key, 'sha256');
      if (fromKeygen !== null) {
        expect(fromKeygen).toBe(sha256);
        expect(sshKeygen(key.key, 'md5')).toBe(`MD5:${md5}`);
      }
    }
    // The first key's SHA256 fingerprint needs URL-encoding: it holds both `/` and `+`.
    expect(fingerprintsOf(1).sha256).toMatch(/\/.*\+|\+.*\//);
  });
});

describe('GET /keys/:id', () => {
  it('answers the key with its full user (fixtures/keys/get-key-by-id.json), to administrators only', async () => {
    const key = record(await call(sim, '/keys/1', { token: admin }));
    expect(Object.keys(key)).toEqual(['id', 'title', 'key', 'created_at', 'expires_at', 'last_used_at', 'usage_type', 'user']);
    expect(key).toMatchObject({
      id: 1,
      title: 'root@workstation',
      usage_type: 'auth_and_signing',
      user: { id: 1, username: 'root', email: 'root@example.com', identities: [] },
    });
    expect((await call(sim, '/keys/1', { token: maintainer })).status).toBe(403);
    expect((await call(sim, '/keys/1')).status).toBe(401);
    expect(record(await call(sim, '/keys/999', { token: admin }))).toEqual({ message: '404 Not found' });
  });
});

describe('GET /keys?fingerprint=', () => {
  it('finds a key by its URL-encoded SHA256 fingerprint and by its MD5 one', async () => {
    const { md5, sha256 } = fingerprintsOf(1);
    expect(record(await call(sim, `/keys?fingerprint=${encodeURIComponent(sha256)}`, { token: admin }))['id']).toBe(1);
    expect(record(await call(sim, `/keys?fingerprint=${md5}`, { token: admin }))['id']).toBe(1);
    // Unencoded, `+` reads as a space: the digest no longer decodes to 32 bytes.
    const raw = await call(sim, `/keys?fingerprint=${sha256}`, { token: admin });
    expect(raw.status).toBe(400);
    expect(raw.body).toEqual({ message: 'Failed to return the key' });
  });

  it('adds the projects of a deploy key (fixtures/keys/get-user-by-deploy-key-fingerprint.json)', async () => {
    const key = record(await call(sim, `/keys?fingerprint=${encodeURIComponent(fingerprintsOf(7).sha256)}`, { token: admin }));
    expect(key['deploy_keys_projects']).toEqual([
      {
        id: 1,
        deploy_key_id: 7,
        project_id: 1,
        created_at: expect.any(String) as unknown,
        updated_at: expect.any(String) as unknown,
        can_push: true,
      },
      {
        id: 2,
        deploy_key_id: 7,
        project_id: 2,
        created_at: expect.any(String) as unknown,
        updated_at: expect.any(String) as unknown,
        can_push: false,
      },
    ]);
    expect(record(await call(sim, '/keys/7', { token: admin }))['deploy_keys_projects']).toBeUndefined();
  });

  it('answers 400 for what cannot be a fingerprint and 404 for one no key has', async () => {
    expect((await call(sim, '/keys?fingerprint=..%2F..%2Fusers', { token: admin })).status).toBe(400);
    expect((await call(sim, '/keys?fingerprint=SHA256%3Ashort', { token: admin })).status).toBe(400);
    expect(record(await call(sim, `/keys?fingerprint=${'00:'.repeat(15)}00`, { token: admin }))).toEqual({ message: '404 Key Not Found' });
    expect(record(await call(sim, '/keys', { token: admin }))).toEqual({ error: 'fingerprint is missing' });
  });
});
