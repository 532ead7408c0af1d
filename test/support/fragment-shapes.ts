// Documents that are small as text and huge once every fragment spread is written out: the shapes
// of issue 15's anonymous denial of service. Each one is `fragments` fragments, the first asking
// `leaf`, each of the others asking the one before it twice, and an operation asking the last.
// Written out, the document holds 2^fragments copies of `leaf`; a walk that expands every spread on
// every path does that much work before any REST call.

/** The fragments F0..F`fragments` on `type` and an operation `{ ...F<fragments> }` wrapped by `operation`. */
function fragmentChain(fragments: number, type: string, leaf: string, twice: (previous: string) => string, operation: (last: string) => string): string {
  const definitions = [`fragment F0 on ${type} { ${leaf} }`];
  for (let index = 1; index <= fragments; index += 1) definitions.push(`fragment F${index} on ${type} { ${twice(`...F${index - 1}`)} }`);
  return `${definitions.join('\n')}\nquery ${operation(`...F${fragments}`)}`;
}

/** The issue's query: `...F(n-1) ...F(n-1)` at one level, down to `currentUser { username }`. One REST call. */
export function doublingQuery(fragments: number): string {
  return fragmentChain(fragments, 'Query', 'currentUser { username }', (previous) => `${previous} ${previous}`, (last) => `{ ${last} }`);
}

/** Each fragment asks `parent` twice, both times for the one before it: a chain of `fragments` parents, as execution merges the two. */
export function doublingParentsQuery(fragments: number, fullPath = 'gitlab-org/frontend'): string {
  return fragmentChain(fragments, 'Group', 'name', (previous) => `parent { ${previous} } parent { ${previous} }`, (last) => `{ group(fullPath: "${fullPath}") { ${last} } }`);
}

/** Each fragment asks for the one before it on two different fields: a real tree, 2^fragments paths that share every fragment. */
export function branchingQuery(fragments: number, fullPath = 'gitlab-org/frontend'): string {
  return fragmentChain(fragments, 'Group', 'name', (previous) => `parent { ${previous} } subgroups { nodes { ${previous} } }`, (last) => `{ group(fullPath: "${fullPath}") { ${last} } }`);
}

/** The doubling shape around a group's subgroup list: what the lookahead reads on `group(fullPath:)`. */
export function doublingSubgroupsQuery(fragments: number, fullPath: string): string {
  return fragmentChain(fragments, 'Group', 'subgroups { nodes { name } }', (previous) => `${previous} ${previous}`, (last) => `{ group(fullPath: "${fullPath}") { ${last} } }`);
}
