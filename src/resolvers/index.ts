import { GraphQLScalarType } from 'graphql';
import type { Resolvers } from '../__generated__/resolvers-types.js';
import { resolverModules } from '../__generated__/resolver-modules.js';

// The resolver map is assembled from the `resolvers` export of each module of the domain folders
// (listed by scripts/resolver-modules.ts), so that adding a field touches only the module that
// resolves it. A type without resolvers is still a decision: its fields read their REST field (see
// record-fields.ts), and enums get their REST values from the schema (see schema/enum-values.ts).
// Scalars (Time, Date, Upload, the global ID scalars, Duration, BigInt, ISO8601Date) are modules'
// `resolvers` too.

type ModuleResolvers = { readonly path: string; readonly resolvers: Resolvers };

/**
 * Merges the modules' maps type by type. A field (or scalar) that two modules define would
 * silently shadow one of them, so it is an error at start that names both modules.
 */
export function assembleResolvers(modules: readonly ModuleResolvers[]): Resolvers {
  const map: Record<string, unknown> = {};
  const owners = new Map<string, string>();
  const claim = (key: string, path: string): void => {
    const owner = owners.get(key);
    if (owner !== undefined) throw new Error(`${key} is resolved by both src/resolvers/${owner} and src/resolvers/${path}`);
    owners.set(key, path);
  };
  for (const { path, resolvers: moduleMap } of modules) {
    for (const [typeName, typeResolvers] of Object.entries(moduleMap as Record<string, unknown>)) {
      if (typeResolvers instanceof GraphQLScalarType) {
        claim(typeName, path);
        map[typeName] = typeResolvers;
        continue;
      }
      const merged = (map[typeName] ??= {}) as Record<string, unknown>;
      for (const [field, resolver] of Object.entries(typeResolvers as Record<string, unknown>)) {
        claim(`${typeName}.${field}`, path);
        merged[field] = resolver;
      }
    }
  }
  return map;
}

export const resolvers: Resolvers = assembleResolvers(resolverModules);
