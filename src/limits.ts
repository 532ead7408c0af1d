import {
  GraphQLError,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { estimateRestCalls } from './cost/estimate.js';

/**
 * Limits on the shape of an operation, checked before any REST call. A gateway over REST is an
 * amplifier: one small query can ask for thousands of REST calls, so shapes no client needs are
 * refused outright.
 */
export interface QueryLimits {
  /** Longest query text accepted, in characters. */
  maxQueryLength: number;
  /** Most lexical tokens in a document (graphql-js stops parsing past it). */
  maxTokens: number;
  /** Deepest field nesting for callers without a credential. */
  maxDepthAnonymous: number;
  /** Deepest field nesting for callers with a credential. */
  maxDepthAuthenticated: number;
  /** Most aliased fields in one operation. */
  maxAliases: number;
  /** Most directives in one operation. */
  maxDirectives: number;
  /** Most REST calls an operation may need by the gateway's estimate (cost/estimate.ts). */
  maxRestCalls: number;
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = {
  maxQueryLength: 10_000,
  maxTokens: 5_000,
  maxDepthAnonymous: 15,
  maxDepthAuthenticated: 20,
  maxAliases: 30,
  maxDirectives: 20,
  maxRestCalls: 100,
};

export function limitExceeded(message: string, limit: string, details: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'LIMIT_EXCEEDED', limit, ...details, http: { status: 400 } } });
}

/**
 * A refusal as the body of an HTTP answer of its own, for what is refused before Apollo sees the
 * request (over-long query text): the same message and extensions Apollo would send, less the
 * `http` status it reads and strips.
 */
export function refusalBody(error: GraphQLError): { errors: Array<{ message: string; extensions: Record<string, unknown> }> } {
  const { http: _status, ...extensions } = error.extensions;
  return { errors: [{ message: error.message, extensions }] };
}

interface ShapeCounts {
  depth: number;
  aliases: number;
  directives: number;
}

/** Depth, aliases and directives of an operation, following fragment spreads (each fragment once per path). */
export function measureOperation(operation: OperationDefinitionNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): ShapeCounts {
  const counts: ShapeCounts = { depth: 0, aliases: 0, directives: operation.directives?.length ?? 0 };
  const walk = (selectionSet: SelectionSetNode, depth: number, visiting: ReadonlySet<string>): void => {
    for (const selection of selectionSet.selections) {
      counts.directives += selection.directives?.length ?? 0;
      if (selection.kind === Kind.FIELD) {
        if (selection.alias) counts.aliases += 1;
        // Introspection meta fields are answered by the gateway itself and cost nothing upstream.
        if (selection.name.value.startsWith('__')) continue;
        counts.depth = Math.max(counts.depth, depth);
        if (selection.selectionSet) walk(selection.selectionSet, depth + 1, visiting);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        walk(selection.selectionSet, depth, visiting);
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        // A cycle is invalid GraphQL (validation reports it); here it only must not loop.
        if (fragment && !visiting.has(name)) walk(fragment.selectionSet, depth, new Set([...visiting, name]));
      }
    }
  };
  walk(operation.selectionSet, 1, new Set());
  return counts;
}

/**
 * Refuses an operation whose shape exceeds the limits; `authenticated` picks the depth limit.
 * `operationName` chooses among several operations as GraphQL execution does.
 */
export function checkOperationShape(document: DocumentNode, operationName: string | null | undefined, authenticated: boolean, limits: QueryLimits): void {
  const fragments = new Map<string, FragmentDefinitionNode>();
  const operations: OperationDefinitionNode[] = [];
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    else if (definition.kind === Kind.OPERATION_DEFINITION) operations.push(definition);
  }
  const operation = operationName ? operations.find((candidate) => candidate.name?.value === operationName) : operations[0];
  if (!operation) return;
  const counts = measureOperation(operation, fragments);
  const maxDepth = authenticated ? limits.maxDepthAuthenticated : limits.maxDepthAnonymous;
  if (counts.depth > maxDepth) {
    throw limitExceeded(`The operation is nested ${counts.depth} fields deep; at most ${maxDepth} are allowed${authenticated ? '' : ' without a credential'}.`, 'depth');
  }
  if (counts.aliases > limits.maxAliases) {
    throw limitExceeded(`The operation has ${counts.aliases} aliases; at most ${limits.maxAliases} are allowed.`, 'aliases');
  }
  if (counts.directives > limits.maxDirectives) {
    throw limitExceeded(`The operation has ${counts.directives} directives; at most ${limits.maxDirectives} are allowed.`, 'directives');
  }
}

/** Refuses query text longer than the limit, before it is even parsed. */
export function checkQueryLength(query: unknown, limits: QueryLimits): void {
  if (typeof query === 'string' && query.length > limits.maxQueryLength) {
    throw limitExceeded(`The query is ${query.length} characters long; at most ${limits.maxQueryLength} are allowed.`, 'length');
  }
}

/** An operation as HTTP (Apollo's request) and WebSocket (graphql-ws's payload) both have it, parsed and validated. */
export interface OperationRequest {
  document: DocumentNode;
  operationName?: string | null | undefined;
  variables?: Readonly<Record<string, unknown>> | null | undefined;
}

/**
 * Every limit on one operation, for HTTP and WebSocket alike so the two cannot drift: its shape,
 * then the REST calls it may need (refused above `maxRestCalls`, saying the estimate). Runs after
 * validation and before any resolver, so a refusal costs no REST call.
 */
export function checkOperation(
  schema: GraphQLSchema,
  request: OperationRequest,
  caller: { authenticated: boolean; batching: boolean },
  limits: QueryLimits,
): void {
  checkOperationShape(request.document, request.operationName, caller.authenticated, limits);
  const estimate = estimateRestCalls(schema, request, { batching: caller.batching });
  if (estimate > limits.maxRestCalls) {
    throw limitExceeded(
      `The operation may need up to ${estimate} REST calls; at most ${limits.maxRestCalls} are allowed. Ask for smaller pages (first/last) or fewer nested lists.`,
      'cost',
      { estimate, maxRestCalls: limits.maxRestCalls },
    );
  }
}
