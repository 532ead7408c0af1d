import { loneSurrogate } from './unsendable.js';

/**
 * Every template restPath has been called with, one per call site (the engine passes the same
 * frozen strings each time): what names a REST endpoint in the metrics (`/projects/:id/issues`),
 * without a second parser of REST paths (src/observability/endpoint.ts).
 */
export const restPathTemplates = new Set<TemplateStringsArray>();

/**
 * The names routes declared as GitLab documents them give their templates (rest-route.ts):
 * `/projects/:id/issues/:issue_iid` rather than a placeholder per value.
 */
export const declaredTemplateNames = new WeakMap<TemplateStringsArray, string>();

/**
 * Builds a REST path with every interpolated value URL-encoded as one segment, so that a project
 * path such as `gitlab-org/gitlab` becomes `gitlab-org%2Fgitlab` and no value can reach another
 * REST route (rest-conventions §2). The only way data sources build paths.
 *
 *   restPath`/projects/${fullPath}/runners/${runnerId}`
 */
export function restPath(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  restPathTemplates.add(strings);
  let path = strings[0] ?? '';
  values.forEach((value, index) => {
    path += encodePathSegment(value) + (strings[index + 1] ?? '');
  });
  return path;
}

/**
 * `encodeURIComponent` leaves `.` alone, so `..` would survive as a segment that some servers and
 * proxies collapse; encoding the dot as well keeps every value inside its own segment, as the
 * submodules documentation does (`lib%2Fclass%2Erb`). It throws a URIError on a lone UTF-16
 * surrogate, which a JSON argument may hold (`"\ud800"`): that is the caller's argument, refused.
 */
export function encodePathSegment(value: string | number): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(String(value));
  } catch (error) {
    throw loneSurrogate('A path argument', error);
  }
  return encoded.replace(/\./g, '%2E');
}
