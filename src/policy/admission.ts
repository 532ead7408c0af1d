import type { GraphQLSchema } from 'graphql';
import { checkOperation, checkQueryLength, checkRequestQueries, type OperationRequest, type QueryLimits } from './limits.js';

/**
 * The checks an operation passes before it runs: one pipeline, which every way in calls at the
 * same two points, so that HTTP (single and batched), a BFF's own mount of `apollo`, persisted
 * queries and WebSocket cannot drift apart (they did: batches skipped the text checks, issue 27).
 *
 * 1. `beforeParsing`: the query text as it arrived, its length and bracket nesting, and a batch's
 *    length: parsing a huge or deeply nested text is itself the cost, or the crash, to avoid.
 * 2. `beforeExecution`: the parsed and validated operation, before any resolver, so before any REST
 *    call: its text's length again (a persisted query's or a BFF mount's text never passed step 1),
 *    its shape (depth, aliases, directives), its introspection's size and its REST-call estimate,
 *    which it returns for the operation's budget to report.
 * What only one transport has stays with it: Apollo coerces HTTP's variables, the WebSocket server
 * coerces its own and counts a connection's operations.
 */
export interface Admission {
  readonly limits: QueryLimits;
  beforeParsing(queries: readonly unknown[], options?: { batched?: boolean }): void;
  beforeExecution(operation: OperationToAdmit): number;
}

export interface OperationToAdmit extends OperationRequest {
  /** The query text, when the transport has it (Apollo's `source`). */
  source?: string | undefined;
  /** Whether the caller has a credential: it picks the depth limit. */
  authenticated: boolean;
}

export function createAdmission(schema: GraphQLSchema, limits: QueryLimits, options: { batching: boolean }): Admission {
  return {
    limits,
    beforeParsing(queries, { batched = false } = {}) {
      checkRequestQueries(queries, batched, limits);
    },
    beforeExecution({ source, authenticated, ...request }) {
      checkQueryLength(source, limits);
      return checkOperation(schema, request, { authenticated, batching: options.batching }, limits);
    },
  };
}
