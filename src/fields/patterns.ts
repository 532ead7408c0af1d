import type { FieldNode, GraphQLResolveInfo } from 'graphql';
import { restConnection, type Connection, type ListOrder } from '../connections/connection.js';
import type { ConnectionArgs } from '../connections/window.js';
import { restList, type FieldArgs, type FieldCost } from '../cost/field-cost.js';
import type { RecordShape } from '../cost/shapes.js';
import type { RestParams } from '../datasources/query.js';
import { restRoute } from '../datasources/rest-route.js';
import { listField } from '../resolvers/lookahead.js';
import type { GatewayContext } from '../server/context.js';
import { attach, toDeclaration, type DeclarationSpec } from './declaration.js';

// The fields whose resolver is nothing but their declaration. A field with logic of its own
// (arguments checked against each other, two REST calls, a shape REST lacks) is written by hand
// and declares its cost with `declared` (declaration.ts).

export interface RestListSpec<Args, Filters extends object> {
  /** The REST query, from the field's arguments (which it checks: it throws on invalid ones). */
  filters?: (args: Args, fieldNodes: ReadonlyArray<FieldNode>) => Filters;
  /** The form of the listed records, when their own fields' cost depends on it (cost/shapes.ts). */
  returns?: RecordShape | ((args: FieldArgs) => RecordShape);
  /** How the connection reads the list, when not in REST's order. */
  order?: (args: Args) => ListOrder;
}

type ListResolver<P, Args, T> = (parent: P, args: Args & ConnectionArgs, context: GatewayContext, info: GraphQLResolveInfo) => Promise<Connection<T>>;

/**
 * A connection over a paginated REST list under its parent, whose route takes the parent's `:id`
 * (`GET /projects/:id/deploy_keys`): the resolver, its cost (the window's pages and items), its
 * lookahead (sent alongside a group or project read by full path) and its line on the REST
 * mapping page all come from this one declaration.
 *
 *   deployKeys: restListField('GET /projects/:id/deploy_keys')
 */
export function restListField<T, P extends { id: number } = { id: number }, Args = Record<string, unknown>, Filters extends object = RestParams>(
  route: string,
  spec: RestListSpec<Args, Filters> = {},
): ListResolver<P, Args, T> {
  const rest = restRoute(route);
  if (rest.method !== 'GET' || rest.params.join() !== 'id') throw new Error(`restListField reads a list under its parent's :id, not ${route}`);
  const resolve = listField<P, Args, Filters | undefined, T, Promise<Connection<T>>>(
    {
      filters: (args, fieldNodes) => spec.filters?.(args, fieldNodes),
      // Filters are REST query parameters by their names (a data source's filter interface).
      page: (api, parent, filters, page) => api.routes.page<T>(rest, { id: parent }, page, filters as RestParams | undefined),
      ...(spec.order ? { order: spec.order } : {}),
    },
    (pages, args) => restConnection(args, pages, spec.order?.(args)),
  );
  return attach(resolve, toDeclaration({ ...restList(spec.returns), rest: [rest] }));
}

/**
 * A field without logic of its own that reads its REST key from the parent record (record-fields.ts
 * installs the reading), declaring what that costs: the form of the record it points at, how many
 * items an array holds. The function returned only carries the declaration.
 *
 *   author: recordField({ returns: USER_SUMMARY })
 */
export function recordField(cost: FieldCost & Pick<DeclarationSpec, 'rest'>): () => never {
  const carrier = (): never => {
    throw new Error('recordField is replaced by the REST record reading when the schema is built');
  };
  return attach(carrier, toDeclaration(cost, true));
}
