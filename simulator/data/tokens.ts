import { randomBytes } from 'node:crypto';

const BASE62 = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * A fresh secret token in GitLab's format: a type prefix (`glrt-` runner authentication, `GR1348941` runner registration,
 * `glpat-` personal access) and 20 random base62 characters. Random, not seeded: it is a secret
 * that is minted at run time, never part of the demo data.
 */
export function newToken(prefix: 'glrt-' | 'glpat-' | 'GR1348941'): string {
  let token = prefix;
  for (const byte of randomBytes(20)) token += BASE62[byte % BASE62.length];
  return token;
}
