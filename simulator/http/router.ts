// A small router over RAW paths: the path is split on "/" first and each segment is decoded
// afterwards, so `gitlab-org%2Fgitlab` is one segment and a raw "/" never is
// (rest-conventions §2: `:id` matches `[^/]+`).
import type { User, PersonalAccessToken } from '../data/model.js';
import type { SimulatorState } from '../data/state.js';
import type { ParamRules, ParamSpecs, ParamsOf } from './params.js';
import type { ApiResponse } from './response.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * `required`: a signed-in user is needed (401 otherwise). `optional`: anonymous callers get public
 * data. Both answer 401 to an unknown token. `none`: user credentials are not looked at (runner
 * endpoints that authenticate with a runner or registration token in the body).
 */
export type AuthMode = 'required' | 'optional' | 'none';

export interface RouteOptions<S extends ParamSpecs> extends ParamRules {
  auth: AuthMode;
  params?: S;
  /** Adds `page` / `per_page` (rest-conventions §3) and fills `ctx.page`. */
  paginated?: boolean;
}

export interface PageRequest {
  page: number;
  perPage: number;
}

export interface RequestContext<P = Record<string, unknown>> {
  state: SimulatorState;
  /** The signed-in caller, or null for anonymous requests. */
  user: User | null;
  token: PersonalAccessToken | null;
  params: P;
  method: string;
  /** Raw (still encoded) path after /api/v4, without the query. */
  rawPath: string;
  rawQuery: string;
  /** Request headers, lower-cased, for the few routes that read one (`Runner-Token`). */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The server's own origin, as GitLab's configured host: used for `Link` and `web_url`. */
  origin: string;
  page: PageRequest;
}

export type Handler<S extends ParamSpecs> = (ctx: RequestContext<ParamsOf<S>>) => ApiResponse | Promise<ApiResponse>;

export interface Route {
  method: HttpMethod;
  pattern: string;
  segments: string[];
  options: RouteOptions<ParamSpecs>;
  handler: (ctx: RequestContext) => ApiResponse | Promise<ApiResponse>;
}

export interface RouteMatch {
  route: Route;
  pathParams: Record<string, string>;
}

function splitRaw(rawPath: string): string[] | undefined {
  const trimmed = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
  try {
    return trimmed.split('/').map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined; // malformed %-escape: matches nothing
  }
}

export class Router {
  private readonly routes: Route[] = [];

  get<S extends ParamSpecs>(pattern: string, options: RouteOptions<S>, handler: Handler<S>): void {
    this.add('GET', pattern, options, handler);
  }

  post<S extends ParamSpecs>(pattern: string, options: RouteOptions<S>, handler: Handler<S>): void {
    this.add('POST', pattern, options, handler);
  }

  put<S extends ParamSpecs>(pattern: string, options: RouteOptions<S>, handler: Handler<S>): void {
    this.add('PUT', pattern, options, handler);
  }

  delete<S extends ParamSpecs>(pattern: string, options: RouteOptions<S>, handler: Handler<S>): void {
    this.add('DELETE', pattern, options, handler);
  }

  private add<S extends ParamSpecs>(method: HttpMethod, pattern: string, options: RouteOptions<S>, handler: Handler<S>): void {
    this.routes.push({
      method,
      pattern,
      segments: pattern.split('/'),
      options,
      handler: handler as unknown as Route['handler'],
    });
  }

  /** Every route as `METHOD /pattern`, as GitLab's documentation and the gateway's field declarations write them. */
  names(): string[] {
    return this.routes.map((route) => `${route.method} ${route.pattern}`);
  }

  /** Finds the route for a raw path; a literal segment beats a `:param` (`/runners/all` before `/runners/:id`). */
  match(method: string, rawPath: string): RouteMatch | undefined {
    const wanted = method === 'HEAD' ? 'GET' : method;
    const segments = splitRaw(rawPath);
    if (!segments) return undefined;
    let best: { match: RouteMatch; score: string } | undefined;
    for (const route of this.routes) {
      // A last segment `*name` (Grape's glob, as in `artifacts/*artifact_path`) takes one or more segments.
      const glob = route.segments[route.segments.length - 1]?.startsWith('*') === true;
      if (route.method !== wanted) continue;
      if (glob ? segments.length < route.segments.length : route.segments.length !== segments.length) continue;
      const pathParams: Record<string, string> = {};
      let score = '';
      let matched = true;
      for (let i = 0; i < segments.length; i++) {
        const expected = route.segments[i] ?? '';
        const actual = segments[i] ?? '';
        if (expected.startsWith('*')) {
          pathParams[expected.slice(1)] = segments.slice(i).join('/');
          score += '0';
          break;
        }
        if (expected.startsWith(':')) {
          if (actual === '') {
            matched = false;
            break;
          }
          pathParams[expected.slice(1)] = actual;
          score += '0';
        } else if (expected === actual) {
          score += '1';
        } else {
          matched = false;
          break;
        }
      }
      if (matched && (!best || score > best.score)) best = { match: { route, pathParams }, score };
    }
    return best?.match;
  }

  list(): readonly Route[] {
    return this.routes;
  }
}
