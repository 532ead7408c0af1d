/**
 * The caller's credential, forwarded to REST exactly as it arrived (rest-conventions §7).
 * The gateway never mints, stores or logs credentials; it only passes them on.
 */
export type Credential =
  | { kind: 'private-token'; value: string }
  | { kind: 'bearer'; value: string }
  | { kind: 'job-token'; value: string };

type HeaderBag = Record<string, string | string[] | undefined>;

function single(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  const trimmed = text?.trim();
  return trimmed ? trimmed : undefined;
}

/** Reads `PRIVATE-TOKEN`, `Authorization: Bearer` or `JOB-TOKEN` from lower-cased HTTP headers. */
export function credentialFromHeaders(headers: HeaderBag): Credential | null {
  const privateToken = single(headers['private-token']);
  if (privateToken) return { kind: 'private-token', value: privateToken };
  const authorization = single(headers['authorization']);
  const bearer = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (bearer) return { kind: 'bearer', value: bearer };
  const jobToken = single(headers['job-token']);
  if (jobToken) return { kind: 'job-token', value: jobToken };
  return null;
}

/**
 * Reads a credential from a graphql-ws `connection_init` payload. Browsers cannot set headers on a
 * WebSocket, so clients put the same header names (any case) or `token` in the payload.
 */
export function credentialFromConnectionParams(params: Readonly<Record<string, unknown>> | undefined): Credential | null {
  if (!params) return null;
  const headers: HeaderBag = {};
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'string') headers[name.toLowerCase()] = value;
  }
  if (headers['token'] && !headers['private-token']) headers['private-token'] = headers['token'];
  return credentialFromHeaders(headers);
}

/** The HTTP header that carries the credential upstream. */
export function credentialHeader(credential: Credential): [name: string, value: string] {
  switch (credential.kind) {
    case 'private-token':
      return ['private-token', credential.value];
    case 'bearer':
      return ['authorization', `Bearer ${credential.value}`];
    case 'job-token':
      return ['job-token', credential.value];
  }
}
