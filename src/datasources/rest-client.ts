import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import { FormData, Pool, errors as undiciErrors, type Dispatcher } from 'undici';
import { credentialHeader, type Credential } from './credentials.js';
import { FileUpload } from './file-upload.js';
import { readPage, type Page, type PageRequest } from './pagination.js';
import { toQueryString, type RestParams } from './query.js';
import {
  CircuitBreaker,
  DEFAULT_CIRCUIT_BREAKER,
  DEFAULT_RETRY_POLICY,
  isRetryableMethod,
  isRetryableStatus,
  retryDelayMs,
  sleep,
  type CircuitBreakerOptions,
  type RetryPolicy,
} from './resilience.js';
import { RestError, type Confidential, type TransportFailure } from './rest-error.js';

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
  /** How reads are retried; `{ attempts: 1 }` turns retries off. */
  retry?: Partial<RetryPolicy>;
  /** When to stop sending to a failing upstream for a while; `false` turns the breaker off. */
  circuitBreaker?: CircuitBreakerOptions | false;
}

export interface RestCallEvent {
  method: string;
  path: string;
  /** HTTP status, or 0 when no answer arrived. */
  status: number;
  durationMs: number;
  /** Why the exchange gave no usable answer: no answer in time, a failed connection, a broken body. */
  failure?: TransportFailure;
  requestId?: string | undefined;
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
  /** Reads a JSON body instead of JSON.parse: for the few bodies with integers past 2^53. */
  parseJson?: ((text: string) => unknown) | undefined;
  /** When the GraphQL request this call serves gives up (epoch ms): no call, retry or wait outlives it. */
  deadline?: number | undefined;
  /** Aborts at `deadline`: one signal shared by every call of a session (one timer, not one per call). */
  deadlineSignal?: AbortSignal | DeadlineSignal | undefined;
}

export interface RestResponse<T> {
  status: number;
  body: T;
  header: (name: string) => string | undefined;
}

/** A download whose body is still on the wire: read it as a stream, never whole (artifacts). */
export interface RestStream {
  /** 2xx, or a 3xx redirect (object storage) whose `location` the caller may follow. */
  status: number;
  header: (name: string) => string | undefined;
  body: Readable;
}

/** The most of an error body read from a download; REST's error bodies are small JSON. */
const MAX_STREAM_ERROR_BYTES = 64 * 1024;

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
  private readonly retry: RetryPolicy;
  private readonly breaker: CircuitBreaker | undefined;

  constructor(options: RestClientOptions) {
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.breaker = options.circuitBreaker === false ? undefined : new CircuitBreaker(options.circuitBreaker ?? DEFAULT_CIRCUIT_BREAKER);
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

  /**
   * One REST call as callers see it: reads that meet a passing fault (no answer, 429, 502-504)
   * are tried again up to the retry policy, and nothing is sent while the circuit is open.
   */
  async request<T>(request: RestRequest): Promise<RestResponse<T>> {
    for (let attempt = 1; ; attempt++) {
      if (request.deadline !== undefined && Date.now() >= request.deadline) {
        throw new RestError({ method: request.method, path: request.path, status: 0, failure: 'deadline', requestId: request.requestId });
      }
      if (this.breaker && !this.breaker.allow()) {
        throw new RestError({ method: request.method, path: request.path, status: 0, failure: 'circuit-open', requestId: request.requestId });
      }
      try {
        const response = await this.exchange<T>(request);
        this.breaker?.recordSuccess();
        return response;
      } catch (error) {
        if (!(error instanceof RestError)) throw error;
        this.recordOutcome(error);
        const retryable = isRetryableMethod(request.method) && isRetryableStatus(error.status) && error.failure !== 'malformed-body';
        const delay = retryable && attempt < this.retry.attempts ? retryDelayMs(this.retry, attempt, error.retryAfterSeconds) : null;
        if (delay === null || (request.deadline !== undefined && Date.now() + delay >= request.deadline)) throw error;
        await sleep(delay);
      }
    }
  }

  /** Upstream faults count against the circuit; a 4xx proves the upstream is answering. */
  private recordOutcome(error: RestError): void {
    if (!this.breaker) return;
    if (error.status === 0 || error.status >= 502 || error.failure === 'malformed-body') this.breaker.recordFailure();
    else if (error.status === 429) this.breaker.recordNeutral();
    else this.breaker.recordSuccess();
  }

  /** One HTTP exchange with the upstream, its body read to the end. */
  private async exchange<T>(request: RestRequest): Promise<RestResponse<T>> {
    const headers = outgoingHeaders(request, 'application/json');
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
        signal: request.deadlineSignal ?? (request.deadline === undefined ? undefined : AbortSignal.timeout(Math.max(1, request.deadline - Date.now()))),
      });
    } catch (cause) {
      throw this.observed(request, started, transportError(request, cause, request.requestId));
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
      throw this.observed(request, started, transportError(request, cause, header('x-request-id') ?? request.requestId));
    }
    const parsed = parseBody(text, header('content-type'), request.parseJson);
    this.observe(request, started, response.statusCode, response.statusCode < 300 && !parsed.ok ? 'malformed-body' : undefined);

    const requestId = header('x-request-id') ?? request.requestId;
    if (response.statusCode >= 300 && response.statusCode !== 304) {
      throw new RestError({
        method: request.method,
        path: request.path,
        status: response.statusCode,
        body: parsed.ok ? parsed.value : text,
        requestId,
        retryAfterSeconds: retryAfter(header('retry-after')),
        confidential: this.confidential(request),
      });
    }
    if (!parsed.ok) {
      throw new RestError({
        method: request.method,
        path: request.path,
        status: response.statusCode,
        failure: 'malformed-body',
        requestId,
        confidential: this.confidential(request),
      });
    }
    return { status: response.statusCode, body: parsed.value as T, header };
  }

  /**
   * A GET or HEAD whose body is handed over unread, for binary downloads that must not be held in
   * memory (job artifacts). Error statuses still throw RestError, from their first 64 KiB; the
   * caller must consume or destroy the body of what is returned.
   */
  async stream(request: Omit<RestRequest, 'method' | 'body'> & { method: 'GET' | 'HEAD' }): Promise<RestStream> {
    // Downloads share the circuit with every other call; they are not retried, a body being a stream.
    if (this.breaker && !this.breaker.allow()) {
      throw new RestError({ method: request.method, path: request.path, status: 0, failure: 'circuit-open', requestId: request.requestId });
    }
    try {
      const answer = await this.openStream(request);
      this.breaker?.recordSuccess();
      return answer;
    } catch (error) {
      if (error instanceof RestError) this.recordOutcome(error);
      throw error;
    }
  }

  private async openStream(request: Omit<RestRequest, 'method' | 'body'> & { method: 'GET' | 'HEAD' }): Promise<RestStream> {
    const headers = outgoingHeaders(request, '*/*');
    const started = performance.now();
    let response: Dispatcher.ResponseData;
    try {
      response = await this.dispatcher.request({
        origin: this.origin,
        path: this.basePath + request.path + toQueryString(request.query),
        method: request.method,
        headers,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
    } catch (cause) {
      throw this.observed(request, started, transportError({ ...request, method: request.method === 'HEAD' ? 'GET' : request.method }, cause, request.requestId));
    }
    const header = (name: string): string | undefined => {
      const value = response.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    this.observe(request, started, response.statusCode);
    const redirect = response.statusCode >= 300 && response.statusCode < 400 && header('location') !== undefined;
    if (response.statusCode < 300 || redirect) return { status: response.statusCode, header, body: response.body };

    const text = await readAtMost(response.body, MAX_STREAM_ERROR_BYTES).catch(() => '');
    const parsed = parseBody(text, header('content-type'));
    throw new RestError({
      method: request.method,
      path: request.path,
      status: response.statusCode,
      body: parsed.ok ? parsed.value : text,
      requestId: header('x-request-id') ?? request.requestId,
      retryAfterSeconds: retryAfter(header('retry-after')),
      confidential: this.confidential(request),
    });
  }

  /** What an error built from this call's answer must not pass on: its credential, the upstream's URL. */
  private confidential(request: Pick<RestRequest, 'credential'>): Confidential {
    return {
      secrets: request.credential ? [request.credential.value] : [],
      upstreamPrefixes: [this.origin + this.basePath, this.origin],
    };
  }

  /** Tells `onResponse` (logs, metrics) how one exchange with the upstream went. */
  private observe(request: Pick<RestRequest, 'path' | 'requestId'> & { method: string }, started: number, status: number, failure?: TransportFailure): void {
    this.onResponse?.({ method: request.method, path: request.path, status, durationMs: performance.now() - started, requestId: request.requestId, ...(failure ? { failure } : {}) });
  }

  /** An exchange that got no answer, observed; returns the error to throw. */
  private observed(request: Pick<RestRequest, 'path' | 'requestId'> & { method: string }, started: number, error: RestError): RestError {
    this.observe(request, started, 0, error.failure);
    return error;
  }

  /**
   * Closes the pool the client made: calls in flight may finish for up to `graceMs`, then they
   * are cut (a poll still waiting on a slow upstream must not hold a shutdown up).
   */
  async close(graceMs = Number.POSITIVE_INFINITY): Promise<void> {
    if (!this.ownsDispatcher) return;
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'cut'>((resolve) => {
      if (Number.isFinite(graceMs)) timer = setTimeout(() => resolve('cut'), graceMs);
    });
    const outcome = await Promise.race([this.dispatcher.close().then(() => 'closed' as const), graceOver]);
    clearTimeout(timer);
    if (outcome === 'cut') await this.dispatcher.destroy();
  }
}

/**
 * What one GraphQL request may ask of REST: how many calls at once (so one wide query cannot take
 * every upstream connection from the other callers) and until when.
 */
export interface SessionLimits {
  maxConcurrentCalls: number;
  /** Epoch milliseconds after which no call of this request is sent or waited for. */
  deadline?: number;
  /** Called once per REST call the session makes: the request's REST call count, for its log line. */
  onCall?: () => void;
}

/**
 * Aborts a session's calls in flight when its deadline passes. undici takes an EventEmitter with
 * `aborted` and `reason` as a request's signal, and one costs far less to make than the
 * AbortController it replaces: that one's signal, the WeakRef its timer held it by and
 * setMaxListeners came to 16 µs per operation, 3% of the hot path's CPU. Its timer runs only while
 * the session has calls in flight, so a finished request leaves nothing armed and nothing held.
 */
export class DeadlineSignal extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deadline: number) {
    super();
    // Every call in flight listens, up to the whole upstream pool.
    this.setMaxListeners(0);
  }

  /** Called when the session starts a call. */
  arm(): void {
    if (this.timer || this.aborted) return;
    this.timer = setTimeout(() => this.abort(), Math.max(1, this.deadline - Date.now()));
    this.timer.unref();
  }

  /** Called when the session has no call left in flight. */
  disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private abort(): void {
    this.timer = undefined;
    this.aborted = true;
    this.reason = new DOMException('The operation ran past its deadline.', 'TimeoutError');
    this.emit('abort');
  }
}

/**
 * The transport bound to one caller's credential and request id: what data sources use. A
 * session is made per GraphQL request (or per subscription poller), so nothing it returns can
 * reach another caller.
 */
export class RestSession {
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  /** Aborts this session's calls at its deadline; made at its first call. */
  private deadlineSignal: DeadlineSignal | undefined;

  constructor(
    private readonly client: RestClient,
    readonly credential: Credential | null,
    private readonly requestId?: string,
    private readonly limits: SessionLimits = { maxConcurrentCalls: Number.POSITIVE_INFINITY },
  ) {}

  async get<T>(path: string, query?: RestParams, headers?: Readonly<Record<string, string>>): Promise<T> {
    return (await this.call<T>('GET', path, query, undefined, headers)).body;
  }

  /** A GET whose body `parseJson` reads (an X.509 serial number has 39 digits: JSON.parse would round it). */
  async getParsedWith<T>(path: string, parseJson: (text: string) => unknown): Promise<T> {
    return (await this.send<T>({ method: 'GET', path, parseJson, credential: this.credential, requestId: this.requestId })).body;
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
  postMultipart<T>(path: string, fields: MultipartFields): Promise<RestResponse<T>> {
    return this.send<T>({ method: 'POST', path, body: multipartBody(fields), credential: this.credential, requestId: this.requestId });
  }

  /** The same as postMultipart, for updates that may carry a file (a group's avatar). */
  putMultipart<T>(path: string, fields: MultipartFields): Promise<RestResponse<T>> {
    return this.send<T>({ method: 'PUT', path, body: multipartBody(fields), credential: this.credential, requestId: this.requestId });
  }

  /** `body` is for the few DELETEs that take parameters (a runner's token must not go in a URL). */
  async delete(path: string, body?: unknown): Promise<void> {
    await this.call<unknown>('DELETE', path, undefined, body);
  }

  /** A download streamed through as it arrives (see RestClient.stream). */
  stream(path: string, query?: RestParams, method: 'GET' | 'HEAD' = 'GET'): Promise<RestStream> {
    this.limits.onCall?.();
    return this.client.stream({ method, path, query, credential: this.credential, requestId: this.requestId });
  }

  /** A write or look-up that needs no caller credential (runner tokens travel in the body). */
  withoutCredential(): RestSession {
    return new RestSession(this.client, null, this.requestId, this.limits);
  }

  private call<T>(method: RestRequest['method'], path: string, query?: RestParams, body?: unknown, headers?: Readonly<Record<string, string>>) {
    return this.send<T>({ method, path, query, body, headers, credential: this.credential, requestId: this.requestId });
  }

  /** Every call of the session passes here: at most `maxConcurrentCalls` at once, within the deadline. */
  private async send<T>(request: RestRequest): Promise<RestResponse<T>> {
    await this.acquire();
    this.limits.onCall?.();
    try {
      return await this.client.request<T>({ ...request, deadline: this.limits.deadline, deadlineSignal: this.armedDeadlineSignal() });
    } finally {
      this.release();
    }
  }

  /**
   * The session's one deadline signal, armed for the call about to start: a page of 200 calls
   * would otherwise arm 200 timers. None for a session without a deadline (subscription pollers).
   */
  private armedDeadlineSignal(): DeadlineSignal | undefined {
    const { deadline } = this.limits;
    if (deadline === undefined) return undefined;
    this.deadlineSignal ??= new DeadlineSignal(deadline);
    this.deadlineSignal.arm();
    return this.deadlineSignal;
  }

  private async acquire(): Promise<void> {
    if (this.inFlight < this.limits.maxConcurrentCalls) {
      this.inFlight += 1;
      return;
    }
    // The slot is handed over by release(), so no newcomer can take it in between.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else if (--this.inFlight === 0) this.deadlineSignal?.disarm();
  }
}

/** The headers every REST call carries: the caller's credential as received, and the request id. */
function outgoingHeaders(request: Pick<RestRequest, 'headers' | 'credential' | 'requestId'>, accept: string): Record<string, string> {
  const headers: Record<string, string> = { ...request.headers, accept };
  if (request.credential) {
    const [name, value] = credentialHeader(request.credential);
    headers[name] = value;
  }
  if (request.requestId) headers['x-request-id'] = request.requestId;
  return headers;
}

/** Text fields and files of a multipart/form-data body. */
export type MultipartFields = Readonly<Record<string, string | number | boolean | FileUpload | undefined>>;

function multipartBody(fields: MultipartFields): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (value instanceof FileUpload) form.append(name, new Blob([value.bytes], { type: value.mimeType }), value.filename);
    else form.append(name, String(value));
  }
  return form;
}

type Parsed = { ok: true; value: unknown } | { ok: false };

function parseBody(text: string, contentType: string | undefined, parseJson: (text: string) => unknown = JSON.parse): Parsed {
  if (text === '') return { ok: true, value: null };
  try {
    return { ok: true, value: parseJson(text) };
  } catch {
    // Plain-text bodies are legitimate for some answers (a 429's "Retry later", a 301), but a
    // body that claims to be JSON and is not means a broken upstream.
    if (contentType?.includes('json')) return { ok: false };
    return { ok: true, value: text };
  }
}

/**
 * Stops reading a streamed body and frees its connection. undici reports a body destroyed before
 * its end as an `error` event, which nobody listens for here and which would otherwise crash the
 * process; it is expected, so it is swallowed.
 */
export function abandonBody(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** Up to `limit` bytes of a body as text; the rest is not waited for (the stream is abandoned). */
async function readAtMost(body: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= limit) break;
  }
  abandonBody(body);
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

function retryAfter(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** No usable answer arrived: the connection failed, or headers or body took too long. */
function transportError(request: Pick<RestRequest, 'method' | 'path' | 'deadline'>, cause: unknown, requestId: string | undefined): RestError {
  const pastDeadline = request.deadline !== undefined && Date.now() >= request.deadline;
  return new RestError({
    method: request.method,
    path: request.path,
    status: 0,
    failure: pastDeadline ? 'deadline' : isTimeout(cause) ? 'timeout' : 'connection',
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
