/**
 * Every template restPath has been called with, one per call site (the engine passes the same
 * frozen strings each time): what names a REST endpoint in the metrics (`/projects/:id/issues`),
 * without a second parser of REST paths (src/observability/endpoint.ts).
 */
export const restPathTemplates = new Set<TemplateStringsArray>();

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
 * submodules documentation does (`lib%2Fclass%2Erb`).
 */
export function encodePathSegment(value: string | number): string {
  return encodeURIComponent(String(value)).replace(/\./g, '%2E');
}
