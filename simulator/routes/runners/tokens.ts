import { randomBytes } from 'node:crypto';

const BASE62 = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A new runner authentication token, in GitLab's `glrt-` format. */
export function newRunnerToken(): string {
  let token = 'glrt-';
  for (const byte of randomBytes(20)) token += BASE62[byte % BASE62.length];
  return token;
}
