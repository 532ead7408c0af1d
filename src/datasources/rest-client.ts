import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { Client, FormData, Pool, errors as undiciErrors, type buildConnector, type Dispatcher } from 'undici';
import { credentialHeader, type Credential } from './credentials.js';
import { FileUpload } from './file-upload.js';
import { readPage, type Page, type PageRequest } from './pagination.js';
import { toQueryString, type RestParams } from './query.js';
import { withFields } from './with-fields.js';
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
import { FairScheduler, type SchedulerFlow } from './scheduler.js';
import type { RestCallLog } from './call-log.js';
import { isSendableHeaderValue, requireWellFormed, UnsendableRequest, type UnsentReason } from './unsendable.js';
import { RestCallSpan, type OperationTrace, type UpstreamServer } from '../observability/trace-context.js';
import type { QuotaEntry, UpstreamQuota } from './upstream-quota.js';
import { retryAfterSeconds } from './retry-after.js';
import { abortReason, BodyReadFailure, exchangeWhole, onAbort, type ExchangeSignal, type WholeAnswer } from './whole-answer.js';
import { readBounded } from './bounded-body.js';

export interface RestClientOptions {
  /** Base URL of the REST API, with its `/api/v4` path, e.g. `https://gitlab.example.com/api/v4`. */
  baseUrl: string;
  /** A dispatcher of the embedder's own (an undici Agent, Pool or MockAgent); default a Pool. */
  dispatcher?: Dispatcher;
  /** Connections the default pool keeps to the upstream at most. */
  connections?: number;
  /**
   * REST calls in flight at once across every operation, shared fairly among them (scheduler.ts).
   * Default: what the default pool carries at once, so that no call waits inside the pool while the
   * scheduler could have given its slot to another operation: `connections` over HTTP/1.1,
   * `connections` x `streamsPerConnection` once the upstream negotiates HTTP/2 (see upstreamPool).
   * A value given here is kept whatever the protocol.
   */
  maxInFlight?: number;
  /** Calls one HTTP/2 connection of the default pool carries at once (default 100; GitLab's nginx allows 128). */
  streamsPerConnection?: number;
  /**
   * PEM of the CA certificate(s) the upstream's certificate must chain to, for a GitLab behind a
   * private CA: they replace Node's bundled roots for the default pool (as curl's `--cacert`).
   */
  ca?: string | Buffer;
  /** How long to wait for response headers, and between body chunks, in milliseconds. */
  timeoutMs?: number;
  /**
   * The most bytes of one answer's body read (default DEFAULT_MAX_RESPONSE_BYTES); a larger answer
   * is refused (`oversized-body`) without reading the rest. Downloads (`stream`) are not held to it.
   */
  maxResponseBytes?: number;
  /** Called after every REST call with what it was and how it went; for logs and metrics. */
  onResponse?: (event: RestCallEvent) => void;
  /** How reads are retried; `{ attempts: 1 }` turns retries off. */
  retry?: Partial<RetryPolicy>;
  /** When to stop sending to a failing upstream for a while; `false` turns the breaker off. */
  circuitBreaker?: CircuitBreakerOptions | false;
  /**
   * GitLab's rate limits per credential (upstream-quota.ts): every answer's `RateLimit-*` headers are
   * recorded, and a call of a credential with nothing left before the reset is not sent. Absent: neither.
   */
  upstreamQuota?: UpstreamQuota | undefined;
}

export interface RestCallEvent {
  method: string;
  path: string;
  /** HTTP status, or 0 when no answer arrived. */
  status: number;
  durationMs: number;
  /** Why the exchange gave no usable answer: no answer in time, a failed connection, a broken body. */
  failure?: TransportFailure;
  /** Set when nothing was sent (status 0): the call was refused while being built, no upstream fault. */
  unsent?: UnsentReason;
  /** Set when a REST call was answered with a redirect, which the gateway never follows: an upstream fault. */
  redirect?: UpstreamRedirect;
  requestId?: string | undefined;
}

export interface UpstreamRedirect {
  /** The `Location`, resolved against the URL called; undefined when the upstream sent none (or garbage). */
  location: string | undefined;
  /**
   * Set when the redirect keeps the REST path but moves the API itself (http to https, another host
   * or path): the base URL the gateway should be configured with (`V4_URL`) instead of its own.
   */
  movedBaseUrl: string | undefined;
}

/**
 * What a data source expects a 2xx body to be; any other body is the upstream's fault
 * (`malformed-body`), such as an HTML sign-in page that a proxy in front of GitLab answers with 200.
 * `list`: a JSON array; `record`: a JSON object; `record-or-empty`: a JSON object or no body (a
 * write answered 204 or 304). Left out: any JSON, or no body.
 */
export type BodyShape = 'list' | 'record' | 'record-or-empty';

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
  /** What the 2xx body must be (see BodyShape). */
  expect?: BodyShape | undefined;
  /** When the GraphQL request this call serves gives up (epoch ms): no call, retry or wait outlives it. */
  deadline?: number | undefined;
  /** Aborts at `deadline`: one signal shared by every call of a session (one timer, not one per call). */
  deadlineSignal?: AbortSignal | DeadlineSignal | undefined;
  /** The call's span when its operation is traced: its `traceparent` goes upstream, its retries are counted. */
  span?: RestCallSpan | undefined;
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

/**
 * The longest request target (path and query string) sent. GitLab's nginx answers a longer one 414
 * (its `large_client_header_buffers` are 8 KiB), and each of its `Link` headers repeats the target:
 * refused here as the caller's argument, before it costs an upstream call.
 */
const MAX_REQUEST_TARGET = 8_000;

/**
 * The most header bytes read from an answer: GitLab's `Link` header holds up to four URLs of up to
 * MAX_REQUEST_TARGET each (first, prev, next, last), past undici's default of 16 KiB.
 */
const MAX_ANSWER_HEADER_BYTES = 64 * 1024;

/**
 * Connections to the upstream by default: enough for a 100-row page's second wave (two calls a row)
 * in one round of the upstream's latency over HTTP/1.1; 128 took two (docs/performance.md,
 * "Pool size", has the measurements). The pool is shared by every operation of the process
 * through the fair scheduler, so it bounds what the gateway asks of GitLab at once, however many
 * pages are open.
 */
export const DEFAULT_CONNECTIONS = 256;

/** Streams per HTTP/2 connection by default: undici's own default, under what GitLab's nginx allows (128). */
export const DEFAULT_STREAMS_PER_CONNECTION = 100;

/**
 * The codes of a certificate the TLS handshake refused (Node's and OpenSSL's): a configuration
 * fault (`UPSTREAM_CA_FILE`, the upstream's certificate) that no retry heals.
 */
const CERTIFICATE_REFUSALS = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The most of an error body read from a download; REST's error bodies are small JSON. */
const MAX_STREAM_ERROR_BYTES = 64 * 1024;

/**
 * The most bytes of one REST answer read by default: 32 MiB. Every JSON answer is held whole while
 * it is parsed, so without a ceiling one answer of 300 MB took the process from 110 MB to 1.0-1.36
 * GB. The largest answers GitLab really sends are pages of 100 issues or merge requests: about 3 KB
 * of JSON each plus the description, which GitLab allows up to 1,048,576 characters. A page of 100
 * with long descriptions (50-100 KB each) is 5-10 MB; 32 MiB leaves three times that, and refuses
 * what only an upstream gone wrong, or a page of nothing but descriptions near GitLab's maximum,
 * sends (that page reads in smaller pages: `first: 20`). The cost: each call in flight may hold
 * about this much while its body arrives, so the worst case is this times the calls in flight.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** A call as undici takes it, built and checked once, before the breaker is asked or anything is sent. */
interface PreparedRequest {
  /** The base path, the REST path and the query string. */
  path: string;
  headers: Record<string, string>;
  body: string | FormData | undefined;
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
  private readonly maxResponseBytes: number;
  private readonly onResponse: ((event: RestCallEvent) => void) | undefined;
  private readonly retry: RetryPolicy;
  private readonly breaker: CircuitBreaker | undefined;
  private readonly quota: UpstreamQuota | undefined;
  /** Every session's calls take their turn here: the upstream pool shared fairly among operations. */
  readonly scheduler: FairScheduler;
  /** Whether each live connection of the default pool negotiated h2. */
  private readonly connectionIsH2 = new Map<Client, boolean>();
  /** Whether the upstream multiplexes, as its connections last said; HTTP/1.1 until one says h2. */
  private multiplexing = false;
  /** What the scheduler's capacity follows, unless `maxInFlight` fixed it or the dispatcher is the embedder's. */
  private readonly pool: { connections: number; streams: number; sizesScheduler: boolean };
  /** Where the calls go, for their spans (tracing). */
  readonly server: UpstreamServer;

  constructor(options: RestClientOptions) {
    // Once per client, not per call: the hidden-class rule of docs/development.md is for hot paths,
    // and withFields' type would make every field of a Partial policy optional.
    // eslint-disable-next-line no-restricted-syntax
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.breaker = options.circuitBreaker === false ? undefined : new CircuitBreaker(options.circuitBreaker ?? DEFAULT_CIRCUIT_BREAKER);
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.server = { address: url.hostname, port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80) };
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.onResponse = options.onResponse;
    this.quota = options.upstreamQuota;
    this.ownsDispatcher = options.dispatcher === undefined;
    const connections = options.connections ?? DEFAULT_CONNECTIONS;
    this.pool = {
      connections,
      streams: options.streamsPerConnection ?? DEFAULT_STREAMS_PER_CONNECTION,
      sizesScheduler: options.maxInFlight === undefined && options.dispatcher === undefined,
    };
    this.scheduler = new FairScheduler(options.maxInFlight ?? connections);
    this.dispatcher = options.dispatcher ?? this.upstreamPool(options.ca);
  }

  /**
   * The default dispatcher: a Pool that offers HTTP/2 to a TLS upstream (ALPN; `http://` is always
   * HTTP/1.1) and learns from each connection it opens what the upstream chose (issue 16).
   *
   * undici 7 negotiates h2 with `allowH2` but still admits calls to each connection by the HTTP/1.1
   * `pipelining` factor (1): a Pool of N h2 connections would carry N calls, one stream each
   * (nodejs/undici#4143, changed in undici 8). So each connection's Client is told as it connects
   * what it may carry: `streams` calls over h2, one over HTTP/1.1, where pipelining would queue
   * calls behind each other on one socket. The scheduler's capacity follows: connections x streams
   * while the upstream speaks h2, connections otherwise, so that a call never waits in undici's
   * FIFO queue, where the fair scheduler cannot order it; and a wave of calls travels over one
   * connection, a new one opening only when a connection carries `streams` calls.
   *
   * The connector, not the `undici:client:connected` diagnostics channel, is where the protocol is
   * read: the channel is process-wide (every pool of every gateway in the process, told apart only
   * by origin, which two gateways may share) and names no Client whose admission could be set; the
   * connector is this pool's own, and hands the socket over before the Client writes to it.
   *
   * Before the first connection is made nothing is known, so the first wave opens up to
   * `connections` connections (HTTP/1.1's rule); later waves share the first.
   */
  private upstreamPool(ca: string | Buffer | undefined): Pool {
    const { connections, streams } = this.pool;
    const learn = (client: Client, socket: Socket) => {
      // A plain socket has no `alpnProtocol`; a TLS one says `h2`, `http/1.1` or false.
      const h2 = (socket as Partial<TLSSocket>).alpnProtocol === 'h2';
      client.pipelining = h2 ? streams : 1;
      this.connectionIsH2.set(client, h2);
      this.protocolChanged();
    };
    return new Pool(this.origin, {
      connections,
      keepAliveTimeout: 30_000,
      maxHeaderSize: MAX_ANSWER_HEADER_BYTES,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      allowH2: true,
      maxConcurrentStreams: streams,
      ...(ca === undefined ? {} : { connect: { ca } }),
      factory: (origin, clientOptions) => {
        // The Pool's connector: TLS with the CA, offering h2.
        const { connect } = clientOptions as { connect: buildConnector.connector };
        const client: Client = new Client(
          origin,
          withFields(clientOptions, {
            // What the upstream last said, until this connection says otherwise (learn runs first).
            pipelining: this.multiplexing ? streams : 1,
            connect: (params: buildConnector.Options, callback: buildConnector.Callback) =>
              connect(params, (...result) => {
                if (result[1]) learn(client, result[1]);
                callback(...result);
              }),
          }),
        );
        client.on('disconnect', () => {
          this.connectionIsH2.delete(client);
          this.protocolChanged();
        });
        return client;
      },
    });
  }

  /**
   * The upstream multiplexes while every live connection negotiated h2 (one HTTP/1.1 connection
   * among them, behind a load balancer of mixed backends, carries one call: the capacity must not
   * count it as `streams`). With none live, what the last one said stands: an upstream idle long
   * enough to lose its connections has not changed protocol.
   */
  private protocolChanged(): void {
    if (this.connectionIsH2.size > 0) this.multiplexing = [...this.connectionIsH2.values()].every(Boolean);
    const { connections, streams, sizesScheduler } = this.pool;
    const capacity = connections * (this.multiplexing ? streams : 1);
    if (sizesScheduler && this.scheduler.capacity !== capacity) this.scheduler.setCapacity(capacity);
  }

  /**
   * One REST call as callers see it: reads that meet a passing fault (no answer, 429, 502-504)
   * are tried again up to the retry policy, and nothing is sent while the circuit is open.
   */
  async request<T>(request: RestRequest): Promise<RestResponse<T>> {
    const prepared = this.prepare(request, 'application/json');
    for (let attempt = 1; ; attempt++) {
      if (request.deadline !== undefined && Date.now() >= request.deadline) {
        throw new RestError({ method: request.method, path: request.path, status: 0, failure: 'deadline', requestId: request.requestId });
      }
      if (this.breaker && !this.breaker.allow()) {
        throw new RestError({ method: request.method, path: request.path, status: 0, failure: 'circuit-open', requestId: request.requestId });
      }
      const sent = this.quotaAllows(request.credential);
      try {
        const response = await this.exchange<T>(request, prepared, sent);
        this.breaker?.recordSuccess();
        return response;
      } catch (error) {
        if (!(error instanceof RestError)) {
          // Nothing the upstream did (the HTTP client refused the request): a half-open breaker's trial is free again.
          this.breaker?.recordNeutral();
          throw error;
        }
        this.recordOutcome(error);
        // An answer refused for its body or headers would come back the same: not tried again.
        const retryable =
          isRetryableMethod(request.method) &&
          isRetryableStatus(error.status) &&
          error.failure !== 'malformed-body' &&
          error.failure !== 'oversized-answer' &&
          error.failure !== 'oversized-body' &&
          !isCertificateRefusal(error.cause);
        const delay = retryable && attempt < this.retry.attempts ? retryDelayMs(this.retry, attempt, error.retryAfterSeconds) : null;
        if (delay === null || (request.deadline !== undefined && Date.now() + delay >= request.deadline)) throw error;
        await sleep(delay);
        request.span?.retried();
      }
    }
  }

  /** Throws UpstreamQuotaSpent when a call of this credential would find nothing left of its rate limit (counted nowhere else yet). */
  checkQuota(credential: Credential | null): void {
    this.quota?.check(credential);
  }

  /**
   * The call counted in flight against its credential's rate limit; none sent when nothing is left
   * before GitLab's reset (UpstreamQuotaSpent): then a half-open breaker's trial is free again.
   */
  private quotaAllows(credential: Credential | null): QuotaEntry | undefined {
    try {
      return this.quota?.sending(credential);
    } catch (error) {
      this.breaker?.recordNeutral();
      throw error;
    }
  }

  /** Upstream faults count against the circuit; a 4xx proves the upstream is answering. */
  private recordOutcome(error: RestError): void {
    if (!this.breaker) return;
    // An answer with more headers than undici reads (GitLab repeats every query parameter in each
    // of its `Link` URLs, so a long search argument makes one) came from a live upstream, for what
    // one caller asked: counting it would let that caller open the breaker for everyone.
    // A body past maxResponseBytes is the upstream's fault to the caller (UPSTREAM_ERROR) and in
    // the metrics (kind `oversized_body`), but neutral here, deliberately: the upstream answered, and
    // how large depends on what was asked. GitLab takes issue descriptions of up to 1,048,576
    // characters, so any user who may write issues can make a page of 100 past the limit; five such
    // reads in a row would otherwise fail every caller fast for the cooldown.
    if (error.failure === 'oversized-answer' || error.failure === 'oversized-body' || error.status === 429) this.breaker.recordNeutral();
    else if (error.status === 0 || error.status >= 502 || error.failure === 'malformed-body') this.breaker.recordFailure();
    else this.breaker.recordSuccess();
  }

  /**
   * Builds what undici is given for a call: every value the caller chose that goes upstream is
   * checked here (headers in outgoingHeaders, the query string, the JSON or multipart body), so a
   * call that cannot be sent is refused before the breaker is asked and before any retry.
   */
  private prepare(request: Omit<RestRequest, 'method'> & { method: string }, accept: string): PreparedRequest {
    try {
      const headers = outgoingHeaders(request, accept);
      let body: string | FormData | undefined;
      if (request.body instanceof FormData) {
        body = request.body; // undici sets the multipart content-type with its boundary
      } else if (request.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = jsonBody(request.body);
      }
      const path = this.basePath + request.path + toQueryString(request.query);
      if (path.length > MAX_REQUEST_TARGET) {
        throw new UnsendableRequest('invalid-argument', `The REST request would be ${path.length} characters long; GitLab takes at most ${MAX_REQUEST_TARGET}. Shorten the arguments.`);
      }
      return { path, headers, body };
    } catch (error) {
      throw this.unsent(request, error);
    }
  }

  /** A call refused while being built, told to `onResponse` as such (never as an upstream fault). */
  private unsent(request: Pick<RestRequest, 'path' | 'requestId'> & { method: string }, error: unknown): UnsendableRequest {
    const refusal =
      error instanceof UnsendableRequest
        ? error
        : new UnsendableRequest('unbuildable', `${request.method} ${request.path} was not sent: the HTTP client refused to build it (${error instanceof Error ? error.message : String(error)}).`, { cause: error });
    this.onResponse?.({ method: request.method, path: request.path, status: 0, durationMs: 0, requestId: request.requestId, unsent: refusal.reason });
    return refusal;
  }

  /** One HTTP exchange with the upstream, its body read to the end. */
  private async exchange<T>(request: RestRequest, prepared: PreparedRequest, sent: QuotaEntry | undefined): Promise<RestResponse<T>> {
    const started = performance.now();
    let answer: WholeAnswer;
    try {
      // The gateway's own pool reads answers whole through its dispatch handler; a dispatcher of the
      // embedder's own is asked through `request` (exchangeByRequest).
      answer = await (this.ownsDispatcher ? exchangeWhole : exchangeByRequest)(
        this.dispatcher,
        {
          origin: this.origin,
          path: prepared.path,
          method: request.method,
          headers: prepared.headers,
          body: prepared.body,
          headersTimeout: this.timeoutMs,
          bodyTimeout: this.timeoutMs,
        },
        this.maxResponseBytes,
        request.deadlineSignal ?? (request.deadline === undefined ? undefined : AbortSignal.timeout(Math.max(1, request.deadline - Date.now()))),
      );
    } catch (cause) {
      if (cause instanceof BodyReadFailure) {
        const header = headerReader(cause.headers);
        this.quota?.answered(sent, request.credential, cause.statusCode, header);
        throw this.observed(request, started, transportError(request, cause.failure, header('x-request-id') ?? request.requestId));
      }
      this.quota?.answered(sent, request.credential, 0, noHeader);
      if (isBuildError(cause)) throw this.unsent(request, cause);
      throw this.observed(request, started, transportError(request, cause, request.requestId));
    }

    const { statusCode } = answer;
    const header = headerReader(answer.headers);
    this.quota?.answered(sent, request.credential, statusCode, header);
    const requestId = header('x-request-id') ?? request.requestId;
    if (!answer.body) throw this.oversized(request, started, statusCode, requestId);
    const text = utf8Text(answer.body);
    // 304 answers an action POST that changed nothing (rest-conventions §5): a success without a body.
    const succeeded = statusCode < 300 || statusCode === 304;
    const parsed = succeeded ? parseAnswer(text, request.expect, request.parseJson) : parseBody(text, header('content-type'));
    const redirect = this.redirectOf(prepared, statusCode, header('location'));
    this.observe(request, started, statusCode, succeeded && !parsed.ok ? 'malformed-body' : undefined, redirect);

    if (!succeeded) {
      throw new RestError({
        method: request.method,
        path: request.path,
        status: statusCode,
        body: parsed.ok ? parsed.value : text,
        requestId,
        retryAfterSeconds: retryAfterSeconds(header('retry-after')),
        // Where a redirect points is the upstream's topology (its https origin, a sign-in host): for the operator's log only.
        confidential: this.confidential(request, redirect ? [redirect.movedBaseUrl ?? '', redirect.location ? new URL(redirect.location).origin : ''] : []),
      });
    }
    if (!parsed.ok) {
      throw new RestError({
        method: request.method,
        path: request.path,
        status: statusCode,
        failure: 'malformed-body',
        requestId,
        confidential: this.confidential(request),
      });
    }
    return { status: statusCode, body: parsed.value as T, header };
  }

  /** An answer whose body ran past maxResponseBytes (it was cut there, its connection closed), observed; returns the error to throw. */
  private oversized(request: RestRequest, started: number, status: number, requestId: string | undefined): RestError {
    this.observe(request, started, status, 'oversized-body');
    return new RestError({
      method: request.method,
      path: request.path,
      status,
      failure: 'oversized-body',
      limitBytes: this.maxResponseBytes,
      requestId,
      confidential: this.confidential(request),
    });
  }

  /**
   * A GET or HEAD whose body is handed over unread, for binary downloads that must not be held in
   * memory (job artifacts). Error statuses still throw RestError, from their first 64 KiB; the
   * caller must consume or destroy the body of what is returned. maxResponseBytes does not apply:
   * the artifact route pipes the body to its client as it arrives, holding no more than the
   * streams' buffers, and a text file read into a field is held to its own `maxBytes` (1 MiB at most).
   */
  async stream(request: Omit<RestRequest, 'method' | 'body'> & { method: 'GET' | 'HEAD' }): Promise<RestStream> {
    const prepared = this.prepare(request, '*/*');
    // Downloads share the circuit with every other call; they are not retried, a body being a stream.
    if (this.breaker && !this.breaker.allow()) {
      throw new RestError({ method: request.method, path: request.path, status: 0, failure: 'circuit-open', requestId: request.requestId });
    }
    const sent = this.quotaAllows(request.credential);
    try {
      const answer = await this.openStream(request, prepared, sent);
      this.breaker?.recordSuccess();
      return answer;
    } catch (error) {
      if (error instanceof RestError) this.recordOutcome(error);
      else this.breaker?.recordNeutral();
      throw error;
    }
  }

  private async openStream(
    request: Omit<RestRequest, 'method' | 'body'> & { method: 'GET' | 'HEAD' },
    prepared: PreparedRequest,
    sent: QuotaEntry | undefined,
  ): Promise<RestStream> {
    const started = performance.now();
    let response: Dispatcher.ResponseData;
    try {
      response = await this.dispatcher.request({
        origin: this.origin,
        path: prepared.path,
        method: request.method,
        headers: prepared.headers,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
    } catch (cause) {
      this.quota?.answered(sent, request.credential, 0, noHeader);
      if (isBuildError(cause)) throw this.unsent(request, cause);
      throw this.observed(request, started, transportError(withFields(request, { method: request.method === 'HEAD' ? 'GET' : request.method }), cause, request.requestId));
    }
    const header = headerReader(response.headers);
    this.quota?.answered(sent, request.credential, response.statusCode, header);
    const redirect = response.statusCode >= 300 && response.statusCode < 400 && header('location') !== undefined;
    // A download's redirect to object storage is an answer; a 3xx with nowhere to go is an upstream fault.
    this.observe(request, started, response.statusCode, undefined, redirect ? undefined : this.redirectOf(prepared, response.statusCode, undefined));
    if (response.statusCode < 300 || redirect) return { status: response.statusCode, header, body: response.body };

    const text = await readAtMost(response.body, MAX_STREAM_ERROR_BYTES).catch(() => '');
    const parsed = parseBody(text, header('content-type'));
    throw new RestError({
      method: request.method,
      path: request.path,
      status: response.statusCode,
      body: parsed.ok ? parsed.value : text,
      requestId: header('x-request-id') ?? request.requestId,
      retryAfterSeconds: retryAfterSeconds(header('retry-after')),
      confidential: this.confidential(request),
    });
  }

  /** What an error built from this call's answer must not pass on: its credential, the upstream's URL. */
  private confidential(request: Pick<RestRequest, 'credential'>, redirectPrefixes: ReadonlyArray<string> = []): Confidential {
    return {
      secrets: request.credential ? [request.credential.value] : [],
      upstreamPrefixes: [this.origin + this.basePath, this.origin, ...redirectPrefixes],
    };
  }

  /** Tells `onResponse` (logs, metrics) how one exchange with the upstream went. */
  private observe(
    request: Pick<RestRequest, 'path' | 'requestId'> & { method: string },
    started: number,
    status: number,
    failure?: TransportFailure,
    redirect?: UpstreamRedirect,
  ): void {
    this.onResponse?.({
      method: request.method,
      path: request.path,
      status,
      durationMs: performance.now() - started,
      requestId: request.requestId,
      ...(failure ? { failure } : {}),
      ...(redirect ? { redirect } : {}),
    });
  }

  /**
   * A 3xx (but 304) on a REST call: where it pointed, for the operator's log line. The usual cause
   * is a `V4_URL` of `http://` in front of an https-only GitLab, which redirects every call to the
   * same path on another base; that base is what `V4_URL` should be.
   */
  private redirectOf(prepared: PreparedRequest, status: number, location: string | undefined): UpstreamRedirect | undefined {
    if (status < 300 || status >= 400 || status === 304) return undefined;
    const called = new URL(prepared.path, this.origin);
    let target: URL | undefined;
    try {
      target = location === undefined ? undefined : new URL(location, called);
    } catch {
      target = undefined;
    }
    if (!target) return { location: undefined, movedBaseUrl: undefined };
    const restPathAndQuery = prepared.path.slice(this.basePath.length);
    const targetText = target.origin + target.pathname + target.search;
    const base = targetText.endsWith(restPathAndQuery) ? targetText.slice(0, targetText.length - restPathAndQuery.length) : undefined;
    return { location: target.href, movedBaseUrl: base !== undefined && base !== this.origin + this.basePath ? base : undefined };
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
 * What one GraphQL request may ask of REST: how many calls at once at most (a ceiling on top of its
 * fair share of the pool, scheduler.ts) and until when.
 */
export interface SessionLimits {
  /** Default: no ceiling beyond the fair share. */
  maxConcurrentCalls?: number;
  /** Epoch milliseconds after which no call of this request is sent or waited for. */
  deadline?: number;
  /**
   * Called once per REST call the session asks for, before it takes a connection: the request's
   * REST call count, for its log line. It may throw to refuse the call (the operation's budget of
   * calls made is spent); nothing is sent then.
   */
  onCall?: () => void;
  /** Where the calls are noted when the caller asked to see them (`explain`); read only when set. */
  log?: () => RestCallLog | undefined;
  /** The operation's trace while tracing is on (observability/trace-context.ts): a span per call. */
  trace?: () => OperationTrace | undefined;
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
  /** Aborts this session's calls at its deadline; made at its first call. */
  private deadlineSignal: DeadlineSignal | undefined;

  constructor(
    private readonly client: RestClient,
    readonly credential: Credential | null,
    private readonly requestId?: string,
    private readonly limits: SessionLimits = {},
    /** This session's turn in the shared pool; shared with its credential-less twin (withoutCredential). */
    private readonly flow: SchedulerFlow = client.scheduler.flow(limits.maxConcurrentCalls),
  ) {}

  // The shape each method asks of a 2xx body (BodyShape) is where an HTML page or a JSON of the wrong
  // kind becomes the upstream's fault (UPSTREAM_ERROR) for every data source at once.

  /** One record (a JSON object). */
  async get<T>(path: string, query?: RestParams, headers?: Readonly<Record<string, string>>): Promise<T> {
    return (await this.call<T>('GET', path, query, undefined, headers, 'record')).body;
  }

  /** A list REST does not paginate (a JSON array, whole). */
  async getList<T>(path: string, query?: RestParams): Promise<T[]> {
    return (await this.call<T[]>('GET', path, query, undefined, undefined, 'list')).body;
  }

  /** One record whose body `parseJson` reads (an X.509 serial number has 39 digits: JSON.parse would round it). */
  async getParsedWith<T>(path: string, parseJson: (text: string) => unknown): Promise<T> {
    return (await this.send<T>({ method: 'GET', path, parseJson, expect: 'record', credential: this.credential, requestId: this.requestId })).body;
  }

  async getPage<T>(path: string, page: PageRequest, query?: RestParams): Promise<Page<T>> {
    const response = await this.call<T[]>('GET', path, withFields(query ?? {}, { page: page.page, per_page: page.perPage }), undefined, undefined, 'list');
    return readPage(response.body, response.header, page);
  }

  /** A write answers the record it made or changed, or nothing (204, or 304 "already so"). */
  async post<T>(path: string, body?: unknown): Promise<RestResponse<T>> {
    return this.call<T>('POST', path, undefined, body ?? {}, undefined, 'record-or-empty');
  }

  async put<T>(path: string, body?: unknown): Promise<T> {
    return (await this.call<T>('PUT', path, undefined, body ?? {}, undefined, 'record-or-empty')).body;
  }

  /**
   * A multipart/form-data POST, for the endpoints that take a file (rest-conventions §1): files
   * go as file parts, everything else as text fields; undefined fields are left out.
   */
  postMultipart<T>(path: string, fields: MultipartFields): Promise<RestResponse<T>> {
    return this.send<T>({ method: 'POST', path, body: multipartBody(fields), expect: 'record-or-empty', credential: this.credential, requestId: this.requestId });
  }

  /** The same as postMultipart, for updates that may carry a file (a group's avatar). */
  putMultipart<T>(path: string, fields: MultipartFields): Promise<RestResponse<T>> {
    return this.send<T>({ method: 'PUT', path, body: multipartBody(fields), expect: 'record-or-empty', credential: this.credential, requestId: this.requestId });
  }

  /** `body` is for the few DELETEs that take parameters (a runner's token must not go in a URL). */
  async delete(path: string, body?: unknown): Promise<void> {
    await this.call<unknown>('DELETE', path, undefined, body);
  }

  /** A download streamed through as it arrives (see RestClient.stream). */
  stream(path: string, query?: RestParams, method: 'GET' | 'HEAD' = 'GET'): Promise<RestStream> {
    this.client.checkQuota(this.credential);
    this.limits.onCall?.();
    const operation = this.limits.trace?.();
    if (!operation) return this.client.stream({ method, path, query, credential: this.credential, requestId: this.requestId });
    const span = new RestCallSpan(operation, method, path, this.client.server, undefined);
    return this.client.stream({ method, path, query, credential: this.credential, requestId: this.requestId, span }).then(
      (answer) => {
        span.end(answer.status, undefined);
        return answer;
      },
      (error: unknown) => {
        span.end(error instanceof RestError ? error.status : 0, error instanceof RestError ? error.failure : 'unsent');
        throw error;
      },
    );
  }

  /** A write or look-up that needs no caller credential (runner tokens travel in the body). */
  withoutCredential(): RestSession {
    return new RestSession(this.client, null, this.requestId, this.limits, this.flow);
  }

  private call<T>(method: RestRequest['method'], path: string, query?: RestParams, body?: unknown, headers?: Readonly<Record<string, string>>, expect?: BodyShape) {
    return this.send<T>({ method, path, query, body, headers, expect, credential: this.credential, requestId: this.requestId });
  }

  /** Every call of the session passes here: within its budget, in its turn in the shared pool, within the deadline. */
  private async send<T>(request: RestRequest): Promise<RestResponse<T>> {
    // A call GitLab's rate limit leaves no room for is refused before it counts as made.
    this.client.checkQuota(request.credential);
    this.limits.onCall?.();
    const log = this.limits.log?.();
    const logged = log?.begin(request.method, request.path);
    const operation = this.limits.trace?.();
    const span = operation && new RestCallSpan(operation, request.method, request.path, this.client.server, logged?.call.wave);
    const turn = this.flow.start();
    if (turn) await turn;
    let status = 0;
    let failure: string | undefined;
    try {
      // The request is the session's own (built by `call` and its kin): completed in place, not
      // copied, for a spread of objects of several shapes cost 5 µs a call (a slow clone).
      request.deadline = this.limits.deadline;
      request.deadlineSignal = this.armedDeadlineSignal();
      request.span = span;
      const response = await this.client.request<T>(request);
      status = response.status;
      return response;
    } catch (error) {
      if (error instanceof RestError) status = error.status;
      failure = error instanceof RestError ? error.failure : 'unsent';
      throw error;
    } finally {
      this.release();
      if (logged) log?.end(logged, status);
      span?.end(status, failure);
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

  private release(): void {
    this.flow.finish();
    if (this.flow.inFlight === 0 && this.flow.waiting.length === 0) this.deadlineSignal?.disarm();
  }
}

/**
 * The headers every REST call carries: the endpoint's own (a runner's `Runner-Token`), the caller's
 * credential as received, and the request id. The one place where a value becomes an upstream
 * header, so the one place that checks each is something HTTP can carry. A token with a line break
 * or a character past Latin-1 (from a `connection_init` payload, a GraphQL argument or a
 * `?job_token=`) cannot be valid, and undici would refuse it only after the call was counted.
 */
function outgoingHeaders(request: Pick<RestRequest, 'headers' | 'credential' | 'requestId' | 'span'>, accept: string): Record<string, string> {
  const headers: Record<string, string> = {};
  // Endpoint headers carry GraphQL arguments: the caller's input to fix.
  if (request.headers) {
    for (const [name, value] of Object.entries(request.headers)) {
      if (!isSendableHeaderValue(value)) throw unsendableHeader('invalid-argument', `The \`${name}\` value`);
      headers[name] = value;
    }
  }
  headers['accept'] = accept;
  if (request.credential) {
    const [name, value] = credentialHeader(request.credential);
    if (!isSendableHeaderValue(value)) throw unsendableHeader('invalid-credential', 'The credential');
    headers[name] = value;
  }
  // A request id only correlates logs: one that cannot be sent is replaced, never a reason to refuse
  // the caller. (The HTTP and WebSocket edges already replace an incoming X-Request-Id that is not a
  // short token; this catches an embedder's own ids.)
  if (request.requestId) headers['x-request-id'] = isSendableHeaderValue(request.requestId) ? request.requestId : randomUUID();
  // The operation's trace context (W3C `traceparent`), when it is traced: made by the propagator, never the caller's text.
  if (request.span) Object.assign(headers, request.span.headers);
  return headers;
}

function unsendableHeader(reason: 'invalid-credential' | 'invalid-argument', what: string): UnsendableRequest {
  return new UnsendableRequest(reason, `${what} cannot be sent in an HTTP header: it holds a line break, another control character or a character past U+00FF.`);
}

/** A write's JSON body; a lone surrogate in any string would reach REST as `\ud800`, which no UTF-8 text holds. */
function jsonBody(value: unknown): string {
  return JSON.stringify(value, (key: string, item: unknown) => {
    requireWellFormed(key, 'An input field name');
    return typeof item === 'string' ? requireWellFormed(item, 'A text argument') : item;
  });
}

/**
 * Whether undici refused to build a request (a value it cannot put in a header or path, an option it
 * does not take): thrown before anything is sent, so it says nothing about the upstream.
 */
function isBuildError(error: unknown): boolean {
  return error instanceof undiciErrors.InvalidArgumentError;
}

/** Text fields and files of a multipart/form-data body. */
export type MultipartFields = Readonly<Record<string, string | number | boolean | FileUpload | undefined>>;

function multipartBody(fields: MultipartFields): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    // FormData would turn a lone surrogate into U+FFFD: another value than the caller's, sent silently.
    if (value instanceof FileUpload) form.append(name, new Blob([value.bytes], { type: value.mimeType }), requireWellFormed(value.filename, 'A file name'));
    else form.append(name, requireWellFormed(String(value), 'A text argument'));
  }
  return form;
}

type Parsed = { ok: true; value: unknown } | { ok: false };

/**
 * A success's body: JSON of the shape the data source expects, or nothing. Raw files and artifacts
 * are streamed (RestClient.stream), never read here, so a 2xx that is not JSON (the HTML page of a
 * sign-in proxy or captive portal in front of GitLab) is no answer of the REST API.
 */
function parseAnswer(text: string, expect: BodyShape | undefined, parseJson: (text: string) => unknown = JSON.parse): Parsed {
  let value: unknown = null;
  if (text !== '') {
    try {
      value = parseJson(text);
    } catch {
      return { ok: false };
    }
  }
  return hasShape(value, expect) ? { ok: true, value } : { ok: false };
}

function hasShape(value: unknown, expect: BodyShape | undefined): boolean {
  const isRecord = typeof value === 'object' && value !== null && !Array.isArray(value);
  switch (expect) {
    case undefined:
      return true;
    case 'list':
      return Array.isArray(value);
    case 'record':
      return isRecord;
    case 'record-or-empty':
      return isRecord || value === null;
  }
}

/** An error's body: JSON when it is, else its text (a 429's "Retry later", a 301's sentence). */
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

/**
 * Stops reading a streamed body and frees its connection. undici reports a body destroyed before
 * its end as an `error` event, which nobody listens for here and which would otherwise crash the
 * process; it is expected, so it is swallowed.
 */
export function abandonBody(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

/**
 * A body whole, or undefined when it is larger than `limit` bytes: announced so by its
 * Content-Length (then nothing of it is read) or found so as it arrives (then nothing more is read).
 * Either way the body is abandoned and its connection closed, so no more than `limit` bytes of it
 * are ever held. The bytes counted are those the body yields, so decoded ones should an embedder's
 * dispatcher decompress (undici's `decompress` interceptor drops the Content-Length it decodes);
 * the default pool asks for no encoding and decodes none, so what it counts is what it holds.
 */
export async function readWithin(body: Readable, announcedLength: string | undefined, limit: number): Promise<Buffer | undefined> {
  const bytes = await readBounded(body, limit, announcedLength);
  if (bytes === undefined) abandonBody(body);
  return bytes;
}

/**
 * exchangeWhole's exchange through `dispatcher.request`, for a dispatcher of the embedder's own.
 * `request` hands the dispatcher undici's own handler, which every undici dispatcher and
 * interceptor serves, those written for undici's older handler API (`onHeaders`, `onData`)
 * included; exchangeWhole's handler speaks only the newer one (`onResponseStart`, ...), and such an
 * interceptor left its calls without an answer until their deadline.
 */
async function exchangeByRequest(dispatcher: Dispatcher, options: Dispatcher.DispatchOptions, limit: number, signal: ExchangeSignal | undefined): Promise<WholeAnswer> {
  const { statusCode, headers, body } = await cutAtSignal(dispatcher.request(withFields(options, { signal })), signal);
  try {
    return { statusCode, headers, body: await readWithin(body, headerReader(headers)('content-length'), limit) };
  } catch (failure) {
    throw new BodyReadFailure(statusCode, headers, failure);
  }
}

/**
 * `answer`, or the signal's reason as soon as it fires. `request` notes a signal fired while its
 * call waits in the dispatcher's queue and drops the call unsent when its turn comes, but answers
 * only then: behind a call holding the connection, that is long after the deadline.
 */
function cutAtSignal<T>(answer: Promise<T>, signal: ExchangeSignal | undefined): Promise<T> {
  if (!signal) return answer;
  return new Promise((resolve, reject) => {
    const stopListening = onAbort(signal, () => reject(abortReason(signal)));
    answer.finally(stopListening).then(resolve, reject);
  });
}

/** UTF-8 text as undici's `body.text()` reads it: a leading byte order mark is dropped. */
function utf8Text(bytes: Buffer): string {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return bytes.toString('utf8', bom ? 3 : 0);
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

/** An answer's header by its lower-case name, repeated ones joined as HTTP joins them. */
function headerReader(headers: Dispatcher.ResponseData['headers']): (name: string) => string | undefined {
  return (name) => {
    const value = headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
}

/** The headers of no answer (a failed exchange), for UpstreamQuota.answered. */
const noHeader = (): undefined => undefined;

/** No usable answer arrived: the connection failed, or headers or body took too long. */
function transportError(request: Pick<RestRequest, 'method' | 'path' | 'deadline'>, cause: unknown, requestId: string | undefined): RestError {
  const pastDeadline = request.deadline !== undefined && Date.now() >= request.deadline;
  return new RestError({
    method: request.method,
    path: request.path,
    status: 0,
    failure: pastDeadline ? 'deadline' : isTimeout(cause) ? 'timeout' : cause instanceof undiciErrors.HeadersOverflowError ? 'oversized-answer' : 'connection',
    requestId,
    cause,
  });
}

/** The upstream's certificate was refused during the TLS handshake (see CERTIFICATE_REFUSALS). */
function isCertificateRefusal(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && CERTIFICATE_REFUSALS.has(code);
}

function isTimeout(error: unknown): boolean {
  return (
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError
  );
}
