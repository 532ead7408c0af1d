import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import { BREAK, execute, GraphQLError, Kind, visit, type DocumentNode, type ExecutionResult, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import type { CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import { TokenBucket } from '../policy/token-bucket.js';

/**
 * Compiled operations (issue 29). graphql-js interprets every request afresh: it walks the document,
 * looks up each field's definition, coerces its arguments and completes each value by its type, for
 * every object of every list. graphql-jit turns an operation into a JavaScript function once, with
 * all of that worked out, and runs the function per request; only the variables and the context
 * change. Apollo Server stays the host: this is its documented `gateway` seam (an executor), so
 * parsing, validation, the document store, persisted queries, every plugin hook and error
 * formatting are Apollo's, as before.
 *
 * What a caller can do to it, and why it is safe:
 * - Compiling costs more than running once, so a document is compiled on its `compileAfterUses`th
 *   use only: a caller who sends a new document each time (hashes, whitespace) is interpreted and
 *   never pays the compiler, nor makes the gateway pay it.
 * - Code is generated per field path, so its size is the operation's fields with every fragment
 *   written out, which can be exponential in the document's size (fragments spread under two
 *   fields each). That size is counted first, linearly (each selection set once), and an
 *   operation above `maxCompiledFields` is interpreted, never compiled: one compilation stalls
 *   the process for at most that many fields' worth.
 * - Compiling is synchronous, about 0.13 ms per field on the bench machine (a 1,800-field page took
 *   235 ms): the fields any callers may have compiled are a budget (`compiledFieldsPerSecond`,
 *   a token bucket), and a document the budget cannot pay for now is interpreted until it can, so
 *   that callers sending many new documents twice each cannot keep the event loop compiling.
 * - Compiled functions live as long as Apollo's cached document they belong to (a WeakMap), so
 *   the document store's bound is theirs.
 * - Variables graphql-jit refuses are checked again by graphql-js, which words the errors as Apollo
 *   and callers know them (400, BAD_USER_INPUT): a failed coercion runs no resolver in either.
 * graphql-jit itself (and the JSON serializer it brings) is loaded at the first compilation.
 */
export interface CompiledExecutionOptions {
  /** The use of a document (operation) on which it is compiled; earlier uses are interpreted. */
  compileAfterUses: number;
  /** Operations with more fields than this, fragments written out, are always interpreted. */
  maxCompiledFields: number;
  /** Fields compiled per second across the process (and as many at once): past it, documents wait, interpreted. */
  compiledFieldsPerSecond: number;
  /** Told how each operation ran (the metrics). */
  onRun?: ((engine: 'compiled' | 'interpreted') => void) | undefined;
}

type Plan = { uses: number; compiled?: CompiledQuery | 'interpret' };
type Jit = { compileQuery: typeof compileQuery; isCompiledQuery: typeof isCompiledQuery };

export function compiledExecution(schema: GraphQLSchema, options: CompiledExecutionOptions): GatewayInterface {
  const executor = compiledExecutor(schema, options);
  return {
    load: () => Promise.resolve({ schema, executor }),
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => undefined;
    },
    stop: () => Promise.resolve(),
  };
}

export function compiledExecutor(schema: GraphQLSchema, { compileAfterUses, maxCompiledFields, compiledFieldsPerSecond, onRun }: CompiledExecutionOptions): GatewayExecutor {
  const budget = new TokenBucket(compiledFieldsPerSecond, compiledFieldsPerSecond);
  // Per cached document, per operation: its uses, then its compiled function.
  const plans = new WeakMap<DocumentNode, Map<OperationDefinitionNode, Plan>>();
  let jit: Jit | undefined;
  let loading: Promise<unknown> | undefined;

  const compiledFor = (document: DocumentNode, operation: OperationDefinitionNode): CompiledQuery | undefined => {
    let byOperation = plans.get(document);
    if (!byOperation) plans.set(document, (byOperation = new Map<OperationDefinitionNode, Plan>()));
    let plan = byOperation.get(operation);
    if (!plan) byOperation.set(operation, (plan = { uses: 0 }));
    if (plan.compiled !== undefined) return plan.compiled === 'interpret' ? undefined : plan.compiled;
    plan.uses += 1;
    // Loaded while the document's first uses are interpreted, so that it is there for the use that compiles.
    if (!jit) loading ??= import('graphql-jit').then((module) => (jit = module));
    if (plan.uses < compileAfterUses || !jit) return undefined;
    const compiled = compile(jit, schema, document, operation, { maxFields: maxCompiledFields, budget });
    if (compiled === 'later') return undefined;
    plan.compiled = compiled;
    return compiled === 'interpret' ? undefined : compiled;
  };

  return async ({ document, operation, request, context }) => {
    // The name the caller sent (the context's `operationName` is the one Apollo resolved, null when none).
    const interpret = () => {
      onRun?.('interpreted');
      return execute({ schema, document, operationName: request.operationName, variableValues: request.variables, contextValue: context });
    };
    // Apollo found no operation of that name: graphql-js says so in its words.
    const compiled = operation ? compiledFor(document, operation) : undefined;
    if (!compiled) return interpret();
    onRun?.('compiled');
    const result = await compiled.query(undefined, context, request.variables ?? {});
    if (!result.errors?.length) return result as ExecutionResult;
    // No data at all: the variables were refused before any resolver ran. graphql-js words it.
    if (result.data === undefined) return interpret();
    return { ...result, errors: result.errors.map(asGraphQLJsError) } as ExecutionResult;
  };
}

/**
 * graphql-jit's errors as graphql-js makes them, which Apollo and the error table read: an
 * `extensions` object always (Apollo reads `extensions.code`), and a value a resolver handed over
 * that its type refused (a leaf that does not serialize, a null for a non-null field, a list that
 * is not one) with its own words as the cause, as graphql-js' completion errors have, so that it is
 * told as the upstream's UPSTREAM_ERROR (errors/graphql-errors.ts) rather than as a gateway bug.
 */
function asGraphQLJsError(error: GraphQLError): GraphQLError {
  const { message, path, extensions, locations } = error;
  const originalError = error.originalError ?? (path ? completionFailure(message) : undefined);
  const made = new GraphQLError(message, { path, originalError, extensions });
  return locations ? Object.assign(made, { locations }) : made;
}

/** What graphql-js throws when a value does not complete: an Error for a null in a non-null field, else a GraphQLError. */
function completionFailure(message: string): Error {
  return message.startsWith('Cannot return null for non-nullable field ') ? new Error(message) : new GraphQLError(message);
}

/** A compiled function; `interpret` for good; `later` when the budget cannot pay for it now. */
function compile(
  jit: Jit,
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  { maxFields, budget }: { maxFields: number; budget: TokenBucket },
): CompiledQuery | 'interpret' | 'later' {
  if (namesAnObjectKey(document)) return 'interpret';
  const fields = writtenOutFields(document, operation, maxFields);
  if (fields > maxFields) return 'interpret';
  if (budget.level() < fields) return 'later';
  budget.spend(fields);
  const compiled = jit.compileQuery(schema, document, operation.name?.value);
  return jit.isCompiledQuery(compiled) ? compiled : 'interpret';
}

/**
 * Whether the caller named anything (an alias, an operation, a fragment, a variable) after a key
 * every JavaScript object has (`__proto__`, `constructor`, `toString`, ...). The code graphql-jit
 * generates keeps such names as plain object keys, where `__proto__` sets the prototype instead of
 * a key; graphql-js' interpreter answers them as the plain keys they are (test/hardening), so such
 * a document is interpreted. The schema's own names are fixed and none of these.
 */
export function namesAnObjectKey(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Name(node, _key, parent) {
      if (!(node.value in Object.prototype) || !callerChosen(parent)) return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}

/** Names the caller chooses; a field's or argument's name must be the schema's (validation). */
function callerChosen(parent: unknown): boolean {
  const kind = (parent as { kind?: Kind } | undefined)?.kind;
  return kind !== Kind.ARGUMENT && kind !== Kind.OBJECT_FIELD && kind !== Kind.NAMED_TYPE && kind !== Kind.DIRECTIVE;
}

/**
 * The fields of the operation with every fragment written out, counted without writing them out:
 * each selection set's count is worked out once and reused wherever it is spread (validation has
 * refused fragment cycles). Stops counting past `cap`.
 */
export function writtenOutFields(document: DocumentNode, operation: OperationDefinitionNode, cap: number): number {
  const fragments = new Map<string, SelectionSetNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition.selectionSet);
  }
  const counted = new Map<SelectionSetNode, number>();
  const count = (selectionSet: SelectionSetNode): number => {
    const known = counted.get(selectionSet);
    if (known !== undefined) return known;
    let total = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) total += 1 + (selection.selectionSet ? count(selection.selectionSet) : 0);
      else if (selection.kind === Kind.INLINE_FRAGMENT) total += count(selection.selectionSet);
      else {
        const spread = fragments.get(selection.name.value);
        total += spread ? count(spread) : 0;
      }
      if (total > cap) break;
    }
    counted.set(selectionSet, Math.min(total, cap + 1));
    return Math.min(total, cap + 1);
  };
  return count(operation.selectionSet);
}
