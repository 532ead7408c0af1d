import { makeExecutableSchema, type IExecutableSchemaDefinition } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import type { GatewayContext } from '../server/context.js';
import { resolvers } from '../resolvers/index.js';
import { FULL_RECORD_LOADERS } from '../resolvers/full-records.js';
import { enableLookahead } from '../resolvers/lookahead.js';
import { installRecordFieldResolvers } from '../resolvers/record-fields.js';
import { declarationOf } from '../fields/declaration.js';
import { restEnumValuesOfDocument } from './enum-values.js';
import { gatewayDocument, gatewayTypeDefs } from './sdl.js';

/** The gateway's SDL as one document, and its resolvers, for embedders who merge their own. */
export const typeDefs = gatewayTypeDefs();
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
  // One build, from the SDL parsed once (sdl.ts), with the resolvers: its enums get REST's values
  // from tables read off the same document. makeExecutableSchema merges the files' `extend type`
  // blocks into their types, as it always has, so the order of types and fields, as served and
  // printed, stays that of the merge. The SDL ships with the package and is validated where it is
  // written (buildSchemaFromFiles, in the schema tests and codegen), so a start does not validate
  // it again: a quarter of the schema's garbage. An extension's SDL is validated, with the gateway's.
  // Building a schema first only to read its enums cost some 2 MB more garbage at start, which
  // RSS kept (docs/performance.md, "Memory").
  const document = gatewayDocument();
  const extraResolvers = extension?.resolvers ?? [];
  const schema = makeExecutableSchema({
    typeDefs: extension ? [document, extension.typeDefs] : document,
    assumeValidSDL: !extension,
    resolvers: [restEnumValuesOfDocument(document), resolvers, ...(Array.isArray(extraResolvers) ? extraResolvers : [extraResolvers])],
    resolverValidationOptions: { requireResolversToMatchSchema: 'error' },
    // The schema is built here for this call alone, so the resolvers go into it: otherwise
    // addResolversToSchema copies the whole schema, a peak of garbage that RSS keeps after start.
    updateResolversInPlace: true,
  });
  const own = resolvers as Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>;
  const overridden = (typeName: string, fieldName: string) =>
    ([] as Array<Readonly<Record<string, unknown>>>).concat(extraResolvers as never).some((map) => (map[typeName] as Record<string, unknown> | undefined)?.[fieldName] !== undefined);
  installRecordFieldResolvers(schema, FULL_RECORD_LOADERS, (typeName, fieldName) => declarationOf(own[typeName]?.[fieldName])?.readsRecord === true && !overridden(typeName, fieldName));
  enableLookahead(schema, resolvers, extraResolvers);
  return schema;
}
