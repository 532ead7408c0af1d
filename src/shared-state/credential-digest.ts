import { createHmac, randomBytes } from 'node:crypto';
import type { Credential } from '../datasources/credentials.js';

/** Names a credential without holding it: what keys of pollers and caches carry instead of the token. */
export type CredentialDigest = (credential: Credential) => string;

/**
 * A keyed hash (HMAC-SHA256) of a credential's kind and value. Keyed, so that whoever reads the
 * names (a Redis shared by the replicas, a heap dump) cannot test guessed tokens against them
 * without the secret. Replicas that share state must share the secret; a process alone gets a
 * random one (`randomCredentialDigest`).
 */
export function credentialDigest(secret: string | Buffer): CredentialDigest {
  return (credential) => createHmac('sha256', secret).update(`${credential.kind}\0${credential.value}`).digest('base64url');
}

/** A digest with a secret of this process's own: names that mean nothing outside it. */
export function randomCredentialDigest(): CredentialDigest {
  return credentialDigest(randomBytes(32));
}
