import {
  getArgumentValues,
  getNamedType,
  getNullableType,
  getOperationAST,
  getVariableValues,
  isAbstractType,
  isListType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { FULL_RECORD_LOADERS } from '../resolvers/full-records.js';
import { resolvers } from '../resolvers/index.js';
import { gatewayDocument } from '../schema/sdl.js';
import { declarationOf } from '../fields/declaration.js';
import { UNBOUNDED_ARRAY_ITEMS, type Count, type FieldArgs, type FieldCost } from './field-cost.js';
import { ID_ONLY, type RecordShape } from './shapes.js';
import { windowCost } from './window-cost.js';

/**
 * An upper bound of the REST calls one operation may make, worked out from the document, its
 * variables and the page sizes it asks for, before anything runs.
 *
 * How it stays an upper bound by construction:
 * - A field with a resolver of its own that can reach the REST session (it takes the context) and
 *   no declared cost (src/fields/) costs one call per parent, or a whole connection window when
 *   it returns a connection; a test fails until such a resolver is reviewed.
 * - A field without a resolver of its own reads its REST key from the parent record; on the types
 *   whose embedded records fetch their full record for a missing key (FULL_RECORD_LOADERS), that is
 *   a call unless the parent's form (shapes.ts) is known to carry the key.
 * - Lists multiply what their items cost by the most items they can hold: a connection's window
 *   (first/last, or the default page size), a reviewed bound, or UNBOUNDED_ARRAY_ITEMS.
 * - Nothing is taken off for what DataLoader saves across parents (REST has no multi-get, so a
 *   batch is one call per key): only the reads of one parent through one loader share a call, and
 *   only with batching on. @skip/@include are counted as if every branch ran.
 * - Fields are collected as graphql-js executes them: each fragment once per collection of one
 *   object's fields, and the fields of one response key once, their selections merged. A field
 *   asked twice, through two spreads of one fragment or twice in a row, runs once and counts once.
 *   What an object costs is remembered by its type, form and collected field nodes, so the walk
 *   never goes once per path: fragments that spread the one before twice cost work in proportion
 *   to their number, not 2^n (issue 15).
 * Not counted: retries of a failed read (transport, bounded by the retry setting), and calls a
 * subscription's poller makes after its first poll. Mutations are counted like queries, each field
 * once; a subscription costs its first poll and what one event's selection costs.
 */
export interface CostEstimateOptions {
  /** Whether the gateway's loaders batch and cache within a request (GatewayOptions.batching). */
  batching: boolean;
  /** Counts the selections the walk visits (none when the estimate was remembered), for a test to hold the work linear. */
  meter?: WorkMeter;
}

/** A count of work units a walk over a document adds to, so tests can assert how work grows (never how long it takes). */
export interface WorkMeter {
  units: number;
}

export interface OperationToEstimate {
  document: DocumentNode;
  operationName?: string | null | undefined;
  variables?: Readonly<Record<string, unknown>> | null | undefined;
}

interface Walk {
  schema: GraphQLSchema;
  fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  batching: boolean;
  /** Variables that reach an argument some field's cost reads (EstimateMemo). */
  costVariables: Set<string>;
  /** Set when the walk took a turn the variables' values decided: its estimate is not remembered. */
  valueDependent: boolean;
  /**
   * What one object costs, by its form and the fields collected on it (objectCostKey): one
   * fragment reached by many paths, as in `parent { ...F } subgroups { nodes { ...F } }` nested
   * level after level, is worked out once per form, not once per path.
   */
  objectCosts: Map<RecordShape, Map<string, number>>;
  /** A number for each field node met, naming it in objectCostKey. */
  fieldIds: Map<FieldNode, number>;
  meter: WorkMeter | undefined;
}

/** The loader a field's reads go through when its entry names none: the parent type's own. */
const OWN_LOADER = '';
const FULL_RECORD_TYPES: ReadonlySet<string> = new Set(Object.keys(FULL_RECORD_LOADERS));

export function estimateRestCalls(schema: GraphQLSchema, operation: OperationToEstimate, options: CostEstimateOptions): number {
  const memo = memoOf(schema, operation, options);
  // Most operations' cost reads no variable (the hot path's `runner(id: $id)`): their estimate
  // holds for any values, so the variables are not coerced here a second time (execution does).
  if (memo.dependsOn?.length === 0) {
    const known = memo.estimates.get(valuesKey(memo.dependsOn, {}));
    if (known !== undefined) return known;
  }
  const definition = getOperationAST(operation.document, operation.operationName);
  if (!definition) return 0;
  const coerced = getVariableValues(schema, definition.variableDefinitions ?? [], operation.variables ?? {});
  // Variables that do not coerce stop the operation before any resolver runs.
  if (coerced.errors) return 0;
  const root = schema.getRootType(definition.operation);
  if (!root) return 0;

  const known = memo.dependsOn && memo.estimates.get(valuesKey(memo.dependsOn, coerced.coerced));
  if (known !== undefined) return known;

  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const node of operation.document.definitions) {
    if (node.kind === Kind.FRAGMENT_DEFINITION) fragments.set(node.name.value, node);
  }
  const walk: Walk = {
    schema,
    fragments,
    variables: coerced.coerced,
    batching: options.batching,
    costVariables: new Set(),
    valueDependent: false,
    objectCosts: new Map(),
    fieldIds: new Map(),
    meter: options.meter,
  };
  const estimate = objectCost(walk, root, [definition.selectionSet], ID_ONLY);
  if (!walk.valueDependent) {
    memo.dependsOn ??= [...walk.costVariables].sort();
    if (memo.estimates.size >= MAX_ESTIMATES_PER_OPERATION) memo.estimates.clear();
    memo.estimates.set(valuesKey(memo.dependsOn, coerced.coerced), estimate);
  }
  return estimate;
}

/**
 * Estimates already worked out for one operation of a document, by the values of the variables
 * its cost depends on (page sizes, mostly). The hot path's `runner(id: $id)` costs one call
 * whatever `$id` is, so it is walked once, not once per request.
 */
interface EstimateMemo {
  /** The variables that reach an argument the cost reads; known after the first walk. */
  dependsOn?: readonly string[];
  estimates: Map<string, number>;
}

/** Distinct variable values remembered per operation; past that the memo starts over. */
const MAX_ESTIMATES_PER_OPERATION = 100;
// Documents come from the operation caches (Apollo's, the WebSocket server's) and leave with them.
const memos = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, EstimateMemo>>>();

function memoOf(schema: GraphQLSchema, operation: OperationToEstimate, options: CostEstimateOptions): EstimateMemo {
  let bySchema = memos.get(schema);
  if (!bySchema) memos.set(schema, (bySchema = new WeakMap()));
  let byOperation = bySchema.get(operation.document);
  if (!byOperation) bySchema.set(operation.document, (byOperation = new Map<string, EstimateMemo>()));
  const key = `${options.batching}:${operation.operationName ?? ''}`;
  let memo = byOperation.get(key);
  if (!memo) byOperation.set(key, (memo = { estimates: new Map() }));
  return memo;
}

function valuesKey(names: readonly string[], variables: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(names.map((name) => variables[name] ?? null));
}

/** Whether what a field costs can change with its arguments' values (a page size, say). */
function costReadsArguments(cost: FieldCost, connection: boolean): boolean {
  const varies = (count: Count | undefined) => count === 'window' || typeof count === 'function';
  return varies(cost.calls) || varies(cost.items) || (cost.items === undefined && connection) || typeof cost.returns === 'function';
}

/** The variables an argument list refers to, inside lists and input objects too. */
function variablesIn(values: readonly ValueNode[], into: Set<string>): void {
  for (const value of values) {
    if (value.kind === Kind.VARIABLE) into.add(value.name.value);
    else if (value.kind === Kind.LIST) variablesIn(value.values, into);
    else if (value.kind === Kind.OBJECT) variablesIn(value.fields.map((field) => field.value), into);
  }
}

/**
 * The fields one object of `type` runs for these selection sets, by response key, as graphql-js's
 * collectFields has them: one set of fragment names visited for the whole collection, so a
 * fragment counts once however often it is spread, and the field nodes of one response key
 * together (execution runs them as one field, with their selection sets merged).
 */
function collectFields(walk: Walk, type: GraphQLObjectType, selectionSets: readonly SelectionSetNode[]): Map<string, FieldNode[]> {
  const fields = new Map<string, FieldNode[]>();
  const visitedFragments = new Set<string>();
  const visit = (selectionSet: SelectionSetNode): void => {
    for (const selection of selectionSet.selections) {
      if (walk.meter) walk.meter.units += 1;
      if (selection.kind === Kind.FIELD) {
        const responseKey = selection.alias?.value ?? selection.name.value;
        const sameKey = fields.get(responseKey);
        if (sameKey) sameKey.push(selection);
        else fields.set(responseKey, [selection]);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (appliesTo(walk, selection.typeCondition?.name.value, type)) visit(selection.selectionSet);
      } else {
        const name = selection.name.value;
        if (visitedFragments.has(name)) continue;
        visitedFragments.add(name);
        const fragment = walk.fragments.get(name);
        if (fragment && appliesTo(walk, fragment.typeCondition.name.value, type)) visit(fragment.selectionSet);
      }
    }
  };
  for (const selectionSet of selectionSets) visit(selectionSet);
  return fields;
}

/** The selection sets of one response key's field nodes, to be collected together. */
function selectionSetsOf(fieldNodes: readonly FieldNode[]): SelectionSetNode[] {
  const selectionSets: SelectionSetNode[] = [];
  for (const node of fieldNodes) if (node.selectionSet) selectionSets.push(node.selectionSet);
  return selectionSets;
}

/**
 * Names what an object's cost depends on besides its form: its type and the very field nodes
 * collected on it. Two paths that collect the same nodes (the same fragment's fields) cost the same.
 */
function objectCostKey(walk: Walk, type: GraphQLObjectType, fields: ReadonlyMap<string, readonly FieldNode[]>): string {
  let key = type.name;
  for (const fieldNodes of fields.values()) {
    for (const node of fieldNodes) {
      let id = walk.fieldIds.get(node);
      if (id === undefined) walk.fieldIds.set(node, (id = walk.fieldIds.size));
      key += `,${id}`;
    }
    key += ';';
  }
  return key;
}

function appliesTo(walk: Walk, condition: string | undefined, type: GraphQLObjectType): boolean {
  if (condition === undefined || condition === type.name) return true;
  const conditionType = walk.schema.getType(condition);
  return conditionType !== undefined && isAbstractType(conditionType) && walk.schema.isSubType(conditionType, type);
}

/** What the fields of one object of `type`, in the form `shape`, cost: their own calls, their children, and full-record reads. */
function objectCost(walk: Walk, type: GraphQLObjectType, selectionSets: readonly SelectionSetNode[], shape: RecordShape): number {
  const fields = collectFields(walk, type, selectionSets);
  let costsOfShape = walk.objectCosts.get(shape);
  if (!costsOfShape) walk.objectCosts.set(shape, (costsOfShape = new Map<string, number>()));
  const key = objectCostKey(walk, type, fields);
  const known = costsOfShape.get(key);
  if (known !== undefined) return known;

  let total = 0;
  // Keys each loader is asked for on this object: reads through one loader share its record.
  const reads = new Map<string, string[]>();
  for (const fieldNodes of fields.values()) {
    // Validation has made the nodes of one response key the same field with the same arguments;
    // graphql-js reads the arguments from the first.
    const node = fieldNodes[0]!;
    const field = type.getFields()[node.name.value];
    // Introspection answers from the schema.
    if (!field || node.name.value.startsWith('__')) continue;
    const cost = cachedCostOf(type, field);
    let args: FieldArgs = NO_ARGS;
    try {
      if (field.args.length > 0) args = getArgumentValues(field, node, walk.variables);
    } catch {
      // Arguments that do not coerce fail the field before its resolver runs; which ones do
      // depends on the values, so this estimate is not remembered.
      walk.valueDependent = true;
      continue;
    }
    if (args !== NO_ARGS && node.arguments?.length && costReadsArguments(cost, isConnectionType(field))) {
      variablesIn(node.arguments.map((argument) => argument.value), walk.costVariables);
    }
    for (const key of cost.reads ?? []) {
      const loader = cost.loader ?? OWN_LOADER;
      reads.set(loader, [...(reads.get(loader) ?? []), key]);
    }
    if (cost.unlessParentHas === undefined || !shape.keys.has(cost.unlessParentHas)) total += count(cost.calls, args, 'calls');
    total += resultCost(walk, field, fieldNodes, cost, args);
  }
  for (const [loader, keys] of reads) total += readsCost(walk, keys, shape, loader === OWN_LOADER);
  costsOfShape.set(key, total);
  return total;
}

/**
 * Reads of missing keys through one loader: with batching, one call for the lot (none when the
 * record came through the type's own loader, whose cache answers); without, one call each.
 */
function readsCost(walk: Walk, keys: readonly string[], shape: RecordShape, ownLoader: boolean): number {
  if (ownLoader && shape.complete) return 0;
  const missing = keys.filter((key) => !shape.keys.has(key)).length;
  if (!walk.batching) return missing;
  if (ownLoader && shape.cached) return 0;
  return missing > 0 ? 1 : 0;
}

/** The cost of what a field returns: each item's own calls and its fields' costs, times the items. */
function isConnectionType(field: GraphQLField<unknown, unknown>): boolean {
  const named = getNamedType(field.type);
  return isObjectType(named) && isConnection(named);
}

function resultCost(walk: Walk, field: GraphQLField<unknown, unknown>, fieldNodes: readonly FieldNode[], cost: FieldCost, args: FieldArgs): number {
  const named = getNamedType(field.type);
  const connection = isConnectionType(field);
  const items = count(cost.items ?? (connection ? 'window' : isListType(getNullableType(field.type)) ? UNBOUNDED_ARRAY_ITEMS : 1), args, 'items');
  const perItem = cost.callsPerItem ?? 0;
  const selectionSets = selectionSetsOf(fieldNodes);
  if (selectionSets.length === 0 || !(isObjectType(named) || isAbstractType(named))) return items * perItem;
  const shapeFor = (typeName: string): RecordShape => {
    const returns = cost.returns;
    if (returns === undefined) return ID_ONLY;
    if (typeof returns === 'function') return returns(args);
    if ('keys' in returns) return returns as RecordShape;
    return returns[typeName] ?? ID_ONLY;
  };
  if (connection && isObjectType(named)) return connectionCost(walk, named, selectionSets, items, shapeFor);
  return items * (perItem + itemCost(walk, named, selectionSets, shapeFor));
}

/** What one returned object costs; one of an interface or union is one of its types, and the dearest counts. */
function itemCost(walk: Walk, type: GraphQLNamedType, selectionSets: readonly SelectionSetNode[], shapeFor: (typeName: string) => RecordShape): number {
  const types = isObjectType(type) ? [type] : isAbstractType(type) ? walk.schema.getPossibleTypes(type) : [];
  return Math.max(0, ...types.map((candidate) => objectCost(walk, candidate, selectionSets, shapeFor(candidate.name))));
}

/** A Relay connection: `nodes` and each edge's `node` are the items; `count`, `pageInfo` and cursors cost nothing. */
function connectionCost(
  walk: Walk,
  connection: GraphQLObjectType,
  selectionSets: readonly SelectionSetNode[],
  items: number,
  shapeFor: (typeName: string) => RecordShape,
): number {
  let total = 0;
  const node = (fieldType: GraphQLField<unknown, unknown>['type'], sets: readonly SelectionSetNode[]) => itemCost(walk, getNamedType(fieldType), sets, shapeFor);
  for (const fieldNodes of collectFields(walk, connection, selectionSets).values()) {
    const name = fieldNodes[0]!.name.value;
    const fieldSelections = selectionSetsOf(fieldNodes);
    if (fieldSelections.length === 0) continue;
    if (name === 'nodes') total += items * node(connection.getFields()['nodes']!.type, fieldSelections);
    if (name === 'edges') {
      const edge = getNamedType(connection.getFields()['edges']!.type) as GraphQLObjectType;
      for (const edgeFieldNodes of collectFields(walk, edge, fieldSelections).values()) {
        const nodeSelections = selectionSetsOf(edgeFieldNodes);
        if (edgeFieldNodes[0]!.name.value === 'node' && nodeSelections.length > 0) total += items * node(edge.getFields()['node']!.type, nodeSelections);
      }
    }
  }
  return total;
}

const connections = new WeakMap<GraphQLObjectType, boolean>();

/** Every `XConnection` of the schema: `nodes`, and `edges` of `node`s (connections/connection.ts). */
function isConnection(type: GraphQLObjectType): boolean {
  let known = connections.get(type);
  if (known === undefined) connections.set(type, (known = hasConnectionFields(type)));
  return known;
}

function hasConnectionFields(type: GraphQLObjectType): boolean {
  const fields = type.getFields();
  if (!type.name.endsWith('Connection') || !fields['nodes'] || !fields['edges']) return false;
  const edge = getNamedType(fields['edges'].type);
  return isObjectType(edge) && edge.getFields()['node'] !== undefined;
}

function count(value: Count | undefined, args: FieldArgs, what: 'calls' | 'items'): number {
  if (value === undefined) return 0;
  if (value === 'window') return windowCost(args)[what];
  return typeof value === 'number' ? value : value(args);
}

const NO_ARGS: FieldArgs = {};
// Field objects belong to one schema and live as long as it: what each costs is worked out once.
const costs = new WeakMap<GraphQLField<unknown, unknown>, FieldCost>();

function cachedCostOf(type: GraphQLObjectType, field: GraphQLField<unknown, unknown>): FieldCost {
  let cost = costs.get(field);
  if (cost === undefined) costs.set(field, (cost = costOf(type, field)));
  return cost;
}

/**
 * The declared cost of a field. A resolver that takes the context is declared, or the resolver map
 * would not have assembled (resolvers/index.ts), so an undeclared one answers from its parent and
 * arguments: it costs nothing. A field without a resolver of its own reads its REST key, which on
 * the full-record types may fetch the full record. A field an embedder adds costs a call (a window
 * for a connection): its resolver is theirs, unseen.
 */
export function costOf(type: GraphQLObjectType, field: GraphQLField<unknown, unknown>): FieldCost {
  // A field an embedder added (GatewayOptions.extend) has a resolver the estimate cannot see into.
  if (!isGatewayField(type.name, field.name)) return mayCall(field);
  const resolver = ownResolver(type.name, field.name);
  const declaration = declarationOf(resolver);
  const reviewed = declaredCost(type.name, field.name);
  if (resolver !== undefined && !declaration?.readsRecord) return reviewed ?? {};
  // The REST reading of record-fields.ts; a reviewed entry adds what the record holds.
  const reading: FieldCost = FULL_RECORD_TYPES.has(type.name) ? { reads: [snakeCase(field.name)] } : {};
  return { ...reading, ...reviewed };
}

/** What a gateway field declares it costs, beside its resolver (src/fields/). */
export function declaredCost(typeName: string, fieldName: string): FieldCost | undefined {
  return declarationOf(ownResolver(typeName, fieldName))?.cost;
}

/** A call per parent, or a whole window for a connection. */
function mayCall(field: GraphQLField<unknown, unknown>): FieldCost {
  return returnsConnection(field) ? { calls: 'window', items: 'window' } : { calls: 1 };
}

let gatewayFields: ReadonlySet<string> | undefined;

/**
 * Whether `Type.field` is in the gateway's own SDL (schema/), as opposed to an embedder's extension.
 * Read from the SDL document the executable schema was built from: no schema of its own to build.
 */
function isGatewayField(typeName: string, fieldName: string): boolean {
  if (!gatewayFields) {
    const names = new Set<string>();
    for (const definition of gatewayDocument().definitions) {
      if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
      for (const field of definition.fields ?? []) names.add(`${definition.name.value}.${field.name.value}`);
    }
    gatewayFields = names;
  }
  return gatewayFields.has(`${typeName}.${fieldName}`);
}

function returnsConnection(field: GraphQLField<unknown, unknown>): boolean {
  const named = getNamedType(field.type);
  return isObjectType(named) && isConnection(named);
}

/** The gateway's own resolver of a field (a function, or a subscription's `subscribe`), if it has one. */
export function ownResolver(typeName: string, fieldName: string): ((...args: never[]) => unknown) | undefined {
  const typeResolvers = (resolvers as Record<string, unknown>)[typeName];
  if (!typeResolvers || typeof typeResolvers !== 'object') return undefined;
  const resolver = (typeResolvers as Record<string, unknown>)[fieldName];
  if (typeof resolver === 'function') return resolver as (...args: never[]) => unknown;
  const subscribe = (resolver as { subscribe?: unknown } | undefined)?.subscribe;
  return typeof subscribe === 'function' ? (subscribe as (...args: never[]) => unknown) : undefined;
}

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
