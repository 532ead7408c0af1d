import { redact, scrubDeep } from '../errors/redact.js';

/** Why a REST call failed, before it has a status: the transport's own failures. */
export type TransportFailure =
  | 'timeout'
  | 'connection'
  | 'malformed-body'
  | 'oversized-answer'
  | 'oversized-body'
  | 'circuit-open'
  | 'deadline';

export interface RestErrorDetails {
  method: string;
  /** The REST path without host or query string: never the upstream's URL, never a token. */
  path: string;
  /** HTTP status, or 0 when no response arrived. */
  status: number;
  failure?: TransportFailure;
  /** The body as REST sent it (`{"message": ...}`, `{"error": ...}`, plain text, ...). */
  body?: unknown;
  requestId?: string | undefined;
  retryAfterSeconds?: number | undefined;
  /** For `oversized-body`: the most bytes of one answer the gateway reads, which this one went past. */
  limitBytes?: number | undefined;
  cause?: unknown;
  /** What must not leave the gateway beyond GitLab-looking tokens, which are always scrubbed. */
  confidential?: Confidential | undefined;
}

/**
 * Text an upstream may echo back that the caller must not see in an error: the caller's own
 * credential in any format (an OAuth token or a legacy token has no GitLab prefix), and the
 * upstream's own URL (a 301's "moved permanently to https://gitlab.internal/api/v4/projects/81").
 */
export interface Confidential {
  /** Replaced with `[REDACTED]` wherever they appear. */
  secrets: ReadonlyArray<string>;
  /** Cut from text, longest first, so that what follows them reads as a REST path (`/projects/81`). */
  upstreamPrefixes: ReadonlyArray<string>;
}

function scrubber(confidential: Confidential | undefined): (text: string) => string {
  if (!confidential) return (text) => redact(text);
  const prefixes = confidential.upstreamPrefixes.filter((prefix) => prefix !== '').sort((a, b) => b.length - a.length);
  return (text) => redact(prefixes.reduce((result, prefix) => result.split(prefix).join(''), text), confidential.secrets);
}

/**
 * The one error the REST transport throws. It understands every error body shape of
 * rest-conventions §6: `message` as a string, an object of arrays or `{error}`; `error` with
 * `error_description`; `error_code` of cherry-pick and revert; plain text.
 */
export class RestError extends Error {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly failure: TransportFailure | undefined;
  /** `message` of the REST body, redacted: a string, or an object of field errors. */
  readonly restMessage: unknown;
  /** `error` of the REST body (Grape and OAuth errors), redacted. */
  readonly restError: string | undefined;
  readonly errorDescription: string | undefined;
  /** `error_code` of the REST body (`empty`, `conflict` for cherry-pick and revert). */
  readonly errorCode: string | undefined;
  readonly requestId: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  /** See RestErrorDetails.limitBytes. */
  readonly limitBytes: number | undefined;
  /** The whole REST body, redacted, for payloads that carry structured outcomes. */
  readonly body: unknown;

  constructor(details: RestErrorDetails) {
    const scrub = scrubber(details.confidential);
    const body = scrubDeep(details.body, scrub);
    const fields = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    // Cut after scrubbing, never before: a secret cut in half would no longer be recognised.
    const restMessage =
      fields['message'] != null ? bounded(fields['message']) : typeof body === 'string' && body.trim() ? cutText(body.trim()) : undefined;
    const restError = typeof fields['error'] === 'string' ? cutText(fields['error']) : undefined;
    const summary = RestError.summarise(details, restMessage, restError);
    super(scrub(`${details.method} ${details.path} ${summary}`), { cause: details.cause });
    this.name = 'RestError';
    this.method = details.method;
    this.path = scrub(details.path);
    this.status = details.status;
    this.failure = details.failure;
    this.restMessage = restMessage;
    this.restError = restError;
    this.errorDescription = typeof fields['error_description'] === 'string' ? cutText(fields['error_description']) : undefined;
    this.errorCode = typeof fields['error_code'] === 'string' ? cutText(fields['error_code']) : undefined;
    // The request id is the upstream's X-Request-Id header: text it chose, so scrubbed as well.
    this.requestId = details.requestId === undefined ? undefined : scrub(details.requestId);
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.limitBytes = details.limitBytes;
    this.body = body;
  }

  /** The most useful human sentence REST gave, whichever body shape it used. */
  get reason(): string {
    if (typeof this.restMessage === 'string') return this.restMessage;
    if (this.restMessage && typeof this.restMessage === 'object') {
      const nested = (this.restMessage as Record<string, unknown>)['error'];
      if (typeof nested === 'string') return nested;
      return describeFieldErrors(this.restMessage as Record<string, unknown>);
    }
    if (this.errorDescription) return this.errorDescription;
    if (this.restError) return this.restError;
    return this.failure ? RestError.describeFailure(this.failure, this.limitBytes) : `HTTP ${this.status}`;
  }

  private static summarise(details: RestErrorDetails, message: unknown, error: string | undefined): string {
    if (details.status === 0) return `failed: ${RestError.describeFailure(details.failure ?? 'connection', details.limitBytes)}`;
    // A status arrived but its body was refused (malformed, too large): the log line says both.
    if (details.failure) return `answered ${details.status}, but ${RestError.describeFailure(details.failure, details.limitBytes)}`;
    const text = typeof message === 'string' ? message : error ?? (message ? JSON.stringify(message) : '');
    return `answered ${details.status}${text ? `: ${text}` : ''}`;
  }

  private static describeFailure(failure: TransportFailure, limitBytes: number | undefined): string {
    switch (failure) {
      case 'timeout':
        return 'the upstream did not answer in time';
      case 'connection':
        return 'the upstream could not be reached';
      case 'malformed-body':
        return 'the upstream sent a body that is not valid JSON, or not the JSON this endpoint sends (a sign-in or proxy page in front of the REST API?)';
      case 'deadline':
        return "the request's deadline passed before the upstream answered";
      case 'oversized-answer':
        return "the upstream's answer had more headers than the gateway reads";
      case 'oversized-body': {
        const limit = limitBytes === undefined ? 'what' : `the ${describeBytes(limitBytes)}`;
        return `the upstream's answer was larger than ${limit} the gateway reads of one REST answer (its UPSTREAM_MAX_RESPONSE_BYTES setting)`;
      }
      case 'circuit-open':
        return 'the upstream kept failing, so the gateway is not calling it for a few seconds';
    }
  }
}

/**
 * How much of the text of a REST error body reaches an error: every sentence GitLab writes fits,
 * and a body built to be huge (a 5 MB `message`, 100,000 field errors) does not become a response
 * of the same size, twice over (`message` and `extensions.restMessage`), for every field it fails.
 */
const MAX_TEXT_LENGTH = 500;
/** Most characters kept of a structured `message` (an object of field errors) in all, keys included. */
const MAX_STRUCTURED_LENGTH = 2_000;
/** Most field errors named in an error's message; the rest are counted. */
const MAX_FIELD_ERRORS = 20;
const CUT = '…';

const MIB = 1024 * 1024;

/** `33554432` -> `32 MiB (33554432 bytes)`; a limit that is no whole number of MiB in bytes alone. */
function describeBytes(bytes: number): string {
  return bytes % MIB === 0 ? `${bytes / MIB} MiB (${bytes} bytes)` : `${bytes} bytes`;
}

function cutText(text: string, length = MAX_TEXT_LENGTH): string {
  return text.length > length ? `${text.slice(0, length)}${CUT}` : text;
}

/**
 * A copy of a JSON value (already scrubbed, so at most a few dozen levels deep) holding at most
 * MAX_STRUCTURED_LENGTH characters of keys and strings, each string at most MAX_TEXT_LENGTH: the
 * entries past that are left out, and a list or object that lost some ends with `…`.
 */
function bounded(value: unknown, budget = { left: MAX_STRUCTURED_LENGTH }): unknown {
  if (typeof value === 'string') {
    const kept = cutText(value, Math.max(0, Math.min(MAX_TEXT_LENGTH, budget.left)));
    budget.left -= kept.length;
    return kept;
  }
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const item of value) {
      if (budget.left <= 0) {
        items.push(CUT);
        break;
      }
      items.push(bounded(item, budget));
    }
    return items;
  }
  if (value && typeof value === 'object') {
    const entries: Array<[string, unknown]> = [];
    for (const [key, item] of Object.entries(value)) {
      if (budget.left <= 0) {
        entries.push([CUT, CUT]);
        break;
      }
      const name = cutText(key, Math.min(MAX_TEXT_LENGTH, budget.left));
      budget.left -= name.length;
      entries.push([name, bounded(item, budget)]);
    }
    return Object.fromEntries(entries);
  }
  budget.left -= String(value).length;
  return value;
}

/** `{"title": ["is too long"], "path": ["has already been taken"]}` -> `title is too long; path ...`, at most MAX_FIELD_ERRORS of them. */
function describeFieldErrors(fields: Record<string, unknown>): string {
  const parts: string[] = [];
  let more = 0;
  for (const [field, problems] of Object.entries(fields)) {
    const list = Array.isArray(problems) ? problems : [problems];
    for (const problem of list) {
      if (parts.length === MAX_FIELD_ERRORS) more++;
      else parts.push(cutText(typeof problem === 'string' ? `${field} ${problem}` : `${field} ${JSON.stringify(problem)}`));
    }
  }
  return `${parts.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}
