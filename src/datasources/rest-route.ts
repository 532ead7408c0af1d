import { declaredTemplateNames, restPath } from './path.js';

export type RestMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The values of a route's placeholders, by name (`:id` -> `id`). */
export type RouteParams = Readonly<Record<string, string | number>>;

/**
 * One REST endpoint, declared once as GitLab's documentation writes it (`GET /projects/:id/deploy_keys`):
 * the field declarations that name it (src/fields/) derive their call, the cost estimate, the
 * endpoint's metric name and the REST mapping page (docs/rest-fields.md) from this one string.
 */
export interface RestRoute {
  readonly method: RestMethod;
  /** The path template, placeholders included: `/projects/:id/deploy_keys`. */
  readonly template: string;
  /** `GET /projects/:id/deploy_keys`, as written. */
  readonly name: string;
  /** The placeholders' names, in order. */
  readonly params: readonly string[];
  /** The path with each placeholder's value URL-encoded as one segment (path.ts restPath). */
  path(values: RouteParams): string;
}

const PLACEHOLDER = /:([a-z_]+)/g;
const ROUTE = /^(GET|POST|PUT|DELETE) (\/[A-Za-z0-9_/:.-]*)$/;

/** Declares a REST endpoint; a malformed one is a programming error, thrown at start. */
export function restRoute(name: string): RestRoute {
  const match = ROUTE.exec(name);
  if (!match) throw new Error(`A REST route is "METHOD /path/:param", not ${JSON.stringify(name)}`);
  const template = match[2]!;
  const params = [...template.matchAll(PLACEHOLDER)].map((placeholder) => placeholder[1]!);
  // The literal parts between placeholders, shaped as the template strings restPath is called with,
  // so that the path is built, encoded and named in the metrics exactly as a data source's is.
  const literals = template.split(PLACEHOLDER).filter((_part, index) => index % 2 === 0);
  const strings = Object.freeze(Object.assign([...literals], { raw: Object.freeze([...literals]) })) as TemplateStringsArray;
  // EXPLAIN and the metrics name the endpoint by this template.
  declaredTemplateNames.set(strings, template);
  return Object.freeze({
    method: match[1] as RestMethod,
    template,
    name,
    params,
    path(values: RouteParams): string {
      return restPath(
        strings,
        ...params.map((param) => {
          const value = values[param];
          if (value === undefined) throw new Error(`${name} needs :${param}`);
          return value;
        }),
      );
    },
  });
}
