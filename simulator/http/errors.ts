// Every error body shape of rest-conventions §6, as throwable values. Handlers `throw` them;
// the dispatcher turns them into responses.
import type { ApiResponse } from './response.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { json: unknown } | { text: string },
    readonly headers: Record<string, string> = {},
  ) {
    super(`${status} ${JSON.stringify('json' in body ? body.json : body.text)}`);
    this.name = 'ApiError';
  }

  toResponse(): ApiResponse {
    return 'json' in this.body
      ? { status: this.status, json: this.body.json, headers: this.headers }
      : { status: this.status, text: this.body.text, headers: this.headers };
  }
}

/** §6.1 `render_api_error!`: `{"message": "<string>"}`. */
export function messageError(status: number, message: string, headers?: Record<string, string>): ApiError {
  return new ApiError(status, { json: { message } }, headers);
}

/** §6.4 Grape-level errors (`error!` with a string): `{"error": "<string>"}`. */
export function grapeError(status: number, error: string): ApiError {
  return new ApiError(status, { json: { error } });
}

/** §7: authentication missing or invalid. */
export function unauthorized(): ApiError {
  return messageError(401, '401 Unauthorized');
}

/** §6.1 / §7: `"403 Forbidden"` or `"403 Forbidden - <reason>"`. */
export function forbidden(reason?: string): ApiError {
  return messageError(403, reason ? `403 Forbidden - ${reason}` : '403 Forbidden');
}

/** §6.1 `not_found!(resource)`: `"404 <Resource> Not Found"`; also used for "not visible to you" (§7). */
export function notFound(resource?: string): ApiError {
  return messageError(404, resource ? `404 ${resource} Not Found` : '404 Not Found');
}

/** §1: an unknown route under /api answers `{"error":"404 Not Found"}` (an error key, not message). */
export function routeNotFound(): ApiError {
  return grapeError(404, '404 Not Found');
}

/** §6.2 `bad_request!(reason)`. */
export function badRequest(reason?: string): ApiError {
  return messageError(400, reason ? `400 Bad request - ${reason}` : '400 Bad request');
}

/** §6.3 model validation errors: `{"message": {"<field>": ["<error>", ...]}}`. */
export function validationError(fields: Record<string, string[]>, status = 400): ApiError {
  return new ApiError(status, { json: { message: fields } });
}

export function conflict(message = '409 Conflict'): ApiError {
  return messageError(409, message);
}

export function unprocessable(message = '422 Unprocessable Entity'): ApiError {
  return messageError(422, message);
}

export function methodNotAllowed(): ApiError {
  return messageError(405, '405 Method Not Allowed');
}

/** §6.5 OAuth2-style token errors (expired, revoked, insufficient scope). */
export function oauthError(status: 401 | 403, error: string, description: string, extra: Record<string, string> = {}): ApiError {
  return new ApiError(status, { json: { error, error_description: description, ...extra } });
}

/** §9 `too_many_requests!`: `{"message":"429 Too Many Requests"}` with `Retry-After: 60`. */
export function tooManyRequests(retryAfterSeconds = 60): ApiError {
  return messageError(429, '429 Too Many Requests', { 'Retry-After': String(retryAfterSeconds) });
}

/** §9 / §6.8 Rack::Attack throttle: plain-text `Retry later`. */
export function throttled(retryAfterSeconds = 30): ApiError {
  return new ApiError(429, { text: 'Retry later' }, { 'Retry-After': String(retryAfterSeconds), 'Content-Type': 'text/plain' });
}

/** §6.6 application-level limits and spam checks: `{"message": {"error": "<string>"}}`. */
export function nestedMessageError(status: number, error: string): ApiError {
  return new ApiError(status, { json: { message: { error } } });
}

/** §5 / HELPERS: `{"message":"413 Request Entity Too Large"}`. */
export function entityTooLarge(): ApiError {
  return messageError(413, '413 Request Entity Too Large');
}

/** §6.1 generic handler for unexpected exceptions. */
export function internalError(): ApiError {
  return messageError(500, '500 Internal Server Error');
}
