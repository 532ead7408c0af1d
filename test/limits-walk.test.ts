import { describe, expect, it } from 'vitest';
import { Kind, parse, validate, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { measureOperation } from '../src/policy/limits.js';
import { createExecutableSchema } from '../src/schema/executable.js';
import { branchingQuery, doublingParentsQuery, doublingQuery } from './support/fragment-shapes.js';

const schema = createExecutableSchema();

/** The counts of a document's one operation, and the selections the walk visited to get them. */
function measure(query: string) {
  const document = parse(query);
  expect(validate(schema, document)).toEqual([]);
  const fragments = new Map<string, FragmentDefinitionNode>();
  let operation: OperationDefinitionNode | undefined;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    else if (definition.kind === Kind.OPERATION_DEFINITION) operation = definition;
  }
  const meter = { units: 0 };
  const counts = measureOperation(operation!, fragments, meter);
  return { ...counts, units: meter.units };
}

describe('the walk behind the depth, alias and directive limits (issue 15)', () => {
  it.each([
    ['doubling at one level', doublingQuery],
    ['doubling under two parent fields', doublingParentsQuery],
    ['branching into parent and subgroups', branchingQuery],
  ])('does work linear in the fragments for %s', (_shape, query) => {
    const [twenty, forty, sixty] = [20, 40, 60].map((fragments) => measure(query(fragments)).units);
    // Each fragment adds the same work: its own selections, once.
    expect(sixty! - forty!).toBe(forty! - twenty!);
    expect(sixty! - forty!).toBeLessThanOrEqual(20 * 7);
  });

  it('measures the issue\'s query as written: 2 deep, no alias, no directive, in 2 units per fragment', () => {
    expect(measure(doublingQuery(20))).toEqual({ depth: 2, aliases: 0, directives: 0, units: 43 });
    expect(measure(doublingQuery(40))).toEqual({ depth: 2, aliases: 0, directives: 0, units: 83 });
    expect(measure(doublingQuery(60))).toEqual({ depth: 2, aliases: 0, directives: 0, units: 123 });
  });

  it('counts depth through every fragment', () => {
    // `group` and 20 `parent`s, then `name`.
    expect(measure(doublingParentsQuery(20)).depth).toBe(22);
    expect(measure(branchingQuery(20)).depth).toBe(2 + 2 * 20);
  });

  it('counts an alias once per field that runs it: a fragment spread twice at one level runs once, under two fields twice', () => {
    const aliasedLeaf = doublingQuery(20).replace('currentUser { username }', 'me: currentUser { login: username }');
    expect(measure(aliasedLeaf).aliases).toBe(2);
    const twoParents = 'fragment Named on Group { title: name } { group(fullPath: "gitlab-org/frontend") { a: parent { ...Named } b: parent { ...Named ...Named } } }';
    expect(measure(twoParents).aliases).toBe(2 + 2);
  });

  it('counts directives the same way, those on spreads included', () => {
    const query = 'fragment Named on Group { name @include(if: true) } { group(fullPath: "gitlab-org/frontend") { parent { ...Named @skip(if: false) ...Named @skip(if: false) } subgroups @include(if: true) { nodes { ...Named } } } }';
    // Two on the spreads, the fragment's own once under parent and once under subgroups' nodes, one on subgroups.
    expect(measure(query).directives).toBe(2 + 2 + 1);
  });
});
