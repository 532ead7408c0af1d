import { makeExecutableSchema, type IExecutableSchemaDefinition } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import type { GatewayContext } from '../context.js';
import { resolvers } from '../resolvers/index.js';
import { FULL_RECORD_LOADERS } from '../resolvers/full-records.js';
import { enableLookahead } from '../resolvers/lookahead.js';
import { installRecordFieldResolvers } from '../resolvers/record-fields.js';
import { restEnumValues } from './enum-values.js';
import { buildSchemaFromFiles, readTypeDefs } from './sdl.js';

/** The gateway's SDL as one document, and its resolvers, for embedders who merge their own. */
export const typeDefs = readTypeDefs();
export { resolvers };

/**
 * An embedder's own part of the schema: SDL (new types, `extend type Query { ... }`) and its
 * resolvers, which receive the gateway's context (its loaders, its REST data sources).
 */
export interface SchemaExtension {
  typeDefs: IExecutableSchemaDefinition<GatewayContext>['typeDefs'];
  resolvers?: IExecutableSchemaDefinition<GatewayContext>['resolvers'];
}

/**
 * The executable schema: the SDL files, the resolver map, enums carrying REST's values, and every
 * remaining field reading its REST field; plus an embedder's extension, held to the same rules
 * (every resolver must match a field). The REST enum values apply to the gateway's enums only.
 */
export function createExecutableSchema(extension?: SchemaExtension): GraphQLSchema {
  const enumResolvers = restEnumValues(buildSchemaFromFiles());
  const extraResolvers = extension?.resolvers ?? [];
  const schema = makeExecutableSchema({
    typeDefs: extension ? [typeDefs, extension.typeDefs] : typeDefs,
    resolvers: [enumResolvers, resolvers, ...(Array.isArray(extraResolvers) ? extraResolvers : [extraResolvers])],
    resolverValidationOptions: { requireResolversToMatchSchema: 'error' },
  });
  installRecordFieldResolvers(schema, FULL_RECORD_LOADERS);
  enableLookahead(schema, resolvers, extraResolvers);
  return schema;
}
