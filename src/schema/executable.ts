import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { resolvers } from '../resolvers/index.js';
import { FULL_RECORD_LOADERS } from '../resolvers/full-records.js';
import { installRecordFieldResolvers } from '../resolvers/record-fields.js';
import { restEnumValues } from './enum-values.js';
import { buildSchemaFromFiles, readTypeDefs } from './sdl.js';

/** The gateway's SDL as one document, and its resolvers, for embedders who merge their own. */
export const typeDefs = readTypeDefs();
export { resolvers };

/**
 * The executable schema: the SDL files, the resolver map, enums carrying REST's values, and every
 * remaining field reading its REST field.
 */
export function createExecutableSchema(): GraphQLSchema {
  const enumResolvers = restEnumValues(buildSchemaFromFiles());
  const schema = makeExecutableSchema({
    typeDefs,
    resolvers: [enumResolvers, resolvers],
    resolverValidationOptions: { requireResolversToMatchSchema: 'error' },
  });
  installRecordFieldResolvers(schema, FULL_RECORD_LOADERS);
  return schema;
}
