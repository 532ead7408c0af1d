// One /api/v4 request from raw pieces to an ApiResponse: route, credentials, parameters, handler.
import type { IncomingHttpHeaders } from 'node:http';
import type { SimulatorState } from '../data/state.js';
import { authenticate, sudoFromRequest, tokenFromRequest, type Credentials } from './auth.js';
import { ApiError, grapeError, internalError, routeNotFound, unauthorized } from './errors.js';
import { pageRequest } from './pagination.js';
import { p, validateParams, type ParamSpecs } from './params.js';
import { parseMultipart } from './multipart.js';
import { isParamHash, parseNested, type ParamHash } from './query.js';
import type { ApiResponse } from './response.js';
import type { RequestContext, Router } from './router.js';

export interface ApiRequest {
  method: string;
  /** Raw path after /api/v4. */
  rawPath: string;
  rawQuery: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  origin: string;
}

const PAGINATION_PARAMS: ParamSpecs = { page: p.integer(), per_page: p.integer() };

/** §1: parameters come as JSON, form or multipart bodies (file uploads); other bodies are not read. */
async function parseBody(headers: IncomingHttpHeaders, body: Buffer): Promise<ParamHash> {
  if (body.length === 0) return {};
  const contentType = (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (contentType === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      throw grapeError(400, 'message body does not match declared format');
    }
    return isParamHash(parsed) ? parsed : {};
  }
  if (contentType === 'application/x-www-form-urlencoded') return parseNested(body.toString('utf8'));
  if (contentType === 'multipart/form-data') return parseMultipart(headers['content-type'] ?? '', body);
  return {};
}

export async function dispatch(state: SimulatorState, router: Router, request: ApiRequest): Promise<ApiResponse> {
  try {
    const match = router.match(request.method, request.rawPath);
    if (!match) throw routeNotFound();
    const { options } = match.route;

    let credentials: Credentials = { user: null, token: null };
    if (options.auth !== 'none') {
      const token = tokenFromRequest(request.headers, request.rawQuery);
      credentials = authenticate(state, token, request.method, sudoFromRequest(request.headers, request.rawQuery));
      if (options.auth === 'required' && !credentials.user) throw unauthorized();
    }

    // Rack merges query and body (body wins); route parameters win over both.
    const raw: ParamHash = { ...parseNested(request.rawQuery), ...(await parseBody(request.headers, request.body)), ...match.pathParams };
    const specs: ParamSpecs = options.paginated ? { ...options.params, ...PAGINATION_PARAMS } : { ...options.params };
    const { values, errors } = validateParams(specs, options, raw);
    if (errors.length > 0) throw grapeError(400, errors.join(', '));

    const ctx: RequestContext = {
      state,
      user: credentials.user,
      token: credentials.token,
      params: values,
      method: request.method,
      rawPath: request.rawPath,
      rawQuery: request.rawQuery,
      headers: request.headers,
      origin: request.origin,
      page: pageRequest(values['page'] as number | undefined, values['per_page'] as number | undefined),
    };
    return await match.route.handler(ctx);
  } catch (error) {
    if (error instanceof ApiError) return error.toResponse();
    console.error('[simulator] unexpected error', error);
    return internalError().toResponse();
  }
}
