import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The layering docs/development.md's Layout section promises, held by a test so that it cannot drift:
// every file's layer is its folder, no module imports another that imports it back (directly or
// round a longer loop, through the generated resolver types too), the records those types import
// stand on the data sources alone, and the data sources stay free of GraphQL.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const sourceRoot = join(root, 'src');

function typeScriptFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The relative specifiers of static `import`/`export ... from` (type-only ones too) and `import('...')`. */
function relativeSpecifiers(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((match) => match[1] ?? '');
}

/** The files of src/ that a file imports. */
function localImports(file: string): string[] {
  const targets = relativeSpecifiers(readFileSync(file, 'utf8')).map((specifier) => resolve(dirname(file), specifier).replace(/\.js$/, '.ts'));
  return targets.filter((target) => existsSync(target));
}

/** Every strongly connected group of two or more modules (Tarjan), each a loop of imports. */
function importLoops(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (module: string): void => {
    order.set(module, order.size);
    lowest.set(module, order.get(module) ?? 0);
    stack.push(module);
    onStack.add(module);
    for (const next of graph.get(module) ?? []) {
      if (!order.has(next)) {
        visit(next);
        lowest.set(module, Math.min(lowest.get(module) ?? 0, lowest.get(next) ?? 0));
      } else if (onStack.has(next)) {
        lowest.set(module, Math.min(lowest.get(module) ?? 0, order.get(next) ?? 0));
      }
    }
    if (lowest.get(module) !== order.get(module)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      group.push(member);
    } while (member !== module);
    if (group.length > 1) loops.push(group.map((path) => relative(root, path)).sort());
  };
  for (const module of graph.keys()) if (!order.has(module)) visit(module);
  return loops;
}

describe('module layout', () => {
  const files = typeScriptFiles(sourceRoot);
  const graph = new Map(files.map((file) => [file, localImports(file)]));

  it('sees the imports it checks', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(graph.get(join(sourceRoot, 'server/services.ts'))).toContain(join(sourceRoot, 'server/context.ts'));
    // The generated resolver types import their context and records: the edges that once closed a loop.
    expect(graph.get(join(sourceRoot, '__generated__/resolvers-types.ts'))).toEqual(
      expect.arrayContaining([join(sourceRoot, 'server/context.ts'), join(sourceRoot, 'records/commits.ts')]),
    );
  });

  it('reads type-only, multi-line and re-exporting imports', () => {
    const text = [
      "import type {\n  A,\n  B,\n} from './a.js';",
      "export type { C } from '../c.js';",
      "export * from './d.js';",
      "const e = await import('./e.js');",
      "import { f } from 'graphql';",
    ].join('\n');
    expect(relativeSpecifiers(text)).toEqual(['./a.js', '../c.js', './d.js', './e.js']);
  });

  it('keeps only the entry points loose at src/: every other file sits in the folder of its layer', () => {
    const loose = readdirSync(sourceRoot, { withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name);
    expect(loose.sort()).toEqual(['index.ts', 'main.ts']);
  });

  it('has no loop of imports, type-only ones included', () => {
    expect(importLoops(graph)).toEqual([]);
  });

  it('finds a loop when there is one (the check is not blind)', () => {
    const loop = new Map([
      [join(root, 'a.ts'), [join(root, 'b.ts')]],
      [join(root, 'b.ts'), [join(root, 'c.ts')]],
      [join(root, 'c.ts'), [join(root, 'a.ts')]],
      [join(root, 'd.ts'), [join(root, 'a.ts')]],
    ]);
    expect(importLoops(loop)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('builds the records GraphQL types map to on the data sources alone, so that the generated types close no loop', () => {
    const layers = [join(sourceRoot, 'datasources'), join(sourceRoot, 'records')];
    const outside = files
      .filter((file) => file.startsWith(join(sourceRoot, 'records')))
      .flatMap((file) => (graph.get(file) ?? []).filter((target) => !layers.some((layer) => target.startsWith(layer + '/'))).map((target) => `${relative(root, file)} -> ${relative(root, target)}`));
    expect(outside).toEqual([]);
  });

  it('keeps GraphQL out of the data sources', () => {
    const withGraphql = files
      .filter((file) => file.startsWith(join(sourceRoot, 'datasources')))
      .filter((file) => /from '(?:graphql|@apollo\/)/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(withGraphql).toEqual([]);
  });
});
