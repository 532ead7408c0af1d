import type { IncomingHttpHeaders } from 'node:http';

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

/**
 * What a credential is read from: an HTTP request, or a WebSocket's upgrade request together with
 * the payload of its graphql-ws `connection_init` message.
 */
export interface CredentialRequest {
  headers: IncomingHttpHeaders;
  /** The `connection_init` payload; present on WebSocket connections only (possibly empty). */
  connectionParams?: Readonly<Record<string, unknown>>;
}

/** An embedder's way of finding the caller's credential (a session cookie, a header of its own, ...). */
export type CredentialReader = (request: CredentialRequest) => Credential | null;

/**
 * Who each request runs as: the caller's own credential when it carries one, otherwise the
 * service credential when the gateway has one, otherwise anonymous. One policy serves the HTTP
 * handler, artifact downloads and the WebSocket server, so the three cannot disagree.
 */
export interface CredentialPolicy {
  /** The caller's own credential on an HTTP request. */
  ofHttpRequest(request: { headers: IncomingHttpHeaders }): Credential | null;
  /** The caller's own credential on a WebSocket connection. */
  ofWebSocket(upgradeHeaders: IncomingHttpHeaders, connectionParams: Readonly<Record<string, unknown>> | undefined): Credential | null;
  /** What a request without a credential of its own runs as; null = anonymous. */
  readonly fallback: Credential | null;
  /** The gateway's own secrets (the service token), scrubbed from every error and log line. */
  readonly secrets: ReadonlyArray<string>;
}

export interface CredentialPolicyOptions {
  /** Reads the caller's credential; default the `PRIVATE-TOKEN`, `Authorization: Bearer` and `JOB-TOKEN` headers (HTTP) and the `connection_init` payload (WebSocket). */
  credentials?: CredentialReader;
  /** A token sent as `PRIVATE-TOKEN` for callers that bring none. */
  serviceToken?: string;
}

export function credentialPolicy(options: CredentialPolicyOptions = {}): CredentialPolicy {
  const { credentials: read } = options;
  const serviceToken = options.serviceToken?.trim();
  return {
    ofHttpRequest: (request) => (read ? read({ headers: request.headers }) : credentialFromHeaders(request.headers)),
    // Browsers cannot set headers on a WebSocket, so the default reads the payload only; a reader
    // of the embedder's own also sees the upgrade request (its cookies, say).
    ofWebSocket: (headers, connectionParams) =>
      read ? read({ headers, connectionParams: connectionParams ?? {} }) : credentialFromConnectionParams(connectionParams),
    fallback: serviceToken ? { kind: 'private-token', value: serviceToken } : null,
    secrets: serviceToken ? [serviceToken] : [],
  };
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
