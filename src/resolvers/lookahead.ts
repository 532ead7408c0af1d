// Lookahead: the lists under a group or project start alongside the record itself.
//
// `group(fullPath:) { subgroups { ... } }` used to cost two dependent REST waves: `GET /groups/:id`,
// then `GET /groups/<id from that record>/subgroups`. But REST takes the URL-encoded full path as
// `:id` wherever it takes the numeric id (rest-conventions §2), and the caller gave the full path,
// so both can be sent at once. The root field reads its own selection set the way graphql-js will
// execute it, and sends the first REST page(s) of each child list with exactly the REST query the
// child's resolver would build; the child takes its page from the request's PrefetchStore instead
// of asking REST again. A prefetched call replaces the child's call, never adds one: where the
// arguments cannot be worked out exactly, or the field's resolver is not the gateway's, nothing is
// sent early.
import {
  getArgumentValues,
  getNamedType,
  isObjectType,
  type FieldNode,
  type GraphQLField,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from 'graphql';
// The executor's own field collection (fragments, inline fragments, type conditions, aliases merged
// by response key, @skip/@include with variables), so the lookahead sees exactly the child fields
// that will run. It visits each fragment once per collection, so its work grows with the document,
// not with the paths through its fragments (issue 15). Marked internal in graphql 16, whose version
// package.json pins exactly.
import { collectSubfields } from 'graphql/execution/collectFields.js';
import { openingPages, type ListOrder, type PageFetcher } from '../connections/connection.js';
import type { ConnectionArgs } from '../connections/window.js';
import type { GatewayContext } from '../server/context.js';
import type { DataSources } from '../datasources/index.js';
import type { Page, PageRequest } from '../datasources/pagination.js';

/**
 * A paginated list under a group or project whose REST route takes the parent's numeric id or its
 * URL-encoded full path as `:id`. Its resolver and the lookahead both build the REST call from it,
 * so the two cannot drift apart.
 */
export interface ParentList<Args, Filters, T> {
  /**
   * The REST filters, from the field's coerced arguments (and its field nodes, for fields whose
   * REST query depends on the selection). Throws when the arguments are invalid.
   */
  filters(args: Args, fieldNodes: ReadonlyArray<FieldNode>): Filters;
  /** One REST page of the list; `parent` is the numeric id or the full path. */
  page(api: DataSources, parent: number | string, filters: Filters, page: PageRequest): Promise<Page<T>>;
  /** How the field reads the list (from its end for a reversed order); REST's order when absent. */
  order?(args: Args): ListOrder;
}

type AnyParentList = ParentList<Record<string, unknown>, unknown, unknown>;
type ListResolver<P, Args, R> = (parent: P, args: Args, context: GatewayContext, info: GraphQLResolveInfo) => R;

/** The gateway's list resolvers, by function: what enableLookahead looks for in a schema's resolver map. */
const listOfResolver = new WeakMap<object, AnyParentList>();
/** Fields of a built schema that run one of those resolvers: the only fields the lookahead prefetches. */
const listOfField = new WeakMap<GraphQLField<unknown, unknown>, AnyParentList>();

/** Names one page of one list under one parent with one REST query. */
function pageKey(coordinate: string, parentId: number, filters: string, page: PageRequest): string {
  return `${coordinate}#${parentId}#${page.page}/${page.perPage}#${filters}`;
}

/**
 * The resolver of a list under a group or project: `body` gets a page fetcher that answers from a
 * page the lookahead sent (same list, parent, REST query and page) and otherwise asks REST by the
 * parent's numeric id, as the field always did.
 */
export function listField<P extends { id: number }, Args, Filters, T, R>(
  list: ParentList<Args, Filters, T>,
  body: (pages: PageFetcher<T>, args: Args & ConnectionArgs, filters: Filters, parent: P, context: GatewayContext) => R,
): ListResolver<P, Args & ConnectionArgs, R> {
  const resolve: ListResolver<P, Args & ConnectionArgs, R> = (parent, args, context, info) => {
    const filters = list.filters(args, info.fieldNodes);
    const coordinate = `${info.parentType.name}.${info.fieldName}`;
    const filtersKey = JSON.stringify(filters);
    const pages: PageFetcher<T> = (page) =>
      (context.prefetch.take(pageKey(coordinate, parent.id, filtersKey, page)) as Promise<Page<T>> | undefined) ??
      list.page(context.api, parent.id, filters, page);
    return body(pages, args, filters, parent, context);
  };
  listOfResolver.set(resolve, list as unknown as AnyParentList);
  return resolve;
}

type ResolverMap = Readonly<Record<string, unknown>>;

const resolvesField = (maps: ResolverMap | ReadonlyArray<ResolverMap>, typeName: string, fieldName: string): boolean =>
  ([] as ResolverMap[]).concat(maps).some((map) => (map[typeName] as ResolverMap | undefined)?.[fieldName] !== undefined);

/**
 * Marks the fields of a freshly built schema whose resolver is one of the gateway's list resolvers
 * (`own`), unless an embedder's resolvers (`overrides`) replace it: a prefetched page that a
 * foreign resolver never takes would be one REST call more.
 */
export function enableLookahead(schema: GraphQLSchema, own: ResolverMap, overrides: ResolverMap | ReadonlyArray<ResolverMap>): void {
  for (const [typeName, fields] of Object.entries(own)) {
    const type = schema.getType(typeName);
    if (!isObjectType(type) || typeof fields !== 'object' || fields === null) continue;
    for (const [fieldName, resolver] of Object.entries(fields as ResolverMap)) {
      const list = typeof resolver === 'function' ? listOfResolver.get(resolver) : undefined;
      const field = type.getFields()[fieldName];
      if (list && field && !resolvesField(overrides, typeName, fieldName)) listOfField.set(field, list);
    }
  }
}

interface SentPage {
  coordinate: string;
  filters: string;
  page: PageRequest;
  answer: Promise<Page<unknown>>;
}

/** The field's arguments as graphql-js will give them to its resolver, its REST filters and first pages; null when any of it throws. */
function planOf(list: AnyParentList, field: GraphQLField<unknown, unknown>, fieldNodes: ReadonlyArray<FieldNode>, info: GraphQLResolveInfo) {
  try {
    const args = getArgumentValues(field, fieldNodes[0]!, info.variableValues);
    // The resolver's order: filters first, then the paging arguments; an error is its to report.
    const filters = list.filters(args, fieldNodes);
    return { filters, pages: openingPages(args, list.order?.(args)) };
  } catch {
    return null;
  }
}

/** Sends the first pages of every child list the selection asks for, addressed by the parent's full path. */
function sendChildLists(info: GraphQLResolveInfo, context: GatewayContext, parentPath: string): SentPage[] {
  const type = getNamedType(info.returnType);
  if (!isObjectType(type)) return [];
  const sent: SentPage[] = [];
  for (const fieldNodes of collectSubfields(info.schema, info.fragments, info.variableValues, type, info.fieldNodes).values()) {
    const field = type.getFields()[fieldNodes[0]!.name.value];
    const list = field && listOfField.get(field);
    const plan = list && planOf(list, field, fieldNodes, info);
    if (!plan) continue;
    for (const page of plan.pages) {
      const answer = list.page(context.api, parentPath, plan.filters, page);
      // A page nobody takes (the parent is missing, or failed) must not be an unhandled
      // rejection; the child that takes it awaits the same promise and still sees its error.
      answer.catch(() => undefined);
      sent.push({ coordinate: `${type.name}.${field.name}`, filters: JSON.stringify(plan.filters), page, answer });
    }
  }
  return sent;
}

/**
 * A root field that looks up a group or project by full path: sends its child lists alongside
 * `parent` (the record's look-up, already started), and files their pages under the record's id
 * once it has arrived, before any child resolver runs. The id, not the path as typed: the child
 * knows its parent by the record, whose `full_path` may be spelled otherwise (paths are
 * case-insensitive, and REST follows a renamed path's redirect). A missing parent (null) or a
 * failed look-up leaves the pages unclaimed: the caller sees what it saw without lookahead.
 */
export async function lookAhead<T extends { id: number }>(
  info: GraphQLResolveInfo,
  context: GatewayContext,
  parentPath: string,
  parent: Promise<T | null>,
): Promise<T | null> {
  const sent = sendChildLists(info, context, parentPath);
  const record = await parent;
  if (record) for (const page of sent) context.prefetch.put(pageKey(page.coordinate, record.id, page.filters, page.page), page.answer);
  return record;
}
