import type { Page, PageRequest } from './pagination.js';
import type { RestParams } from './query.js';
import type { RestSession } from './rest-client.js';
import type { RestRoute, RouteParams } from './rest-route.js';

/**
 * REST reads that a field declares by its route alone (src/fields/): no method of a resource
 * module to write for a plain list or record, and the same REST session, retries and limits as
 * every other call.
 */
export class RoutesApi {
  constructor(private readonly rest: RestSession) {}

  /** One page of a paginated list. */
  page<T>(route: RestRoute, params: RouteParams, page: PageRequest, query?: RestParams): Promise<Page<T>> {
    return this.rest.getPage<T>(pathOfRead(route, params), page, query);
  }

  /** One record. */
  record<T>(route: RestRoute, params: RouteParams, query?: RestParams): Promise<T> {
    return this.rest.get<T>(pathOfRead(route, params), query);
  }
}

function pathOfRead(route: RestRoute, params: RouteParams): string {
  if (route.method !== 'GET') throw new Error(`${route.name} is not a read`);
  return route.path(params);
}
