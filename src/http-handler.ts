import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { HeaderMap, type ApolloServer } from '@apollo/server';
import type { GatewayContext } from './context.js';
import type { Credential } from './datasources/credentials.js';
import { credentialFromHeaders } from './datasources/credentials.js';
import { checkQueryLength, type QueryLimits } from './limits.js';
import { readMultipartOperation, UploadRequestError } from './uploads.js';
import { isArtifactDownloadRequest, serveArtifactDownload } from './artifacts-download.js';

/** Largest request body accepted, in bytes; GraphQL documents are small. */
const MAX_BODY_BYTES = 1_000_000;

export const GRAPHQL_PATH = '/graphql';

export type ContextFactory = (credential: Credential | null, requestId: string, options?: { longLived?: boolean }) => GatewayContext;

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
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new HttpProblem(413, `The request body is larger than ${maxBytes} bytes.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Browsers may send multipart/form-data across sites without a preflight; Apollo's CSRF
 * prevention therefore asks uploads to carry a header no simple request can set.
 */
function hasPreflightHeader(headers: HeaderMap): boolean {
  return headers.has('apollo-require-preflight') || headers.has('x-apollo-operation-name');
}

/** A request id from the caller when it is a sane token, else a new one; sent upstream and back. */
function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  const text = Array.isArray(given) ? given[0] : given;
  return text && /^[\w.:-]{1,128}$/.test(text) ? text : randomUUID();
}

/**
 * The HTTP side of the gateway: Apollo Server on /graphql (POST for operations, GET for the
 * landing page and GET queries), a redirect from / to it, a liveness answer on /healthz, and the
 * job artifact downloads under /artifacts (artifacts-download.ts), which stream bytes, not JSON.
 */
export interface HttpHandlerOptions {
  /** Largest upload accepted in one multipart request, in bytes. */
  maxUploadBytes: number;
  limits: QueryLimits;
}

export function createHttpHandler(apollo: ApolloServer<GatewayContext>, createContext: ContextFactory, options: HttpHandlerOptions) {
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://gateway.invalid');
    const requestId = requestIdOf(req);
    res.setHeader('x-request-id', requestId);
    try {
      if (url.pathname === '/' && req.method === 'GET') {
        res.writeHead(302, { location: GRAPHQL_PATH });
        res.end();
        return;
      }
      if (url.pathname === '/healthz') {
        sendJson(res, 200, { status: 'ok' });
        return;
      }
      if (isArtifactDownloadRequest(req)) {
        await serveArtifactDownload(req, res, (credential) => createContext(credential, requestId));
        return;
      }
      if (url.pathname !== GRAPHQL_PATH) {
        sendJson(res, 404, { errors: [{ message: `Nothing at ${url.pathname}; the API is at ${GRAPHQL_PATH}.` }] });
        return;
      }
      const headers = new HeaderMap();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const contentType = headers.get('content-type') ?? '';
      let body: unknown = '';
      if (req.method === 'POST' && contentType.startsWith('multipart/form-data')) {
        if (!hasPreflightHeader(headers)) {
          throw new HttpProblem(400, 'A multipart request needs an `Apollo-Require-Preflight: true` header (CSRF prevention).');
        }
        const raw = await readBody(req, options.maxUploadBytes + MAX_BODY_BYTES);
        body = await readMultipartOperation(contentType, raw, options.maxUploadBytes);
        // Apollo reads the operation as JSON; the files are already in its variables.
        headers.set('content-type', 'application/json');
      } else if (req.method === 'POST') {
        const text = (await readBody(req, MAX_BODY_BYTES)).toString('utf8');
        body = text;
        if (text && contentType.includes('json')) {
          try {
            body = JSON.parse(text);
          } catch {
            throw new HttpProblem(400, 'The request body is not valid JSON.');
          }
        }
      }
      // Refused before Apollo parses it: parsing a huge document is itself the cost to avoid.
      const query = req.method === 'GET' ? url.searchParams.get('query') : (body as { query?: unknown } | null)?.query;
      try {
        checkQueryLength(query, options.limits);
      } catch (error) {
        sendJson(res, 400, { errors: [{ message: (error as Error).message, extensions: { code: 'LIMIT_EXCEEDED', limit: 'length' } }] });
        return;
      }
      const credential = credentialFromHeaders(req.headers);
      const response = await apollo.executeHTTPGraphQLRequest({
        httpGraphQLRequest: { method: req.method ?? 'GET', headers, search: url.search, body },
        context: () => Promise.resolve(createContext(credential, requestId)),
      });
      for (const [name, value] of response.headers) res.setHeader(name, value);
      res.statusCode = response.status ?? 200;
      if (response.body.kind === 'complete') {
        res.end(response.body.string);
        return;
      }
      for await (const chunk of response.body.asyncIterator) res.write(chunk);
      res.end();
    } catch (error) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof HttpProblem || error instanceof UploadRequestError) {
        sendJson(res, error.status, { errors: [{ message: error.message, extensions: { code: 'BAD_REQUEST' } }] });
        return;
      }
      sendJson(res, 500, { errors: [{ message: 'Internal error in the gateway', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });
    }
  };
}
