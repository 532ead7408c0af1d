import { FormData, Pool, errors as undiciErrors, type Dispatcher } from 'undici';
import { credentialHeader, type Credential } from './credentials.js';
import { FileUpload } from './file-upload.js';
import { readPage, type Page, type PageRequest } from './pagination.js';
import { toQueryString, type RestParams } from './query.js';
import { RestError } from './rest-error.js';

export interface RestClientOptions {
  /** Base URL of the REST API, with its `/api/v4` path, e.g. `https://gitlab.example.com/api/v4`. */
  baseUrl: string;
  /** A dispatcher of the embedder's own (an undici Agent, Pool or MockAgent); default a Pool. */
  dispatcher?: Dispatcher;
  /** Connections the default pool keeps to the upstream at most. */
  connections?: number;
  /** How long to wait for response headers, and between body chunks, in milliseconds. */
  timeoutMs?: number;
  /** Called after every REST call with what it was and how it went; for logs and metrics. */
  onResponse?: (event: RestCallEvent) => void;
}

export interface RestCallEvent {
  method: string;
  path: string;
  status: number;
  durationMs: number;
}

export interface RestRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: RestParams | undefined;
  /** Sent as a JSON body, which the REST API accepts on every write (rest-conventions §1); a FormData as multipart. */
  body?: unknown;
  credential: Credential | null;
  requestId?: string | undefined;
  /** Endpoint-specific headers, such as the `Runner-Token` of runner-facing routes. */
  headers?: Readonly<Record<string, string>> | undefined;
}

export interface RestResponse<T> {
  status: number;
  body: T;
  header: (name: string) => string | undefined;
}

/**
 * The REST transport: one undici pool per upstream origin with bounded connections and keep-alive,
 * header and body timeouts, the caller's credential forwarded as received, every body consumed,
 * and failures thrown as one typed `RestError`. Shared by every request of the process; it holds
 * no caller state.
 */
export class RestClient {
  private readonly origin: string;
  private readonly basePath: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly timeoutMs: number;
  private readonly onResponse: ((event: RestCallEvent) => void) | undefined;

  constructor(options: RestClientOptions) {
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.onResponse = options.onResponse;
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher =
      options.dispatcher ??
      new Pool(this.origin, {
        connections: options.connections ?? 64,
        keepAliveTimeout: 30_000,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
  }

  async request<T>(request: RestRequest): Promise<RestResponse<T>> {
    const headers: Record<string, string> = { ...request.headers, accept: 'application/json' };
    if (request.credential) {
      const [name, value] = credentialHeader(request.credential);
      headers[name] = value;
    }
    if (request.requestId) headers['x-request-id'] = request.requestId;
    let body: string | FormData | undefined;
    if (request.body instanceof FormData) {
      body = request.body; // undici sets the multipart content-type with its boundary
    } else if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body);
    }

    const started = performance.now();
    let response: Dispatcher.ResponseData;
    try {
      response = await this.dispatcher.request({
        origin: this.origin,
        path: this.basePath + request.path + toQueryString(request.query),
        method: request.method,
        headers,
        body,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
    } catch (cause) {
      throw transportError(request, cause, request.requestId);
    }

    const header = (name: string): string | undefined => {
      const value = response.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    let text: string;
    try {
      // Always read the body to its end, even for errors and 204s, so the connection is reused.
      text = await response.body.text();
    } catch (cause) {
      throw transportError(request, cause, header('x-request-id') ?? request.requestId);
    }
    this.onResponse?.({
      method: request.method,
      path: request.path,
      status: response.statusCode,
      durationMs: performance.now() - started,
    });

    const parsed = parseBody(text, header('content-type'));
    const requestId = header('x-request-id') ?? request.requestId;
    if (response.statusCode >= 300 && response.statusCode !== 304) {
      throw new RestError({
        method: request.method,
        path: request.path,
        status: response.statusCode,
        body: parsed.ok ? parsed.value : text,
        requestId,
        retryAfterSeconds: retryAfter(header('retry-after')),
      });
    }
    if (!parsed.ok) {
      throw new RestError({
        method: request.method,
        path: request.path,
        status: response.statusCode,
        failure: 'malformed-body',
        requestId,
      });
    }
    return { status: response.statusCode, body: parsed.value as T, header };
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }
}

/**
 * The transport bound to one caller's credential and request id: what data sources use. A
 * session is made per GraphQL request (or per subscription poller), so nothing it returns can
 * reach another caller.
 */
export class RestSession {
  constructor(
    private readonly client: RestClient,
    readonly credential: Credential | null,
    private readonly requestId?: string,
  ) {}

  async get<T>(path: string, query?: RestParams, headers?: Readonly<Record<string, string>>): Promise<T> {
    return (await this.call<T>('GET', path, query, undefined, headers)).body;
  }

  async getPage<T>(path: string, page: PageRequest, query?: RestParams): Promise<Page<T>> {
    const response = await this.call<T[]>('GET', path, { ...query, page: page.page, per_page: page.perPage });
    return readPage(Array.isArray(response.body) ? response.body : [], response.header, page);
  }

  async post<T>(path: string, body?: unknown): Promise<RestResponse<T>> {
    return this.call<T>('POST', path, undefined, body ?? {});
  }

  async put<T>(path: string, body?: unknown): Promise<T> {
    return (await this.call<T>('PUT', path, undefined, body ?? {})).body;
  }

  /**
   * A multipart/form-data POST, for the endpoints that take a file (rest-conventions §1): files
   * go as file parts, everything else as text fields; undefined fields are left out.
   */
  async postMultipart<T>(path: string, fields: Readonly<Record<string, string | number | boolean | FileUpload | undefined>>): Promise<RestResponse<T>> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      if (value instanceof FileUpload) form.append(name, new Blob([value.bytes], { type: value.mimeType }), value.filename);
      else form.append(name, String(value));
    }
    return this.call<T>('POST', path, undefined, form);
  }

  /** `body` is for the few DELETEs that take parameters (a runner's token must not go in a URL). */
  async delete(path: string, body?: unknown): Promise<void> {
    await this.call<unknown>('DELETE', path, undefined, body);
  }

  /** A write or look-up that needs no caller credential (runner tokens travel in the body). */
  withoutCredential(): RestSession {
    return new RestSession(this.client, null, this.requestId);
  }

  private call<T>(method: RestRequest['method'], path: string, query?: RestParams, body?: unknown, headers?: Readonly<Record<string, string>>) {
    return this.client.request<T>({ method, path, query, body, headers, credential: this.credential, requestId: this.requestId });
  }
}

type Parsed = { ok: true; value: unknown } | { ok: false };

function parseBody(text: string, contentType: string | undefined): Parsed {
  if (text === '') return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    // Plain-text bodies are legitimate for some answers (a 429's "Retry later", a 301), but a
    // body that claims to be JSON and is not means a broken upstream.
    if (contentType?.includes('json')) return { ok: false };
    return { ok: true, value: text };
  }
}

function retryAfter(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** No usable answer arrived: the connection failed, or headers or body took too long. */
function transportError(request: RestRequest, cause: unknown, requestId: string | undefined): RestError {
  return new RestError({
    method: request.method,
    path: request.path,
    status: 0,
    failure: isTimeout(cause) ? 'timeout' : 'connection',
    requestId,
    cause,
  });
}

function isTimeout(error: unknown): boolean {
  return (
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError
  );
}
