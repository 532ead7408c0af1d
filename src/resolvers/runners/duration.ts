import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { badUserInput, UpstreamShapeError } from '../../errors/graphql-errors.js';

function seconds(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw badUserInput(`Duration must be a number of seconds, not negative; got ${JSON.stringify(value)}.`);
  }
  return value;
}

/** GitLab's `Duration`: seconds, possibly fractional (REST's `queued_duration`, say). */
export const Duration = new GraphQLScalarType<number, number>({
  name: 'Duration',
  description: 'Seconds, possibly fractional: GitLab\'s `Duration` scalar.',
  serialize: (value) => {
    // REST sends numbers; anything else is the upstream's fault, not the caller's.
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new UpstreamShapeError(`a duration of ${JSON.stringify(value)}`);
    return value;
  },
  parseValue: seconds,
  parseLiteral: (node: ValueNode) => seconds(node.kind === Kind.FLOAT || node.kind === Kind.INT ? Number(node.value) : undefined),
});
