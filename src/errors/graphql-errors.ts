import { HeaderMap } from '@apollo/server';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { RestError } from '../datasources/rest-error.js';
import { UnsendableRequest, type UnsentReason } from '../datasources/unsendable.js';
import { UpstreamQuotaSpent } from '../datasources/upstream-quota.js';
import { redact, redactDeep } from './redact.js';

/** Every `extensions.code` the gateway itself produces. */
export type GatewayErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'BAD_USER_INPUT'
  | 'CONFLICT'
  | 'RATE_LIMITED'
  | 'UPSTREAM_UNAVAILABLE'
  | 'UPSTREAM_ERROR'
  | 'INTERNAL_SERVER_ERROR';

/**
 * The single table from a REST answer to a GraphQL error code (DESIGN.md "Errors").
 * 405 (offset cap, keyset not available), 410 (registration tokens disabled), 412, 413 and 414 are
 * answers to what the caller asked for, so they are the caller's to fix.
 */
const CODE_BY_STATUS: ReadonlyMap<number, GatewayErrorCode> = new Map([
  [400, 'BAD_USER_INPUT'],
  [401, 'UNAUTHENTICATED'],
  [403, 'FORBIDDEN'],
  [404, 'NOT_FOUND'],
  [405, 'BAD_USER_INPUT'],
  [409, 'CONFLICT'],
  [410, 'BAD_USER_INPUT'],
  [412, 'CONFLICT'],
  [413, 'BAD_USER_INPUT'],
  [414, 'BAD_USER_INPUT'],
  [422, 'BAD_USER_INPUT'],
  [429, 'RATE_LIMITED'],
  [502, 'UPSTREAM_UNAVAILABLE'],
  [503, 'UPSTREAM_UNAVAILABLE'],
  [504, 'UPSTREAM_UNAVAILABLE'],
]);

export function codeForRestError(error: RestError): GatewayErrorCode {
  if (error.status === 0) {
    return error.failure === 'malformed-body' || error.failure === 'oversized-answer' ? 'UPSTREAM_ERROR' : 'UPSTREAM_UNAVAILABLE';
  }
  // A body that is not the JSON the endpoint sends, or larger than the gateway reads, whatever its status.
  if (error.failure === 'malformed-body' || error.failure === 'oversized-body') return 'UPSTREAM_ERROR';
  // The gateway follows no redirect (a write must not be re-sent, a credential must not travel):
  // a 3xx is the upstream's misconfiguration (V4_URL on http behind an https redirect), never the caller's.
  if (isRedirect(error.status)) return 'UPSTREAM_ERROR';
  return CODE_BY_STATUS.get(error.status) ?? (error.status >= 500 ? 'UPSTREAM_ERROR' : 'BAD_USER_INPUT');
}

function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/** Whose a request never sent is: the caller's credential or argument, or the gateway's own bug. */
const CODE_BY_UNSENT_REASON: Readonly<Record<UnsentReason, GatewayErrorCode>> = {
  'invalid-credential': 'UNAUTHENTICATED',
  'invalid-argument': 'BAD_USER_INPUT',
  unbuildable: 'INTERNAL_SERVER_ERROR',
};

export function codeForUnsendableRequest(error: UnsendableRequest): GatewayErrorCode {
  return CODE_BY_UNSENT_REASON[error.reason];
}

/**
 * A REST call refused before it was sent, as a GraphQL error. A request the HTTP client would not
 * build for an unforeseen reason is a gateway bug: its details stay in the log.
 */
export function graphQLErrorFromUnsendable(error: UnsendableRequest): GraphQLError {
  const code = codeForUnsendableRequest(error);
  return new GraphQLError(code === 'INTERNAL_SERVER_ERROR' ? 'Internal error in the gateway' : error.message, { extensions: { code } });
}

/**
 * A REST failure as a GraphQL error: the code, the REST status and message, the upstream's
 * request id; never the upstream URL or a token (RestError is redacted when built).
 */
export function graphQLErrorFromRest(error: RestError): GraphQLError {
  const code = codeForRestError(error);
  const extensions: Record<string, unknown> = { code, restStatus: error.status };
  if (error.restMessage !== undefined) extensions['restMessage'] = error.restMessage;
  if (error.restError !== undefined) extensions['restError'] = error.restError;
  if (error.requestId !== undefined) extensions['requestId'] = error.requestId;
  if (error.retryAfterSeconds !== undefined) {
    // `retryAfter` as every RATE_LIMITED has it; `retryAfterSeconds`, its earlier name, for the clients that read it.
    if (code === 'RATE_LIMITED') extensions['retryAfter'] = error.retryAfterSeconds;
    extensions['retryAfterSeconds'] = error.retryAfterSeconds;
  }
  return new GraphQLError(messageFor(code, error), { extensions });
}

function messageFor(code: GatewayErrorCode, error: RestError): string {
  switch (code) {
    case 'UNAUTHENTICATED':
      return `Authentication is missing or invalid: ${error.reason}`;
    case 'FORBIDDEN':
      return `Not allowed: ${error.reason}`;
    case 'NOT_FOUND':
      return `Not found, or not visible to this credential: ${error.reason}`;
    case 'RATE_LIMITED':
      return `The upstream is rate limiting this credential${
        error.retryAfterSeconds !== undefined ? `; retry after ${error.retryAfterSeconds} s` : ''
      }: ${error.reason}`;
    case 'UPSTREAM_UNAVAILABLE':
      return `The REST API is unavailable: ${error.reason}`;
    case 'UPSTREAM_ERROR':
      if (isRedirect(error.status))
        return `The REST API answered with a redirect (${error.status}), which the gateway never follows: ${error.reason}`;
      return `The REST API failed: ${error.reason}`;
    default:
      return error.reason;
  }
}

/**
 * RATE_LIMITED, every kind alike: the whole seconds to wait in `extensions.retryAfter` (GitLab's 429
 * as the error table maps it, a call not sent for GitLab's spent limit, an operation refused by
 * GitLab's limit or by the caller limits). A refusal of the whole operation (`refusesOperation`)
 * also says 429 with a `Retry-After` header, as GitLab answers past its limit (Apollo takes both
 * from `extensions.http` when the request held that one operation); a field's is an answer's part.
 */
export function rateLimited(message: string, retryAfter: number, { refusesOperation = false, ...details }: { refusesOperation?: boolean } & Record<string, unknown> = {}): GraphQLError {
  const http = refusesOperation ? { http: { status: 429, headers: new HeaderMap([['retry-after', String(retryAfter)]]) } } : {};
  return new GraphQLError(message, { extensions: { code: 'RATE_LIMITED', ...details, retryAfter, ...http } });
}

/** An argument the gateway refuses before any REST call. */
export function badUserInput(message: string, argumentName?: string): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: 'BAD_USER_INPUT', ...(argumentName ? { argumentName } : {}) },
  });
}

/** Turns whatever a resolver threw into a GraphQL error with a code (RestError -> the table). */
export function toGraphQLError(error: unknown): GraphQLError {
  if (error instanceof RestError) return graphQLErrorFromRest(error);
  if (error instanceof UnsendableRequest) return graphQLErrorFromUnsendable(error);
  // A call the gateway did not send, GitLab's rate limit being spent (datasources/upstream-quota.ts): no restStatus, nothing was answered.
  if (error instanceof UpstreamQuotaSpent) return rateLimited(error.message, error.retryAfter);
  if (error instanceof GraphQLError) return error;
  return new GraphQLError('Internal error in the gateway', { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

/** The error a resolver threw, under graphql-js's wrapping (with or without a path). */
export function rootCause(error: unknown): unknown {
  let current = error;
  while (current instanceof GraphQLError && current.originalError) current = current.originalError;
  return current;
}

/**
 * A value REST sent that the schema cannot carry, found by a resolver: a record without the
 * integer id its global ID is built from. The upstream's fault, not the caller's nor a gateway bug.
 */
export class UpstreamShapeError extends GraphQLError {
  constructor(detail: string) {
    super(`${WRONG_SHAPE}: ${detail}`, { extensions: { code: 'UPSTREAM_ERROR' } });
  }
}

const WRONG_SHAPE = 'The REST API sent a value of the wrong type for this field';

/** graphql-js's words for a resolver's null in a non-null field (graphql 16 throws a plain Error). */
const NON_NULL_VIOLATION = /^Cannot return null for non-nullable field [_A-Za-z][_0-9A-Za-z]*\.[_A-Za-z][_0-9A-Za-z]*\.$/;

/**
 * Whether graphql-js refused a value a resolver handed over, while completing it: a leaf that does
 * not serialize (`String cannot represent value: {…}`, an enum value the schema lacks), something
 * not iterable for a list, a null for a non-null field. Resolvers hand over REST's data as it came,
 * so that is REST sending a shape its documentation does not (or a gateway bug in reading it:
 * these are logged at warn, not hidden).
 *
 * Recognised by structure, not by message, but for the null: graphql-js wraps what completion
 * threw in an error with the field's path, and what it threw is its own GraphQLError (no
 * `originalError`, no path; no nodes, which argument errors have; no code, which every error the
 * gateway or Apollo throws has) or, for a null, a plain Error in graphql-js's exact words.
 */
export function isWrongShapeFromUpstream(error: unknown): boolean {
  if (error instanceof UpstreamShapeError || rootCause(error) instanceof UpstreamShapeError) return true;
  if (!(error instanceof GraphQLError) || !error.path || !error.originalError) return false;
  const thrown = error.originalError;
  if (thrown instanceof GraphQLError) return !thrown.originalError && !thrown.path && !thrown.nodes && thrown.extensions['code'] === undefined;
  return thrown.constructor === Error && NON_NULL_VIOLATION.test(thrown.message);
}

/** Longest part of graphql-js's own words kept in an UPSTREAM_ERROR: it quotes the value, which REST chose. */
const MAX_SHAPE_DETAIL = 200;

/**
 * An error Apollo raised about the request itself (a persisted-query hash that does not match its
 * query, an unsupported persisted-query version): it says an HTTP status of 4xx but carries no code,
 * so Apollo would label it INTERNAL_SERVER_ERROR. BAD_REQUEST is what Apollo means by a 4xx of its own.
 */
function isCodelessRequestError(error: unknown): boolean {
  if (!(error instanceof GraphQLError) || error.extensions['code'] !== undefined) return false;
  const status = (error.extensions['http'] as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * Apollo's `formatError`: REST errors get their code from the table; errors with a code pass
 * through; values REST sent that the schema cannot carry are UPSTREAM_ERROR; Apollo's own request
 * errors without a code are BAD_REQUEST; anything else is an internal error whose details stay in
 * the server's log. Every message and extension is scrubbed of tokens on the way out.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = rootCause(error);
  let result: GraphQLFormattedError = formatted;
  if (original instanceof RestError || original instanceof UnsendableRequest || original instanceof UpstreamQuotaSpent) {
    const mapped = toGraphQLError(original);
    result = { ...formatted, message: mapped.message, extensions: { ...mapped.extensions } };
  } else if (isWrongShapeFromUpstream(error)) {
    const message =
      original instanceof UpstreamShapeError ? original.message : `${WRONG_SHAPE}: ${cut((original as Error).message, MAX_SHAPE_DETAIL)}`;
    result = { ...formatted, message, extensions: { code: 'UPSTREAM_ERROR' } };
  } else if (isCodelessRequestError(error)) {
    result = { ...formatted, extensions: { ...formatted.extensions, code: 'BAD_REQUEST' } };
  } else if (!formatted.extensions?.['code'] || formatted.extensions['code'] === 'INTERNAL_SERVER_ERROR') {
    if (!(original instanceof GraphQLError)) {
      result = { ...formatted, message: 'Internal error in the gateway', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
    }
  }
  return {
    ...result,
    message: redact(result.message),
    ...(result.extensions ? { extensions: redactDeep(result.extensions) as Record<string, unknown> } : {}),
  };
}

/**
 * Whether an error is a fault of the gateway itself (a bug), rather than a REST answer or a
 * refusal the gateway meant: those are told to the caller, bugs go to the server's log.
 */
export function isUnexpectedError(error: unknown): boolean {
  if (isWrongShapeFromUpstream(error)) return false;
  const cause = rootCause(error);
  if (cause instanceof UnsendableRequest) return codeForUnsendableRequest(cause) === 'INTERNAL_SERVER_ERROR';
  return !(cause instanceof RestError) && !(cause instanceof GraphQLError) && !(cause instanceof UpstreamQuotaSpent);
}

function cut(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}
