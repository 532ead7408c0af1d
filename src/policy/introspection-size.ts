import {
  getIntrospectionQuery,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  parse,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLArgument,
  type GraphQLDirective,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type GraphQLType,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/**
 * The size of what an operation's introspection fields (`__schema`, `__type` and all below them)
 * would answer, worked out before it runs. They cost no REST call, but each list of the
 * introspection types multiplies what is below it, and aliases repeat it: within the alias and
 * depth limits, one `__schema` whose types' fields' types' fields were asked for under 29 aliases
 * answered 90 MB of JSON after 3 s of CPU (issue 27). graphql-js's MaxIntrospectionDepthRule bounds
 * how deep the lists nest, not how wide aliases make them.
 *
 * The size is the number of values the answer holds (a leaf is one, an object one plus what it
 * holds, a list what its items hold, a null one), counted over this schema's own types, fields and
 * arguments: exact but for `__type(name: $variable)`, counted as the largest type. The
 * ceiling comes from the same schema: twice the size of the full introspection query explorers and
 * codegen send (graphql-js's, every option on), so each of them passes with room for variants, and
 * nothing an operator would tune. Each selection set is measured once per schema element it meets
 * (a type, a field, a directive), and the walk stops once it has done as much work as the ceiling.
 */

/** Where a selection set is read: the introspection object it selects from. */
type Subject =
  | { kind: 'schema' }
  | { kind: 'type'; type: GraphQLType }
  | { kind: 'field'; field: GraphQLField<unknown, unknown> }
  | { kind: 'inputValue'; value: GraphQLArgument | GraphQLInputField }
  | { kind: 'directive'; directive: GraphQLDirective }
  | { kind: 'enumValue' };

/** The type `__type(name: "...")` names; undefined when the name is a variable (or no such type: then nothing is answered). */
function namedTypeOf(schema: GraphQLSchema, field: FieldNode): GraphQLNamedType | null | undefined {
  const name = field.arguments?.find((argument) => argument.name.value === 'name')?.value;
  return name?.kind === Kind.STRING ? (schema.getType(name.value) ?? null) : undefined;
}

/** What a walk may do before it gives up: refused as too large, whatever is left. */
class TooLarge extends Error {}

const SCHEMA: Subject = { kind: 'schema' };
const ENUM_VALUE: Subject = { kind: 'enumValue' };

class IntrospectionWalk {
  private readonly measured = new Map<SelectionSetNode, Map<unknown, number>>();
  private work = 0;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    private readonly maxWork: number,
  ) {}

  /** The values `selectionSet` answers on `subject`: one for the object, plus what its fields hold. */
  measure(selectionSet: SelectionSetNode, subject: Subject): number {
    const key = subjectKey(subject);
    let bySubject = this.measured.get(selectionSet);
    const known = bySubject?.get(key);
    if (known !== undefined) return known;
    if (!bySubject) this.measured.set(selectionSet, (bySubject = new Map<unknown, number>()));
    // A cycle through fields is invalid GraphQL (validation reports it); here it only must not loop.
    bySubject.set(key, 0);
    let values = 1;
    const spread = new Set<string>();
    const visit = (level: SelectionSetNode): void => {
      for (const selection of level.selections) {
        this.charge(1);
        if (selection.kind === Kind.FIELD) values += this.field(selection.name.value, selection.selectionSet, subject);
        else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
        else if (!spread.has(selection.name.value)) {
          spread.add(selection.name.value);
          const fragment = this.fragments.get(selection.name.value);
          if (fragment) visit(fragment.selectionSet);
        }
      }
    };
    visit(selectionSet);
    bySubject.set(key, values);
    return values;
  }

  /** `__type(name:)`: the named type, null for an unknown name, or the largest type when the name is a variable. */
  typeByName(selectionSet: SelectionSetNode, type: GraphQLNamedType | null | undefined): number {
    if (type === null) return 1;
    if (type) return this.measure(selectionSet, { kind: 'type', type });
    let largest = 1;
    for (const candidate of Object.values(this.schema.getTypeMap())) largest = Math.max(largest, this.measure(selectionSet, { kind: 'type', type: candidate }));
    return largest;
  }

  private charge(units: number): void {
    this.work += units;
    if (this.work > this.maxWork) throw new TooLarge();
  }

  /** What one field answers on `subject`: a leaf or a null is one value; an object or list what its items hold. */
  private field(name: string, selectionSet: SelectionSetNode | undefined, subject: Subject): number {
    if (!selectionSet) return name === 'locations' && subject.kind === 'directive' ? subject.directive.locations.length : 1;
    const items = this.itemsOf(name, subject);
    if (!items) return 1;
    this.charge(items.length);
    let values = 0;
    for (const item of items) values += this.measure(selectionSet, item);
    return values;
  }

  /** The introspection objects field `name` of `subject` answers: one for an object field, each item of a list; null for a null. */
  private itemsOf(name: string, subject: Subject): Subject[] | null {
    const type = (t: GraphQLType | null | undefined): Subject[] | null => (t ? [{ kind: 'type', type: t }] : null);
    switch (subject.kind) {
      case 'schema':
        if (name === 'types') return Object.values(this.schema.getTypeMap()).map((item) => ({ kind: 'type', type: item }));
        if (name === 'directives') return this.schema.getDirectives().map((directive) => ({ kind: 'directive', directive }));
        return type(rootType(this.schema, name));
      case 'type':
        return this.ofType(name, subject.type);
      case 'field':
        if (name === 'args') return subject.field.args.map((value) => ({ kind: 'inputValue', value }));
        return type(subject.field.type);
      case 'inputValue':
        return type(subject.value.type);
      case 'directive':
        return subject.directive.args.map((value) => ({ kind: 'inputValue', value }));
      case 'enumValue':
        return null;
    }
  }

  /** A type's lists, and its `ofType`: what a list or non-null wraps, null for a named type. */
  private ofType(name: string, type: GraphQLType): Subject[] | null {
    const types = (list: readonly GraphQLNamedType[]): Subject[] => list.map((item) => ({ kind: 'type', type: item }));
    if (name === 'ofType') return isListType(type) || isNonNullType(type) ? [{ kind: 'type', type: type.ofType as GraphQLType }] : null;
    if (name === 'fields') return isObjectType(type) || isInterfaceType(type) ? Object.values(type.getFields()).map((field) => ({ kind: 'field', field })) : null;
    if (name === 'inputFields') return isInputObjectType(type) ? Object.values(type.getFields()).map((value) => ({ kind: 'inputValue', value })) : null;
    if (name === 'enumValues') return isEnumType(type) ? type.getValues().map(() => ENUM_VALUE) : null;
    if (name === 'interfaces') return isObjectType(type) || isInterfaceType(type) ? types(type.getInterfaces()) : null;
    if (name === 'possibleTypes') return isAbstractType(type) ? types(this.schema.getPossibleTypes(type)) : null;
    return null;
  }
}

function subjectKey(subject: Subject): unknown {
  switch (subject.kind) {
    case 'type':
      return subject.type;
    case 'field':
      return subject.field;
    case 'inputValue':
      return subject.value;
    case 'directive':
      return subject.directive;
    default:
      return subject;
  }
}

function rootType(schema: GraphQLSchema, name: string): GraphQLNamedType | null {
  if (name === 'queryType') return schema.getQueryType() ?? null;
  if (name === 'mutationType') return schema.getMutationType() ?? null;
  if (name === 'subscriptionType') return schema.getSubscriptionType() ?? null;
  return null;
}

/**
 * The values the introspection fields of `operation` would answer, or Infinity once the walk has
 * done `maxWork` units of work. The rest of the operation only leads to them: `__schema` and
 * `__type` are fields of the query type alone, which no field of this schema returns, so nothing
 * multiplies them from outside.
 */
function measureIntrospection(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  maxWork: number,
): number {
  const walk = new IntrospectionWalk(schema, fragments, maxWork);
  let values = 0;
  const spread = new Set<string>();
  const visit = (level: SelectionSetNode): void => {
    for (const selection of level.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value === '__schema' && selection.selectionSet) values += walk.measure(selection.selectionSet, SCHEMA);
        if (selection.name.value === '__type' && selection.selectionSet) values += walk.typeByName(selection.selectionSet, namedTypeOf(schema, selection));
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.selectionSet);
      } else if (!spread.has(selection.name.value)) {
        spread.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) visit(fragment.selectionSet);
      }
    }
  };
  try {
    visit(operation.selectionSet);
    return values;
  } catch (error) {
    if (error instanceof TooLarge) return Number.POSITIVE_INFINITY;
    throw error;
  }
}

const ceilings = new WeakMap<GraphQLSchema, number>();

/** Twice what the full introspection query answers on `schema`, worked out once per schema. */
function ceilingOf(schema: GraphQLSchema): number {
  let ceiling = ceilings.get(schema);
  if (ceiling === undefined) {
    const full = parse(getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true }));
    const fragments = new Map<string, FragmentDefinitionNode>();
    let operation: OperationDefinitionNode | undefined;
    for (const definition of full.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
      else if (definition.kind === Kind.OPERATION_DEFINITION) operation = definition;
    }
    ceiling = 2 * measureIntrospection(schema, operation!, fragments, Number.POSITIVE_INFINITY);
    ceilings.set(schema, ceiling);
  }
  return ceiling;
}

/**
 * Sizes already worked out, by operation node: Apollo and the WebSocket operation cache hand out
 * one parsed document per query text, so an explorer's repeated introspection is measured once.
 * (A document is validated against one schema, a gateway's.)
 */
const sizes = new WeakMap<OperationDefinitionNode, number>();

/** The size of the operation's introspection on `schema` (Infinity when past reckoning), and the ceiling it is held to. */
export function introspectionSize(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): { values: number; ceiling: number } {
  const ceiling = ceilingOf(schema);
  let values = sizes.get(operation);
  if (values === undefined) sizes.set(operation, (values = measureIntrospection(schema, operation, fragments, ceiling)));
  return { values, ceiling };
}
