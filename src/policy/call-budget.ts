// The budget on REST calls an operation really makes, enforced as it runs (the request context
// counts them). Apart from limits.ts, which checks documents before they run, so that the context
// needs nothing of the document walks and the cost estimate.
import { GraphQLError } from 'graphql';

/**
 * A REST call past the operation's budget of calls made (`maxRestCallsMade`): the field that
 * needed it fails, the rest of the answer stands (so no HTTP status of its own). It says both
 * figures: the budget, and what the operation was estimated to need before it ran.
 */
export function restCallBudgetSpent(budget: number, estimate: number | undefined): GraphQLError {
  return new GraphQLError(
    `The operation has made the ${budget} REST calls it may make; this field needed more. Ask for smaller pages (first/last) or fewer nested lists.`,
    { extensions: { code: 'LIMIT_EXCEEDED', limit: 'calls', maxRestCallsMade: budget, ...(estimate === undefined ? {} : { estimate }) } },
  );
}
