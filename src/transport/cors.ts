import type { IncomingMessage, ServerResponse } from 'node:http';

/** Which browser origins may call the gateway (GatewayOptions.cors). Without it, no CORS header is ever sent. */
export interface CorsOptions {
  /** `*` for any origin, or exact origins such as `https://app.example.com`. */
  origins: '*' | readonly string[];
  /** Whether browsers may send cookies and HTTP authentication along (default false). */
  credentials?: boolean;
  /** How long a browser may reuse a preflight answer (default 600 s). */
  maxAgeSeconds?: number;
}

/** What a cross-origin caller may send: the content type, every credential header the gateway reads, and Apollo's CSRF header. */
export const CORS_ALLOWED_HEADERS = ['content-type', 'authorization', 'private-token', 'job-token', 'x-request-id', 'apollo-require-preflight', 'x-apollo-operation-name'];
const ALLOWED_METHODS = 'GET, POST, HEAD, OPTIONS';
const DEFAULT_MAX_AGE_SECONDS = 600;

export interface CorsPolicy {
  /**
   * Adds the CORS headers a request from an allowed origin needs, and answers a preflight
   * (`OPTIONS` with `Access-Control-Request-Method`) outright. True when the response is sent.
   */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The CORS side of the HTTP handler. An origin not allowed gets no CORS header, so the browser
 * keeps the answer from the page; its preflight is refused with 403 so the reason shows in the
 * network log. With `credentials`, `*` answers with the caller's own origin, since browsers
 * refuse a wildcard together with credentials.
 */
export function createCorsPolicy(options: CorsOptions): CorsPolicy {
  const allowed = options.origins === '*' ? null : new Set(options.origins.map((origin) => origin.toLowerCase()));
  const allowOrigin = (origin: string): string | undefined => {
    if (allowed === null) return options.credentials ? origin : '*';
    return allowed.has(origin.toLowerCase()) ? origin : undefined;
  };
  return {
    handle(req, res) {
      const origin = single(req.headers.origin);
      const preflight = req.method === 'OPTIONS' && single(req.headers['access-control-request-method']) !== undefined;
      // The answer depends on the origin whenever it is not `*`: caches must keep them apart.
      if (allowed !== null || options.credentials) res.appendHeader('vary', 'Origin');
      const granted = origin === undefined ? undefined : allowOrigin(origin);
      if (granted !== undefined) {
        res.setHeader('access-control-allow-origin', granted);
        if (options.credentials) res.setHeader('access-control-allow-credentials', 'true');
        res.setHeader('access-control-expose-headers', 'x-request-id');
      }
      if (!preflight) return false;
      if (granted === undefined) {
        res.writeHead(403, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ errors: [{ message: `The origin ${origin ?? '(none)'} may not call this gateway.`, extensions: { code: 'FORBIDDEN' } }] }));
        return true;
      }
      res.writeHead(204, {
        'access-control-allow-methods': ALLOWED_METHODS,
        'access-control-allow-headers': CORS_ALLOWED_HEADERS.join(', '),
        'access-control-max-age': String(options.maxAgeSeconds ?? DEFAULT_MAX_AGE_SECONDS),
      });
      res.end();
      return true;
    },
  };
}
