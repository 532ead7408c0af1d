import type { GraphQLSchema } from 'graphql';
import { checkOperation, checkQueryLength, checkRequestQueries, type OperationRequest, type PassedShapes, type QueryLimits } from './limits.js';
import type { TrustedDocuments } from './trusted-documents.js';
import type { CallerIdentity, CallerLimits } from './caller-limits.js';
import type { UpstreamQuotaAdmission } from './upstream-quota-admission.js';

/**
 * The checks an operation passes before it runs: one pipeline, which every way in calls at the
 * same two points, so that HTTP (single and batched), a BFF's own mount of `apollo`, persisted
 * queries and WebSocket cannot drift apart (they did: batches skipped the text checks, issue 27).
 *
 * 1. `beforeParsing`: the operations as they arrived (an HTTP body's, a batch's, a GET's parameters,
 *    a graphql-ws `subscribe` payload): a batch's length; with trusted documents
 *    (trusted-documents.ts), each operation's id exchanged for the list's text, and any operation
 *    the list lacks refused; then the query text's length and bracket nesting: parsing a huge or
 *    deeply nested text is itself the cost, or the crash, to avoid. It returns the operations to
 *    parse (the same objects unless a trusted document was put in place of an id).
 * 2. `beforeExecution`: the parsed and validated operation, before any resolver, so before any REST
 *    call: its text's length again (a persisted query's or a BFF mount's text never passed step 1),
 *    with trusted documents its text held to the list (a BFF mount's),
 *    its shape (depth, aliases, directives), its introspection's size and its REST-call estimate,
 *    which it returns for the operation's budget to report; then, while GitLab's rate limits are
 *    known (upstream-quota-admission.ts), an estimate the credential's calls left would not cover
 *    before GitLab's reset refused RATE_LIMITED; last, with caller limits
 *    (caller-limits.ts), an operation taken from its caller's bucket, or refused RATE_LIMITED
 *    (after Redis has answered, with Redis: the estimate is then returned as a promise).
 * What only one transport has stays with it: Apollo coerces HTTP's variables, the WebSocket server
 * coerces its own and counts a connection's operations.
 */
export interface Admission {
  readonly limits: QueryLimits;
  beforeParsing(operations: readonly unknown[], options?: { batched?: boolean }): readonly unknown[];
  /** The trusted documents in force (their list is swapped when its file changes); undefined: any document may be sent. */
  readonly trustedDocuments: TrustedDocuments | undefined;
  beforeExecution(operation: OperationToAdmit): number | Promise<number>;
}

export interface OperationToAdmit extends OperationRequest {
  /** The query text, when the transport has it (Apollo's `source`). */
  source?: string | undefined;
  /** Whether the caller has a credential: it picks the depth limit. */
  authenticated: boolean;
  /** Who sent it, for the caller limits (absent: an embedder's context that did not say; counted as an unknown address). */
  caller?: CallerIdentity | undefined;
}

/** The query text of an operation as it arrived (a GET's, a body's, a payload's). */
const queryOf = (operation: unknown) => (typeof operation === 'object' && operation !== null ? (operation as { query?: unknown }).query : undefined);

export function createAdmission(
  schema: GraphQLSchema,
  limits: QueryLimits,
  options: {
    batching: boolean;
    trustedDocuments?: TrustedDocuments | undefined;
    callerLimits?: CallerLimits | undefined;
    /** GitLab's rate limits as last seen (upstream-quota-admission.ts): an estimate they would not cover is refused. */
    upstreamQuota?: UpstreamQuotaAdmission | undefined;
  },
): Admission {
  const { trustedDocuments, callerLimits, upstreamQuota } = options;
  const passedShapes: PassedShapes = new WeakMap();
  return {
    limits,
    trustedDocuments,
    beforeParsing(operations, { batched = false } = {}) {
      // A batch's length first, before any of its operations is looked at.
      if (batched && operations.length > limits.maxBatchOperations) checkRequestQueries(operations, batched, limits);
      const toParse = trustedDocuments ? operations.map((operation) => trustedDocuments.resolve(operation)) : operations;
      checkRequestQueries(toParse.map(queryOf), batched, limits);
      return toParse;
    },
    beforeExecution({ source, authenticated, caller, ...request }) {
      checkQueryLength(source, limits);
      // A BFF's own mount of `apollo` never passed step 1: its text must be one of the list's too.
      if (trustedDocuments && source !== undefined) trustedDocuments.checkText(source);
      const estimate = checkOperation(schema, request, { authenticated, batching: options.batching }, limits, passedShapes);
      // Before the caller's bucket: an operation GitLab would refuse costs its caller nothing here.
      upstreamQuota?.check(caller?.credential, estimate);
      return callerLimits ? admitCaller(callerLimits, caller, estimate) : estimate;
    },
  };
}

/** The caller step: an operation refused by its shape above costs its caller nothing. */
function admitCaller(callerLimits: CallerLimits, caller: CallerIdentity | undefined, estimate: number): number | Promise<number> {
  const admitted = callerLimits.admit(caller ?? { credential: null });
  return admitted ? admitted.then(() => estimate) : estimate;
}
