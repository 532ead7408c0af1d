import { readFileSync } from 'node:fs';
import type { GraphQLScalarType} from 'graphql';
import { GraphQLError, Kind } from 'graphql';
import { describe, expect, it } from 'vitest';
import { typeDefs } from '../../src/schema/executable.js';
import { GLOBAL_ID_SCALAR_CLASSES, globalIdScalars, type GlobalIdScalarName } from '../../src/resolvers/global-id-scalars.js';

const referenceSdl = readFileSync(new URL('../fixtures/gitlab-graphql/gitlab-graphql-subset.graphql', import.meta.url), 'utf8');
const referenceScalars = [...referenceSdl.matchAll(/^scalar (\w+)$/gm)].map((match) => match[1] ?? '');

function codeOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error instanceof GraphQLError ? error.extensions['code'] : error;
  }
  return 'accepted';
}

describe("GitLab's global ID scalars", () => {
  it('declares in the SDL exactly the scalars it implements', () => {
    const declared = [...typeDefs.matchAll(/^scalar (\w+ID)$/gm)].map((match) => match[1]).sort();
    expect(declared).toEqual(Object.keys(GLOBAL_ID_SCALAR_CLASSES).sort());
  });

  it("covers every ID scalar of GitLab's reference for the covered domains that the gateway has a source for", () => {
    const ours = new Set(Object.keys(GLOBAL_ID_SCALAR_CLASSES));
    // Premium-only or unsourced classes: iterations, epics' own boards, cadences.
    const unsourced = new Set(['EpicID', 'IterationID', 'IterationsCadenceID']);
    expect(referenceScalars.filter((name) => name.endsWith('ID') && !ours.has(name) && !unsourced.has(name))).toEqual([]);
  });

  it.each(Object.entries(GLOBAL_ID_SCALAR_CLASSES) as Array<[GlobalIdScalarName, readonly string[]]>)(
    '%s reads the IDs of its classes, as variables and as literals, and refuses others as BAD_USER_INPUT',
    (name, classes) => {
      const scalar: GraphQLScalarType = globalIdScalars[name];
      for (const className of classes) {
        const id = `gid://gitlab/${className}/42`;
        expect(scalar.parseValue(id)).toBe(id);
        expect(scalar.parseLiteral({ kind: Kind.STRING, value: id })).toBe(id);
        expect(scalar.serialize(id)).toBe(id);
      }
      const foreign = name === 'UserID' ? 'gid://gitlab/Project/1' : 'gid://gitlab/User/1';
      expect(codeOf(() => scalar.parseValue(foreign))).toBe('BAD_USER_INPUT');
      expect(codeOf(() => scalar.parseValue('42'))).toBe('BAD_USER_INPUT');
      expect(codeOf(() => scalar.parseValue(42))).toBe('BAD_USER_INPUT');
      expect(codeOf(() => scalar.parseValue(`gid://gitlab/${classes[0]}/${'9'.repeat(300)}`))).toBe('BAD_USER_INPUT');
      expect(codeOf(() => scalar.parseLiteral({ kind: Kind.INT, value: '42' }))).toBe('BAD_USER_INPUT');
    },
  );
});
