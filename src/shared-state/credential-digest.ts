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
  const digest = keyedDigest(secret);
  return (credential) => digest(`${credential.kind}\0${credential.value}`);
}

/** HMAC-SHA256 of any text, base64url: for keys derived from a credential by other means (the response cache's). */
export function keyedDigest(secret: string | Buffer): (text: string) => string {
  return (text) => createHmac('sha256', secret).update(text).digest('base64url');
}

/** A digest with a secret of this process's own: names that mean nothing outside it. */
export function randomCredentialDigest(): CredentialDigest {
  return credentialDigest(randomBytes(32));
}
