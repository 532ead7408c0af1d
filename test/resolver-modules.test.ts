import { readFileSync } from 'node:fs';
import { GraphQLScalarType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { RESOLVER_MODULES_FILE, resolverModulesSource } from '../scripts/resolver-modules.js';
import { resolverModules } from '../src/__generated__/resolver-modules.js';
import { declared } from '../src/fields/declaration.js';
import { assembleResolvers, resolvers } from '../src/resolvers/index.js';
import { buildSchemaFromFiles } from '../src/schema/sdl.js';

describe('resolver map assembled from the domain folders', () => {
  it('lists every module that exports resolvers (run `npm run codegen` after adding or removing one)', () => {
    expect(readFileSync(RESOLVER_MODULES_FILE, 'utf8'), `${RESOLVER_MODULES_FILE} is stale`).toBe(resolverModulesSource());
  });

  it('holds every field of every module, the same function', () => {
    const map = resolvers as Record<string, Record<string, unknown>>;
    for (const { path, resolvers: moduleMap } of resolverModules) {
      for (const [typeName, typeResolvers] of Object.entries(moduleMap as Record<string, Record<string, unknown>>)) {
        if (typeResolvers instanceof GraphQLScalarType) {
          expect(map[typeName], `${typeName} from ${path}`).toBe(typeResolvers);
          continue;
        }
        for (const [field, resolver] of Object.entries(typeResolvers))
          expect(map[typeName]?.[field], `${typeName}.${field} from ${path}`).toBe(resolver);
      }
    }
  });

  it('resolves only types and fields the schema has', () => {
    const schema = buildSchemaFromFiles();
    const unknown = Object.entries(resolvers as Record<string, object>).flatMap(([typeName, typeResolvers]) => {
      const type = schema.getType(typeName);
      if (type === undefined || type === null) return [typeName];
      if (typeResolvers instanceof GraphQLScalarType || !('getFields' in type)) return [];
      const fields = type.getFields();
      return Object.keys(typeResolvers)
        .filter((field) => !field.startsWith('__') && !(field in fields))
        .map((field) => `${typeName}.${field}`);
    });
    expect(unknown).toEqual([]);
  });

  it('refuses a field two modules define, naming both', () => {
    const wikis = { path: 'wikis/Project.ts', resolvers: { Project: { wikiPage: () => null } } };
    const other = { path: 'other/Project.ts', resolvers: { Project: { wikiPage: () => null } } };
    expect(() => assembleResolvers([wikis, other])).toThrow(
      'Project.wikiPage is resolved by both src/resolvers/wikis/Project.ts and src/resolvers/other/Project.ts',
    );
  });

  it('refuses a scalar two modules define, and merges distinct fields of one type', () => {
    const time = new GraphQLScalarType({ name: 'Time' });
    expect(() =>
      assembleResolvers([
        { path: 'a.ts', resolvers: { Time: time } },
        { path: 'b.ts', resolvers: { Time: time } },
      ]),
    ).toThrow('Time is resolved by both');
    const merged = assembleResolvers([
      { path: 'a.ts', resolvers: { Project: { wikiPage: () => null } } },
      { path: 'b.ts', resolvers: { Project: { board: () => null } } },
    ]) as Record<string, Record<string, unknown>>;
    expect(Object.keys(merged.Project ?? {}).sort()).toEqual(['board', 'wikiPage']);
  });

  it('refuses a resolver that takes the context without declaring what it calls, naming it', () => {
    const undeclared = { path: 'keys/Project.ts', resolvers: { Project: { deployKeys: (_project: unknown, _args: unknown, _context: unknown) => null } } };
    expect(() => assembleResolvers([undeclared])).toThrow('Project.deployKeys (src/resolvers/keys/Project.ts) takes the context but declares no cost');
    const subscribe = (_root: unknown, _args: unknown, _context: unknown) => null;
    const subscription = { path: 's.ts', resolvers: { Subscription: { issuableLabelsUpdated: { subscribe } } } } as never;
    expect(() => assembleResolvers([subscription])).toThrow('Subscription.issuableLabelsUpdated (src/resolvers/s.ts)');
  });

  it('assembles declared resolvers, resolvers that answer from their parent, and type resolution', () => {
    const merged = assembleResolvers([
      {
        path: 'a.ts',
        resolvers: {
          Project: { deployKeys: declared({ calls: 1, rest: ['GET /projects/:id/deploy_keys'] }, (_project: unknown, _args: unknown, _context: unknown) => null), name: (project: { name: string }) => project.name },
          Node: { __resolveType: (_node: unknown, _context: unknown, _info: unknown) => 'Project' },
        },
      } as never,
    ]) as Record<string, Record<string, unknown>>;
    expect(Object.keys(merged.Project ?? {}).sort()).toEqual(['deployKeys', 'name']);
    expect(typeof merged.Node?.__resolveType).toBe('function');
  });
});
