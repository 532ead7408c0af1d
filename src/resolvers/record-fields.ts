import { defaultFieldResolver, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import type { GatewayContext } from '../server/context.js';

/** Loads the full REST record of an object whose embedded record lacks a field. */
export type FullRecordLoader = (parent: { id: number }, context: GatewayContext) => Promise<object>;

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function own(record: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key);
}

/**
 * Whether `parent` is one of the gateway's own objects whose class answers `name` (a connection's
 * `edges`, a page's cursors: getters on the prototype, connections/connection.ts). A REST record is
 * JSON, whose only prototype is Object.prototype, whose members no field is named after.
 */
function classAnswers(parent: object, name: string): boolean {
  const prototype: unknown = Object.getPrototypeOf(parent);
  return prototype !== Object.prototype && prototype !== null && name in parent;
}

/**
 * Reads a REST field for a GraphQL field, from the parent record when it has it, otherwise from
 * the full record (fetched once per request through the type's loader). This is how an embedded
 * project or user answers any field without a resolver per field.
 */
export function readRecordField(
  parent: { id: number },
  key: string,
  context: GatewayContext,
  loadFull: FullRecordLoader | undefined,
): Promise<unknown> {
  if (own(parent, key)) return Promise.resolve((parent as Record<string, unknown>)[key]);
  if (!loadFull) return Promise.resolve(null);
  // A `then`, not an async function: a page reads three detail fields of each of 100 runners this
  // way, and an async function's frame per read was 2% of the fleet page's garbage.
  return loadFull(parent, context).then((full) => (full as Record<string, unknown>)[key] ?? null);
}

/**
 * Gives every field without an explicit resolver the REST reading: `fooBar` reads `foo_bar` from
 * the parent record, or `fooBar` when the parent is one of the gateway's own objects (payloads,
 * connections, whose class may answer it from a getter). Types listed in `fullRecords` fetch their
 * full record when the parent lacks the field. A field declared with `recordField`
 * (src/fields/patterns.ts) reads the same way: its resolver only carried its cost
 * (`declaredRecordField` names them: the schema holds bound copies of the resolvers, which carry no
 * declaration). Snake_case never reaches the schema, and no resolver maps fields by hand.
 */
export function installRecordFieldResolvers(
  schema: GraphQLSchema,
  fullRecords: Readonly<Record<string, FullRecordLoader>>,
  declaredRecordField: (typeName: string, fieldName: string) => boolean = () => false,
): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    const loadFull = fullRecords[type.name];
    for (const field of Object.values(type.getFields())) {
      if (field.resolve && field.resolve !== defaultFieldResolver && !declaredRecordField(type.name, field.name)) continue;
      const key = snakeCase(field.name);
      const resolve: GraphQLFieldResolver<Record<string, unknown>, GatewayContext> = (parent, _args, context) => {
        if (own(parent, key)) return parent[key];
        if (key !== field.name && own(parent, field.name)) return parent[field.name];
        if (classAnswers(parent, field.name)) return parent[field.name];
        if (loadFull && typeof parent['id'] === 'number') {
          return readRecordField(parent as { id: number }, key, context, loadFull);
        }
        return null;
      };
      field.resolve = resolve;
    }
  }
}
