import {
  GraphQLError,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { estimateRestCalls, type WorkMeter } from '../cost/estimate.js';
import { introspectionSize } from './introspection-size.js';

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
  /**
   * Most REST calls an operation may need by the gateway's estimate (cost/estimate.ts), a worst
   * case: a ceiling that refuses abusive shapes (100 x 100 x 100 lists) before any call, set well
   * above what realistic pages estimate, since those estimate far more than they make.
   */
  maxRestCalls: number;
  /**
   * Most REST calls an operation may really make, counted as it runs: the calls past it fail their
   * fields with LIMIT_EXCEEDED and the rest of the answer stands. Subscriptions are bound by the
   * estimate of one event instead, as they run for as long as their client wants.
   */
  maxRestCallsMade: number;
  /**
   * Most operations in one batched HTTP request (a JSON array body, when batching is on). Each is
   * held to every other limit on its own; without a cap, one 969 KB batch of 28,000 tiny
   * operations held the event loop for 7 s (issue 27). Apollo Client's BatchHttpLink sends at most
   * 10 at once by default.
   */
  maxBatchOperations: number;
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = {
  maxQueryLength: 10_000,
  maxTokens: 5_000,
  maxDepthAnonymous: 15,
  maxDepthAuthenticated: 20,
  maxAliases: 30,
  maxDirectives: 20,
  maxRestCalls: 5_000,
  maxRestCallsMade: 500,
  maxBatchOperations: 10,
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

const NOTHING_BELOW: ShapeCounts = { depth: 0, aliases: 0, directives: 0 };

/**
 * Depth, aliases and directives of an operation, following fragment spreads, without writing them
 * out: each field's selection set is measured once, however many paths reach it (a fragment's
 * fields are nodes shared by every spread of it), and measures combine: a field is one level deeper
 * than what its selection set holds and adds what that holds to its own. The work is the document's
 * size times, at worst, the number of fields whose selections spread one fragment, never the
 * number of paths (issue 15: 21 fragments each spreading the one before twice were 2^21 paths).
 *
 * Aliases and directives count with multiplicity, once for each time execution may meet them: a
 * fragment spread under two fields counts twice, as the aliases in it run twice. A limit on aliases
 * is a limit on what one query text makes the gateway run (each alias of a field is a call of its
 * resolver), which counting each written alias once would not bound. Like graphql-js's field
 * collection, one selection set takes each fragment name once, however often it spreads it, so a
 * fragment spread twice at one level counts once (fields sharing a response key are not merged
 * here: that over-counts, never under-counts).
 *
 * Introspection fields (`__schema`, `__type`, `__typename` and all below them) are walked like any
 * other: they cost no REST call, but an alias of them still runs again and adds its answer to the
 * response, and the introspection types' lists (`types`, `fields`, ...) multiply what each adds
 * (issue 27: 8 aliased `__schema` with 80 aliased fields below made 102 MB of JSON). What those
 * lists may multiply within these limits is bounded apart (introspection-size.ts).
 *
 * `meter`, when given, counts the selections visited: the work, for a test to hold linear.
 */
export function measureOperation(
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  meter?: WorkMeter,
): ShapeCounts {
  const measured = new Map<SelectionSetNode, ShapeCounts>();
  const measure = (selectionSet: SelectionSetNode): ShapeCounts => {
    const known = measured.get(selectionSet);
    if (known) return known;
    // A cycle through fields is invalid GraphQL (validation reports it); here it only must not loop.
    measured.set(selectionSet, NOTHING_BELOW);
    const counts: ShapeCounts = { depth: 0, aliases: 0, directives: 0 };
    const spread = new Set<string>();
    const visit = (level: SelectionSetNode): void => {
      for (const selection of level.selections) {
        if (meter) meter.units += 1;
        counts.directives += selection.directives?.length ?? 0;
        if (selection.kind === Kind.FIELD) {
          if (selection.alias) counts.aliases += 1;
          const below = selection.selectionSet ? measure(selection.selectionSet) : NOTHING_BELOW;
          counts.depth = Math.max(counts.depth, 1 + below.depth);
          counts.aliases += below.aliases;
          counts.directives += below.directives;
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          visit(selection.selectionSet);
        } else {
          const name = selection.name.value;
          if (spread.has(name)) continue;
          spread.add(name);
          const fragment = fragments.get(name);
          if (fragment) visit(fragment.selectionSet);
        }
      }
    };
    visit(selectionSet);
    measured.set(selectionSet, counts);
    return counts;
  };
  const counts = measure(operation.selectionSet);
  return { ...counts, directives: counts.directives + (operation.directives?.length ?? 0) };
}

interface SelectedOperation {
  operation: OperationDefinitionNode;
  fragments: ReadonlyMap<string, FragmentDefinitionNode>;
}

/**
 * Refuses an operation whose shape exceeds the limits; `authenticated` picks the depth limit.
 * `operationName` chooses among several operations as GraphQL execution does. Returns the
 * operation it checked, with the document's fragments; none when no operation answers to the name.
 */
export function checkOperationShape(document: DocumentNode, operationName: string | null | undefined, authenticated: boolean, limits: QueryLimits): SelectedOperation | undefined {
  const fragments = new Map<string, FragmentDefinitionNode>();
  const operations: OperationDefinitionNode[] = [];
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    else if (definition.kind === Kind.OPERATION_DEFINITION) operations.push(definition);
  }
  const operation = operationName ? operations.find((candidate) => candidate.name?.value === operationName) : operations[0];
  if (!operation) return undefined;
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
  return { operation, fragments };
}

/** The introspection an operation asks for, refused past its ceiling (introspection-size.ts). */
function checkIntrospection(schema: GraphQLSchema, { operation, fragments }: SelectedOperation): void {
  const size = introspectionSize(schema, operation, fragments);
  if (size.values > size.ceiling) {
    throw limitExceeded(
      `The operation's introspection may answer up to ${size.values} values; at most ${size.ceiling} (twice the full introspection query's) are allowed.`,
      'introspection',
      { estimate: size.values, maxIntrospectionValues: size.ceiling },
    );
  }
}

/** Refuses query text longer than the limit, before it is even parsed. */
export function checkQueryLength(query: unknown, limits: QueryLimits): void {
  if (typeof query === 'string' && query.length > limits.maxQueryLength) {
    throw limitExceeded(`The query is ${query.length} characters long; at most ${limits.maxQueryLength} are allowed.`, 'length');
  }
}

/**
 * Deepest nesting of brackets (`[`, `{`, `(`) accepted in query text. graphql-js parses
 * recursively, a few stack frames per level, and 2,000 nested list literals (4,000 tokens, well
 * within the token limit) overflowed the stack: "Maximum call stack size exceeded", with a stack
 * trace in the log for every such request. No operation needs much: fields nest at most 20 deep
 * (the depth limit), plus a level for the operation's variables or arguments and a few for input
 * objects and lists of lists, which rarely pass 5. 64 leaves room for all of that and is far below
 * what overflows. A fixed guard of the parser, not a setting: nothing an operator would tune.
 */
export const MAX_NESTING = 64;

/**
 * Refuses query text whose brackets nest deeper than MAX_NESTING, before it is parsed: one pass
 * over the text, counting `[`, `{` and `(` outside strings, block strings and comments (a bracket
 * there is text, not structure). It does not check that brackets match; the parser does.
 */
export function checkNesting(query: unknown): void {
  if (typeof query !== 'string') return;
  let depth = 0;
  let index = 0;
  while (index < query.length) {
    const char = query[index];
    if (char === '#') {
      // A comment runs to the end of its line.
      while (index < query.length && query[index] !== '\n' && query[index] !== '\r') index++;
    } else if (char === '"' && query.startsWith('"""', index)) {
      // A block string ends at the next """ not escaped as \""".
      index += 3;
      while (index < query.length && !query.startsWith('"""', index)) index += query.startsWith('\\"""', index) ? 4 : 1;
      index += 3;
      continue;
    } else if (char === '"') {
      // A string ends at the next unescaped quote, or (unterminated) at the end of its line.
      index++;
      while (index < query.length && query[index] !== '"' && query[index] !== '\n' && query[index] !== '\r') index += query[index] === '\\' ? 2 : 1;
    } else if (char === '[' || char === '{' || char === '(') {
      depth++;
      if (depth > MAX_NESTING) {
        throw limitExceeded(`The query nests brackets more than ${MAX_NESTING} deep; at most ${MAX_NESTING} levels are allowed.`, 'nesting', { maxNesting: MAX_NESTING });
      }
    } else if ((char === ']' || char === '}' || char === ')') && depth > 0) {
      depth--;
    }
    index++;
  }
}

/**
 * What is checked of query text before it is parsed, on both transports: its length, then its
 * nesting (parsing either is the cost, or the crash, to avoid).
 */
export function checkQueryText(query: unknown, limits: QueryLimits): void {
  checkQueryLength(query, limits);
  checkNesting(query);
}

/**
 * The checks before parsing for the query texts of one HTTP request: one, or each of a batch's,
 * after the batch's length. Its own check for a batch: a batch is an array, whose `query` was
 * undefined and so passed unchecked (issue 27: a 2,000 deep list in a batch overflowed the parser).
 */
export function checkRequestQueries(queries: readonly unknown[], batched: boolean, limits: QueryLimits): void {
  if (batched && queries.length > limits.maxBatchOperations) {
    throw limitExceeded(`The batch holds ${queries.length} operations; at most ${limits.maxBatchOperations} are allowed in one request.`, 'batch', {
      maxBatchOperations: limits.maxBatchOperations,
    });
  }
  for (const query of queries) checkQueryText(query, limits);
}

/** An operation as HTTP (Apollo's request) and WebSocket (graphql-ws's payload) both have it, parsed and validated. */
export interface OperationRequest {
  document: DocumentNode;
  operationName?: string | null | undefined;
  variables?: Readonly<Record<string, unknown>> | null | undefined;
}

/**
 * The operations whose shape and introspection passed, by document: the checks read the document
 * alone (and whether the caller has a credential), and Apollo hands the same parsed document for
 * the same text, so a document sent again is not walked again. One per schema and limits
 * (createAdmission's); documents no longer cached anywhere drop out with their WeakMap keys.
 */
export type PassedShapes = WeakMap<DocumentNode, Set<string>>;

/**
 * Shape and introspection, skipped for an operation of a document that passed them before. Only
 * passes are kept, at most two per operation the document defines (with and without a
 * credential): a refused one is walked, and refused with a fresh error, each time it is sent.
 */
function checkShapeOnce(schema: GraphQLSchema, request: OperationRequest, authenticated: boolean, limits: QueryLimits, passed: PassedShapes): void {
  const key = `${authenticated ? 'authenticated' : 'anonymous'} ${request.operationName ?? ''}`;
  if (passed.get(request.document)?.has(key)) return;
  const selected = checkOperationShape(request.document, request.operationName, authenticated, limits);
  if (!selected) return;
  checkIntrospection(schema, selected);
  let keys = passed.get(request.document);
  if (!keys) passed.set(request.document, (keys = new Set()));
  keys.add(key);
}

/**
 * Every limit on one operation, for HTTP and WebSocket alike so the two cannot drift: its shape,
 * then the REST calls it may need (refused above `maxRestCalls`, saying the estimate). Runs after
 * validation and before any resolver, so a refusal costs no REST call. Returns the estimate, which
 * the operation's budget of calls made reports when it is spent.
 */
export function checkOperation(
  schema: GraphQLSchema,
  request: OperationRequest,
  caller: { authenticated: boolean; batching: boolean },
  limits: QueryLimits,
  passed: PassedShapes = new WeakMap(),
): number {
  checkShapeOnce(schema, request, caller.authenticated, limits, passed);
  const estimate = estimateRestCalls(schema, request, { batching: caller.batching });
  if (estimate > limits.maxRestCalls) {
    // Shapes built to blow up estimate past 2^53 (fragments branching into lists): say so, not 1e+25.
    const shown = Math.min(estimate, Number.MAX_SAFE_INTEGER);
    throw limitExceeded(
      `The operation may need ${shown === estimate ? `up to ${estimate}` : `more than ${shown}`} REST calls; at most ${limits.maxRestCalls} are allowed. Ask for smaller pages (first/last) or fewer nested lists.`,
      'cost',
      { estimate: shown, maxRestCalls: limits.maxRestCalls },
    );
  }
  return estimate;
}
