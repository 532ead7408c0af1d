/** What a route handler answers. `json` is serialised; `text` is sent as is (plain text bodies). */
export interface ApiResponse {
  status: number;
  json?: unknown;
  text?: string;
  /** Sent as is, for binary downloads (job artifacts); set `Content-Type` in `headers`. */
  bytes?: Buffer;
  headers?: Record<string, string>;
}

export function ok(json: unknown, headers?: Record<string, string>): ApiResponse {
  return headers ? { status: 200, json, headers } : { status: 200, json };
}

export function created(json: unknown): ApiResponse {
  return { status: 201, json };
}

/** rest-conventions §11: a DELETE answers 204 with an empty body (`destroy_conditionally!`). */
export function noContent(): ApiResponse {
  return { status: 204 };
}

/** rest-conventions §5: 304 means "no change, no body" (also from POST action endpoints). */
export function notModified(): ApiResponse {
  return { status: 304 };
}
