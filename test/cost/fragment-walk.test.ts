import { describe, expect, it } from 'vitest';
import { Kind, parse, print, validate, visit, type DocumentNode, type FragmentDefinitionNode, type InlineFragmentNode } from 'graphql';
import { estimateRestCalls } from '../../src/cost/estimate.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { branchingQuery, doublingParentsQuery, doublingQuery } from '../support/fragment-shapes.js';

const schema = createExecutableSchema();

/** The estimate of a freshly parsed document (so no remembered estimate answers), and the selections its walk visited. */
function estimate(query: string, batching = true): { calls: number; units: number } {
  const document = parse(query);
  expect(validate(schema, document)).toEqual([]);
  const meter = { units: 0 };
  const calls = estimateRestCalls(schema, { document }, { batching, meter });
  return { calls, units: meter.units };
}

/** The same operation with every fragment spread written out as an inline fragment: what the walk must agree with. */
function writtenOut(query: string): string {
  const document = parse(query);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const expanded: DocumentNode = visit(document, {
    FragmentDefinition: () => null,
    // visit() walks into what replaces a node, so spreads inside the fragment are written out too.
    FragmentSpread: (spread): InlineFragmentNode => {
      const fragment = fragments.get(spread.name.value)!;
      return { kind: Kind.INLINE_FRAGMENT, typeCondition: fragment.typeCondition, directives: spread.directives ?? [], selectionSet: fragment.selectionSet };
    },
  });
  return print(expanded);
}

describe('the REST-call estimate of fragments (issue 15)', () => {
  it.each([
    ['doubling at one level', doublingQuery],
    ['doubling under two parent fields', doublingParentsQuery],
    ['branching into parent and subgroups', branchingQuery],
  ])('does work linear in the fragments for %s', (_shape, query) => {
    const [twenty, forty, sixty] = [20, 40, 60].map((fragments) => estimate(query(fragments)).units);
    expect(sixty! - forty!).toBe(forty! - twenty!);
    // Collecting a fragment's two selections, and its fields once per form of the record they are on.
    expect(sixty! - forty!).toBeLessThanOrEqual(20 * 14);
  });

  it('estimates the issue\'s query at the one call it makes, in 2 units per fragment', () => {
    for (const batching of [true, false]) {
      expect(estimate(doublingQuery(20), batching)).toEqual({ calls: 1, units: 43 });
      expect(estimate(doublingQuery(40), batching)).toEqual({ calls: 1, units: 83 });
      expect(estimate(doublingQuery(60), batching)).toEqual({ calls: 1, units: 123 });
    }
  });

  it('counts a field asked twice under one response key once, as execution runs it once', () => {
    // The group, then one `parent` per fragment: graphql-js merges the two and their selections.
    expect(estimate(doublingParentsQuery(20)).calls).toBe(1 + 20);
    expect(estimate('{ currentUser { username } currentUser { name } }').calls).toBe(1);
    // Different response keys run apart, and each counts.
    expect(estimate('{ a: currentUser { username } b: currentUser { name } }').calls).toBe(2);
  });

  it.each([1, 2, 3, 4])('gives %i fragments the estimate of the same operation written out without them', (fragments) => {
    for (const query of [doublingQuery(fragments), doublingParentsQuery(fragments), branchingQuery(fragments)]) {
      for (const batching of [true, false]) expect(estimate(query, batching).calls).toBe(estimate(writtenOut(query), batching).calls);
    }
  });
});
