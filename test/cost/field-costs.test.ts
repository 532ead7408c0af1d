import { describe, expect, it } from 'vitest';
import { getNamedType, isObjectType, type GraphQLNamedType, type GraphQLObjectType } from 'graphql';
import { costOf, declaredCost } from '../../src/cost/estimate.js';
import { FULL_RECORD_LOADERS } from '../../src/resolvers/full-records.js';
import { createExecutableSchema } from '../../src/schema/executable.js';

// The estimate is conservative by construction only while every resolver that can call REST has
// declared its cost: the resolver map refuses to assemble otherwise (test/resolver-modules.test.ts);
// these checks cover what the declarations must say.
const schema = createExecutableSchema();
const objectTypes = Object.values(schema.getTypeMap()).filter((type): type is GraphQLObjectType => isObjectType(type) && !type.name.startsWith('__'));
const fields = objectTypes.flatMap((type) => Object.values(type.getFields()).map((field) => ({ type, field, key: `${type.name}.${field.name}` })));

/** A list's or connection's item type, or the type itself. */
function itemType(type: GraphQLNamedType): GraphQLNamedType {
  if (!isObjectType(type) || !type.name.endsWith('Connection')) return type;
  const nodes = type.getFields()['nodes'];
  return nodes ? getNamedType(nodes.type) : type;
}

describe('the reviewed REST costs of fields', () => {
  it('says what records come back wherever their form decides what their fields cost', () => {
    // Types whose fields read a fuller record when the one at hand lacks a key.
    const formSensitive = new Set(Object.keys(FULL_RECORD_LOADERS));
    for (const { type, field } of fields) {
      const cost = declaredCost(type.name, field.name);
      if (cost?.reads || cost?.unlessParentHas) formSensitive.add(type.name);
    }
    const unsaid = fields.filter(({ type, field }) => formSensitive.has(itemType(getNamedType(field.type)).name) && declaredCost(type.name, field.name)?.returns === undefined);
    // Connections' own `nodes` and `edges.node` pass on the form their field said.
    expect(unsaid.map(({ key }) => key).filter((key) => !/Connection\.nodes$|Edge\.node$/.test(key))).toEqual([]);
  });

  it('charges a resolver that answers from its parent nothing, and a field an embedder adds one call', () => {
    const type = (name: string) => schema.getType(name) as GraphQLObjectType;
    expect(costOf(type('CiRunner'), type('CiRunner').getFields()['paused']!)).toEqual({});
    const extended = createExecutableSchema({ typeDefs: 'extend type Query { bffInfo: String }', resolvers: { Query: { bffInfo: () => 'x' } } });
    const query = extended.getQueryType()!;
    expect(costOf(query, query.getFields()['bffInfo']!)).toEqual({ calls: 1 });
  });
});
