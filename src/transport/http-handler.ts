import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { HeaderMap, type ApolloServer } from '@apollo/server';
import { GraphQLError } from 'graphql';
import type { GatewayContext } from '../server/context.js';
import type { Credential, CredentialPolicy } from '../datasources/credentials.js';
import { refusalBody } from '../policy/limits.js';
import { readBounded } from '../datasources/bounded-body.js';
import type { Admission } from '../policy/admission.js';
import type { CallerIdentity } from '../policy/caller-limits.js';
import { readMultipartOperation, UploadRequestError } from './uploads.js';
import { isArtifactDownloadRequest, serveArtifactDownload } from './artifacts-download.js';
import type { CorsPolicy } from './cors.js';
import { isExplorerPath, type ExplorerHandler } from './explorer.js';
import type { Telemetry } from '../observability/telemetry.js';

/** Largest request body accepted, in bytes; GraphQL documents are small. */
const MAX_BODY_BYTES = 1_000_000;

export const GRAPHQL_PATH = '/graphql';

export type ContextFactory = (credential: Credential | null, requestId: string, options?: { longLived?: boolean; caller?: CallerIdentity }) => GatewayContext;

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  // Not destroyed when refused: destroying the request destroys its connection, with the rest of
  // the body unread, and the kernel answers what the client still sends with a reset, which can
  // discard the 413 before the client reads it. answerBeforeBody closes the connection cleanly.
  const bytes = await readBounded(req, maxBytes, req.headers['content-length']);
  if (bytes === undefined) throw new HttpProblem(413, `The request body is larger than ${maxBytes} bytes.`);
  return bytes;
}

/** How long a connection answered before its body ended stays open after the answer, dropping what still arrives. */
const MAX_LINGER_MS = 5_000;

/**
 * Before an answer given while the request body may still be arriving (a 413, a refusal before the
 * body is read, a 404 for a POST elsewhere): the connection will not serve another request, as
 * what is left of this body cannot be trusted to frame the next one (behind a proxy that pools
 * connections, the next request is another user's), so the answer says `Connection: close`. What
 * the client still sends is read and dropped from now on, and the connection lingers after the
 * answer (lingerAfterAnswer) until the client has sent it all.
 */
function answerBeforeBody(req: IncomingMessage, res: ServerResponse): void {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (!hasBody || req.readableEnded) return;
  res.setHeader('connection', 'close');
  if (req.destroyed) return;
  req.resume();
  lingerAfterAnswer(req.socket);
}

/**
 * Node closes a `Connection: close` socket once its answer is written (`destroySoon`). Closed with
 * the client's bytes still arriving, the kernel answers them with a reset, which fails the
 * client's next write (EPIPE) or reaches it before the answer (ECONNRESET): 2 of 15 50 MB POSTs
 * lost their 413 that way (issue 27), as did any body larger than what was read before answering.
 * Instead the socket ends its own side (FIN, after the answer) and reads on, dropping what comes,
 * until the client ends its side or MAX_LINGER_MS pass (a client still sending then gets the
 * reset): Apache's "lingering close".
 */
function lingerAfterAnswer(socket: Socket): void {
  socket.destroySoon = function lingeringClose(this: Socket): void {
    this.end();
    const timer = setTimeout(() => this.destroy(), MAX_LINGER_MS).unref();
    this.once('close', () => clearTimeout(timer));
    this.resume();
  };
}

/** The operation parameters of a GET request, as a body would hold them. */
const GET_OPERATION_PARAMETERS = ['query', 'documentId', 'extensions'] as const;

function operationOfSearch(search: URLSearchParams): Record<string, string> {
  const operation: Record<string, string> = {};
  for (const name of GET_OPERATION_PARAMETERS) {
    const value = search.get(name);
    if (value !== null) operation[name] = value;
  }
  return operation;
}

/**
 * The GET request's search string carrying `operation` (a trusted document put in place of its id):
 * its `query`, no `documentId`, and its `extensions` as JSON.
 */
function searchOfOperation(url: URL, operation: Record<string, unknown>): string {
  const search = new URLSearchParams(url.search);
  for (const name of GET_OPERATION_PARAMETERS) {
    const value = operation[name];
    if (value === undefined) search.delete(name);
    else search.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return `?${search.toString()}`;
}

/**
 * Browsers may send multipart/form-data across sites without a preflight; Apollo's CSRF
 * prevention therefore asks uploads to carry a header no simple request can set.
 */
function hasPreflightHeader(headers: HeaderMap): boolean {
  return headers.has('apollo-require-preflight') || headers.has('x-apollo-operation-name');
}

/** A request id from the caller when it is a sane token, else a new one; sent upstream and back. */
export function requestIdOf(req: Pick<IncomingMessage, 'headers'>): string {
  const given = req.headers['x-request-id'];
  const text = Array.isArray(given) ? given[0] : given;
  return text && /^[\w.:-]{1,128}$/.test(text) ? text : randomUUID();
}

/**
 * The HTTP side of the gateway: Apollo Server on /graphql (POST for operations, GET for the
 * landing page and GET queries), a redirect from / to it, a liveness answer on /healthz, the
 * job artifact downloads under /artifacts (artifacts-download.ts), which stream bytes, not JSON,
 * and the offline explorer under /explorer (explorer.ts).
 */
export interface HttpHandlerOptions {
  /** Largest upload accepted in one multipart request, in bytes. */
  maxUploadBytes: number;
  /** The checks before parsing (policy/admission.ts), the same for every transport. */
  admission: Pick<Admission, 'beforeParsing'>;
  /** Who each request runs as (the caller's credential, or the service token). */
  credentials: CredentialPolicy;
  /**
   * false: GraphQL itself is served by the embedder (through `gateway.apollo`); this handler
   * answers the gateway's other routes and passes anything else to `next`. Default true.
   */
  graphql?: boolean;
  /** Serves the offline explorer's page and assets under /explorer (explorer.ts); absent when it is off. */
  explorer?: ExplorerHandler;
  /** Where GET / redirects (default /graphql). */
  rootRedirect?: string;
  /** Told of each request the gateway answered, at its end: its log line (observability/telemetry.ts). */
  telemetry?: Pick<Telemetry, 'httpRequestEnded' | 'logsRequests'>;
  /** Extra GET routes by path (/readyz, /metrics), answered before GraphQL. */
  routes?: ReadonlyMap<string, RouteHandler>;
  /** True once the gateway is shutting down: responses then close their connection. */
  draining?: () => boolean;
  /** CORS on the GraphQL and artifact routes (cors.ts); absent: no CORS headers at all. */
  cors?: CorsPolicy;
  /** Several operations in one request as a JSON array (default false: refused, saying how to send them). */
  allowBatchedHttpRequests?: boolean;
}

export type RouteHandler = (req: IncomingMessage, res: ServerResponse, requestId: string) => Promise<void>;

/** Connect-style continuation (Express's `next`): the request is not the gateway's. */
export type NextHandler = () => void;

export function createHttpHandler(apollo: ApolloServer<GatewayContext>, createContext: ContextFactory, options: HttpHandlerOptions) {
  const servesGraphQL = options.graphql ?? true;
  return async function handle(req: IncomingMessage, res: ServerResponse, next?: NextHandler): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://gateway.invalid');
    const requestId = requestIdOf(req);
    res.setHeader('x-request-id', requestId);
    // The context is kept for the request's log line (its operation name and REST call count).
    const startedAt = performance.now();
    let context: GatewayContext | undefined;
    const contextOf = (credential: Credential | null, caller?: CallerIdentity) => (context = createContext(credential, requestId, caller ? { caller } : {}));
    let passedOn = false;
    const ended = { method: req.method, path: url.pathname, requestId, startedAt };
    if (options.telemetry?.logsRequests) res.once('close', () => passedOn || options.telemetry?.httpRequestEnded(ended, res, context));
    if (options.draining?.()) res.setHeader('connection', 'close');
    try {
      const exchange: Exchange = { req, res, url, requestId, contextOf };
      if (await serveOtherRoute(exchange, options, servesGraphQL)) return;
      if (url.pathname === GRAPHQL_PATH && servesGraphQL) {
        await serveGraphQL(apollo, exchange, options);
        return;
      }
      if (next) {
        passedOn = true;
        res.removeHeader('x-request-id');
        next();
        return;
      }
      answerBeforeBody(req, res);
      sendJson(res, 404, { errors: [{ message: `Nothing at ${url.pathname}; the API is at ${GRAPHQL_PATH}.`, extensions: { code: 'NOT_FOUND' } }] });
    } catch (error) {
      answerFailure(req, res, error);
    }
  };
}

/** One request and what the handler made of it. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  /** The request's context for `credential`, kept for its log line. */
  contextOf: (credential: Credential | null, caller?: CallerIdentity) => GatewayContext;
}

/** The gateway's routes other than GraphQL: the redirect, health, extra routes, CORS preflights, artifacts, the explorer. True when one answered. */
async function serveOtherRoute({ req, res, url, requestId, contextOf }: Exchange, options: HttpHandlerOptions, servesGraphQL: boolean): Promise<boolean> {
  if (url.pathname === '/' && req.method === 'GET' && servesGraphQL) {
    res.writeHead(302, { location: options.rootRedirect ?? GRAPHQL_PATH });
    res.end();
    return true;
  }
  if (url.pathname === '/healthz') {
    sendJson(res, 200, { status: 'ok' });
    return true;
  }
  const route = req.method === 'GET' ? options.routes?.get(url.pathname) : undefined;
  if (route) {
    await route(req, res, requestId);
    return true;
  }
  // Cross-origin browsers: headers for allowed origins, and preflights answered here.
  if (options.cors && ((url.pathname === GRAPHQL_PATH && servesGraphQL) || isArtifactDownloadRequest(req)) && options.cors.handle(req, res)) return true;
  if (isArtifactDownloadRequest(req)) {
    await serveArtifactDownload(req, res, contextOf, options.credentials);
    return true;
  }
  if (options.explorer && isExplorerPath(url.pathname)) {
    await options.explorer(req, res, url.pathname);
    return true;
  }
  return false;
}

/** A GraphQL request: its body read, its query texts through the admission's first step, then Apollo. */
async function serveGraphQL(apollo: ApolloServer<GatewayContext>, { req, res, url, contextOf }: Exchange, options: HttpHandlerOptions): Promise<void> {
  const headers = new HeaderMap();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  let body = req.method === 'POST' ? await readOperationBody(req, headers, options) : '';
  let search = url.search;
  // Refused before Apollo parses it: parsing a huge or deeply nested document is itself the cost to
  // avoid, and with trusted documents, an id becomes the list's text here.
  try {
    const sent = req.method === 'GET' ? [operationOfSearch(url.searchParams)] : Array.isArray(body) ? body : [body];
    const toParse = options.admission.beforeParsing(sent, { batched: Array.isArray(body) });
    if (toParse.some((operation, index) => operation !== sent[index])) {
      if (req.method === 'GET') search = searchOfOperation(url, toParse[0] as Record<string, unknown>);
      else body = Array.isArray(body) ? toParse : toParse[0];
    }
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    sendJson(res, 400, refusalBody(error));
    return;
  }
  const own = options.credentials.ofHttpRequest(req);
  const caller = { credential: own, address: req.socket.remoteAddress };
  const response = await apollo.executeHTTPGraphQLRequest({
    httpGraphQLRequest: { method: req.method ?? 'GET', headers, search, body },
    context: () => Promise.resolve(contextOf(own ?? options.credentials.fallback, caller)),
  });
  if (Array.isArray(body) && response.status === 429 && response.body.kind === 'complete' && !everyOperationRateLimited(response.body.string)) {
    // Apollo gives a batch the status of any of its operations: 429 only when the whole batch may be
    // sent again, else a client doing so would run twice the operations (mutations too) that ran.
    response.status = 200;
    response.headers.delete('retry-after');
  }
  for (const [name, value] of response.headers) res.setHeader(name, value);
  res.statusCode = response.status ?? 200;
  if (response.body.kind === 'complete') {
    res.end(response.body.string);
    return;
  }
  for await (const chunk of response.body.asyncIterator) res.write(chunk);
  res.end();
}

/** Whether every operation of a batch's answer was refused RATE_LIMITED (caller limits) before it started. */
function everyOperationRateLimited(batchAnswer: string): boolean {
  const answers = JSON.parse(batchAnswer) as Array<{ data?: unknown; errors?: Array<{ extensions?: { code?: unknown } }> }>;
  return answers.every((answer) => !('data' in answer) && answer.errors?.[0]?.extensions?.code === 'RATE_LIMITED');
}

/**
 * A POST's operation: a multipart upload (its files already in the variables; `headers` then says
 * JSON, as Apollo reads it), JSON (one operation, or a batch when batching is on), or other text
 * for Apollo to refuse.
 */
async function readOperationBody(req: IncomingMessage, headers: HeaderMap, options: HttpHandlerOptions): Promise<unknown> {
  const contentType = headers.get('content-type') ?? '';
  if (contentType.startsWith('multipart/form-data')) {
    if (!hasPreflightHeader(headers)) {
      throw new HttpProblem(400, 'A multipart request needs an `Apollo-Require-Preflight: true` header (CSRF prevention).');
    }
    const raw = await readBody(req, options.maxUploadBytes + MAX_BODY_BYTES);
    const operation = await readMultipartOperation(contentType, raw, options.maxUploadBytes);
    headers.set('content-type', 'application/json');
    return operation;
  }
  const text = (await readBody(req, MAX_BODY_BYTES)).toString('utf8');
  if (!text || !contentType.includes('json')) return text;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpProblem(400, 'The request body is not valid JSON.');
  }
  if (Array.isArray(body) && !options.allowBatchedHttpRequests) {
    throw new HttpProblem(400, 'Batched requests (a JSON array of operations) are off on this gateway; send one operation per request.');
  }
  return body;
}

/** What a request that failed gets: its 4xx, or the gateway's 500 without details; a response already begun is cut. */
function answerFailure(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  answerBeforeBody(req, res);
  if (error instanceof HttpProblem || error instanceof UploadRequestError) {
    sendJson(res, error.status, { errors: [{ message: error.message, extensions: { code: 'BAD_REQUEST' } }] });
    return;
  }
  sendJson(res, 500, { errors: [{ message: 'Internal error in the gateway', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });
}
