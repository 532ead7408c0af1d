// node:http plumbing: standard headers, request log, rate limits, latency, faults, the control
// API, and /api/v3 and unknown paths.
import { randomFillSync } from 'node:crypto';
import { STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { SimulatorState } from '../data/state.js';
import { appendToLog, handleControl, type ControlTarget } from './control.js';
import { requesterId } from './auth.js';
import { dispatch } from './dispatch.js';
import { ApiError, entityTooLarge, grapeError, routeNotFound } from './errors.js';
import type { Fault } from './faults.js';
import { flatQuery } from './query.js';
import { THROTTLED_BODY } from './rate-limits.js';
import type { ApiResponse } from './response.js';
import type { Router } from './router.js';

const API_PREFIX = '/api/v4';
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export interface ServerContext extends ControlTarget {
  state: SimulatorState;
  router: Router;
  origin(): string;
  /** Waits `ms`, or less if the simulator closes meanwhile. */
  delay(ms: number): Promise<void>;
  closing(): boolean;
}

const REQUEST_ID_LENGTH = 26;
/** Random bytes for request ids, drawn for 256 ids at a time: one draw per request cost 17 µs. */
const idEntropy = Buffer.alloc(REQUEST_ID_LENGTH * 256);
let idEntropyUsed = idEntropy.length;

/** A ULID-like id, like the ones GitLab puts in X-Request-Id. */
function newRequestId(): string {
  if (idEntropyUsed + REQUEST_ID_LENGTH > idEntropy.length) {
    randomFillSync(idEntropy);
    idEntropyUsed = 0;
  }
  let id = '';
  for (let i = idEntropyUsed; i < idEntropyUsed + REQUEST_ID_LENGTH; i++) id += CROCKFORD[idEntropy[i]! % 32];
  idEntropyUsed += REQUEST_ID_LENGTH;
  return id;
}

/** Set on each socket as its connection opens (index.ts): the number TrafficEvent.connection reports. */
export const CONNECTION_NUMBER = Symbol('simulator connection number');

/** A socket as the server tagged it; over HTTP/2, `req.socket` reads through to the session's socket. */
type NumberedSocket = { [CONNECTION_NUMBER]?: number };

function connectionOf(req: IncomingMessage): number {
  return (req.socket as NumberedSocket)[CONNECTION_NUMBER] ?? 0;
}

/**
 * An HTTP/2 request's headers include its pseudo-headers (`:path`, `:method`, `:authority`,
 * `:scheme`); handlers see what an HTTP/1.1 request would carry.
 */
function withoutPseudoHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const plain: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!name.startsWith(':')) plain[name] = value;
  return plain;
}

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new BodyTooLarge());
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** 204 and 304 answers carry no body. */
function hasBody(response: ApiResponse): boolean {
  return response.status !== 204 && response.status !== 304;
}

/** The body as sent: encoded once, so that Content-Length and the bytes written are the same buffer. */
function bodyBytes(response: ApiResponse): Buffer {
  return response.bytes ?? Buffer.from(response.text !== undefined ? response.text : JSON.stringify(response.json ?? null));
}

/**
 * The headers of an answer. A 204 or 304 has no Content-Type, as Rack sends them (Rack::ContentType
 * and Rack::Lint leave it off the statuses without a body): clients that parse any answer typed
 * JSON, as python-gitlab does, fail on an empty body that says it is JSON.
 */
function headersOf(response: ApiResponse, requestId: string, started: bigint): Record<string, string> {
  const runtime = Number(process.hrtime.bigint() - started) / 1e9;
  // rest-conventions §1: JSON responses, X-Frame-Options and X-Content-Type-Options on every
  // response, plus x-request-id and x-runtime as in the pagination example.
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'Cache-Control': 'max-age=0, private, must-revalidate',
    'X-Frame-Options': 'SAMEORIGIN',
    'X-Content-Type-Options': 'nosniff',
    'X-Request-Id': requestId,
    'X-Runtime': runtime.toFixed(6),
    ...response.headers,
  };
  if (hasBody(response)) return headers;
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type'));
}

function send(req: IncomingMessage, res: ServerResponse, response: ApiResponse, requestId: string, started: bigint): void {
  if (res.headersSent || res.destroyed) return;
  const body = hasBody(response) ? bodyBytes(response) : '';
  const headers = headersOf(response, requestId, started);
  if (hasBody(response)) headers['Content-Length'] = String(Buffer.byteLength(body));
  res.writeHead(response.status, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}

function faultResponse(fault: Fault): ApiResponse {
  if (fault.kind === 'malformed') {
    const full = fault.body === undefined ? '[{"id":1,"description":"shared-runner-1","ip_address":"","active":true}]' : JSON.stringify(fault.body);
    return { status: 200, text: full.slice(0, Math.max(1, Math.floor(full.length / 2))), headers: fault.headers ?? {} };
  }
  const status = fault.status ?? 500;
  if (typeof fault.body === 'string') {
    return { status, text: fault.body, headers: { 'Content-Type': 'text/plain', ...fault.headers } };
  }
  // Default body in GitLab's §6.1 shape: {"message":"500 Internal Server Error"} for the default 500.
  const json = fault.body === undefined ? { message: `${status} ${STATUS_CODES[status] ?? 'Error'}` } : fault.body;
  return { status, json, headers: fault.headers ?? {} };
}

function callerRequestId(req: IncomingMessage): string | undefined {
  const id = req.headers['x-request-id'];
  return typeof id === 'string' ? id : undefined;
}

/**
 * What GitLab answers to a request that no fault takes: the body read, routed and handled, and the
 * answer serialised then, so that it tells the state as it was when the work was done, whatever
 * later calls change while it waits out the latency.
 */
async function answerOf(ctx: ServerContext, req: IncomingMessage, method: string, rawPath: string, rawQuery: string): Promise<ApiResponse> {
  let body: Buffer;
  try {
    body = await readBody(req);
  } catch (error) {
    if (error instanceof BodyTooLarge) return entityTooLarge().toResponse();
    throw error;
  }
  const headers = req.httpVersionMajor === 2 ? withoutPseudoHeaders(req.headers) : req.headers;
  const answer = await dispatch(ctx.state, ctx.router, { method, rawPath, rawQuery, headers, body, origin: ctx.origin() });
  return hasBody(answer) ? { ...answer, bytes: bodyBytes(answer) } : answer;
}

/** Waits what is left of the latency since the request arrived; false if the simulator closed meanwhile. */
async function waitOutLatency(ctx: ServerContext, arrivedAt: number): Promise<boolean> {
  await ctx.delay(ctx.latencyMs() - (performance.now() - arrivedAt));
  return !ctx.closing();
}

/** Rack::Attack's answer past a limit: plain text, with the throttle's headers. */
function throttledResponse(headers: Record<string, string>): ApiResponse {
  return { status: 429, text: THROTTLED_BODY, headers: { 'Content-Type': 'text/plain', ...headers } };
}

function withHeaders(response: ApiResponse | 'no-answer', headers: Record<string, string> | undefined): ApiResponse | 'no-answer' {
  return response === 'no-answer' || !headers ? response : { ...response, headers: { ...response.headers, ...headers } };
}

async function handleApi(ctx: ServerContext, req: IncomingMessage, rawPath: string, rawQuery: string): Promise<ApiResponse | 'no-answer'> {
  const method = req.method ?? 'GET';
  const arrivedAt = performance.now();
  appendToLog(ctx.requests, { method, path: rawPath, query: flatQuery(rawQuery) });
  appendToLog(ctx.traffic, { event: 'arrived', requestId: callerRequestId(req), method, path: rawPath, httpVersion: req.httpVersion, connection: connectionOf(req) });
  // Rack::Attack sits in front of Rails: every request counts as it arrives, routed or not, and one
  // past the limit goes no further (no fault taken, no handler run). The answers GitLab itself
  // gives, faulted ones included, carry the throttle's RateLimit-* headers.
  const verdict = ctx.rateLimits.check({ userId: requesterId(ctx.state, req.headers, rawQuery), ip: req.socket.remoteAddress ?? '' });
  if (verdict?.throttled) return (await waitOutLatency(ctx, arrivedAt)) ? throttledResponse(verdict.headers) : 'no-answer';
  return withHeaders(await answerOrFault(ctx, req, method, rawPath, rawQuery, arrivedAt), verdict?.headers);
}

async function answerOrFault(
  ctx: ServerContext,
  req: IncomingMessage,
  method: string,
  rawPath: string,
  rawQuery: string,
  arrivedAt: number,
): Promise<ApiResponse | 'no-answer'> {
  // Faults are chosen in arrival order so that `times` is deterministic; applied after the latency.
  const fault = ctx.faults.take(method, rawPath);
  // The latency stands for the time GitLab takes over a call, and GitLab works on many calls at
  // once (Puma workers): so the call's work is done as it arrives, and the answer waits out what
  // is left of the latency. Doing the work after the delay, as before, queued a whole wave's work
  // on this one thread at the moment its timers fired, so the last answers of a wave came late by
  // the work of all the others, as no parallel server's would (bench: fleet, dashboard). A call
  // taken by a fault is not handled at all.
  if (!fault) {
    const answer = await answerOf(ctx, req, method, rawPath, rawQuery);
    return (await waitOutLatency(ctx, arrivedAt)) ? answer : 'no-answer';
  }
  if (!(await waitOutLatency(ctx, arrivedAt))) return 'no-answer';
  if (fault.kind === 'timeout') return 'no-answer'; // held until close() destroys the socket
  if (fault.kind === 'close') {
    // Over HTTP/2 this resets the request's stream (RST_STREAM), the others of its connection go on.
    req.socket.destroy();
    return 'no-answer';
  }
  return faultResponse(fault);
}

export function createListener(ctx: ServerContext): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const started = process.hrtime.bigint();
    const incomingId = req.headers['x-request-id'];
    const requestId = typeof incomingId === 'string' && incomingId !== '' ? incomingId : newRequestId();
    const target = req.url ?? '/';
    const queryAt = target.indexOf('?');
    const path = queryAt === -1 ? target : target.slice(0, queryAt);
    const rawQuery = queryAt === -1 ? '' : target.slice(queryAt + 1);

    const answer = async (): Promise<ApiResponse | 'no-answer'> => {
      if (path === '/__simulator' || path.startsWith('/__simulator/')) {
        return handleControl(ctx, req.method ?? 'GET', path, await readBody(req));
      }
      if (path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)) {
        return handleApi(ctx, req, path.slice(API_PREFIX.length), rawQuery);
      }
      if (path === '/api/v3' || path.startsWith('/api/v3/')) {
        // rest-conventions §1: v3 is gone.
        return grapeError(410, 'API V3 is no longer supported. Use API V4 instead.').toResponse();
      }
      return routeNotFound().toResponse();
    };

    const isApi = path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
    answer()
      .then((response) => {
        if (response === 'no-answer') return;
        if (isApi) {
          appendToLog(ctx.traffic, { event: 'answered', requestId: callerRequestId(req), method: req.method ?? 'GET', path: path.slice(API_PREFIX.length), httpVersion: req.httpVersion, connection: connectionOf(req) });
        }
        send(req, res, response, requestId, started);
      })
      .catch((error: unknown) => {
        const response = error instanceof ApiError ? error.toResponse() : { status: 500, json: { message: '500 Internal Server Error' } };
        if (!(error instanceof ApiError)) console.error('[simulator] unexpected error', error);
        send(req, res, response, requestId, started);
      });
  };
}
