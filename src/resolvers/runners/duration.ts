import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { badUserInput, UpstreamShapeError } from '../../errors/graphql-errors.js';
import type { Resolvers } from '../../__generated__/resolvers-types.js';

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

/**
 * REST's seconds as one of GitLab's `Int` durations (`CiJob.duration`, `Pipeline.duration`). GitLab
 * resolves them to a Float (`Ci::Build#duration` is `finished_at - started_at`) and graphql-ruby's
 * `Int.coerce_result` calls Ruby's `to_i`, which truncates toward zero: 450.557 s is 450, not 451.
 * Null for anything but a finite number (a job that has not finished).
 */
export function wholeSeconds(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : null;
}

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Duration };
