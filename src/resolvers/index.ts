import { GraphQLScalarType } from 'graphql';
import type { Resolvers } from '../__generated__/resolvers-types.js';
import { resolverModules } from '../__generated__/resolver-modules.js';
import { declarationOf } from '../fields/declaration.js';

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
        if (!field.startsWith('__')) assertDeclaredIfItCanCall(`${typeName}.${field}`, path, resolver);
        merged[field] = resolver;
      }
    }
  }
  return map;
}

/**
 * A resolver reaches REST only through the context, its third parameter: one that takes it must
 * say what it calls (`declared`, src/fields/), so that the cost estimate reads every field's cost
 * from its declaration and charges an undeclared resolver nothing (it answers from its parent and
 * arguments). Checked here, once, when the map is assembled: a module that forgets fails at start,
 * naming the field, instead of the estimate quietly guessing.
 * (`__resolveType` and `__isTypeOf` are the schema's, not fields: they are not checked.)
 */
function assertDeclaredIfItCanCall(key: string, path: string, resolver: unknown): void {
  for (const resolve of resolverFunctions(resolver)) {
    if (resolve.length < 3 || declarationOf(resolve) !== undefined) continue;
    throw new Error(`${key} (src/resolvers/${path}) takes the context but declares no cost: wrap it in declared({ calls, rest }, ...) (src/fields/declaration.ts)`);
  }
}

type AnyFunction = (...args: never[]) => unknown;

/** A field's functions: the resolver, or a subscription's `subscribe` and `resolve`. */
function resolverFunctions(resolver: unknown): AnyFunction[] {
  if (typeof resolver === 'function') return [resolver as AnyFunction];
  if (typeof resolver !== 'object' || resolver === null) return [];
  const { subscribe, resolve } = resolver as { subscribe?: unknown; resolve?: unknown };
  return [subscribe, resolve].filter((part): part is AnyFunction => typeof part === 'function');
}

export const resolvers: Resolvers = assembleResolvers(resolverModules);
