import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { badUserInput, UpstreamShapeError } from '../../errors/graphql-errors.js';
import type { Resolvers } from '../../__generated__/resolvers-types.js';

function wholeNumber(value: unknown): number {
  const number = typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number)) {
    throw badUserInput(`BigInt must be a whole number, as a string such as "1024"; got ${JSON.stringify(value)}.`);
  }
  return number;
}

/** GitLab's `BigInt`: a whole number that may exceed 32 bits, sent as a string (artifact sizes). */
const BigIntScalar = new GraphQLScalarType<number, string>({
  name: 'BigInt',
  description: 'A whole number that may exceed 32 bits, sent as a string: GitLab\'s `BigInt` scalar.',
  serialize: (value) => {
    // REST sends numbers; anything else is the upstream's fault, not the caller's.
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new UpstreamShapeError(`a whole number of ${JSON.stringify(value)}`);
    return String(value);
  },
  parseValue: wholeNumber,
  parseLiteral: (node: ValueNode) => wholeNumber(node.kind === Kind.STRING || node.kind === Kind.INT ? node.value : undefined),
});

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { BigInt: BigIntScalar };
