import { createSourceEventStream, execute, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { GatewayContext } from '../server/context.js';
import { subscriptionStarted, traceEvent } from '../observability/tracing.js';
// graphql-js's own subscribe() maps its event stream with this; internal in graphql 16, whose
// version package.json pins exactly.
import { mapAsyncIterator } from 'graphql/execution/mapAsyncIterator.js';

/**
 * graphql-js's `subscribe`, for graphql-ws, except that subscriptions with the same document,
 * operation and variables that receive the same event object execute it once and share the result.
 *
 * A poller pushes one event object to all its subscribers (record-pollers.ts), and a poller serves
 * one credential, so subscriptions that see the same event run as the same caller: their results
 * are the same. Executing per subscriber was about a quarter of the CPU of a fan-out (10,000
 * messages in the bench), and a field that needs a REST call of its own (a runner's `jobs`) made
 * that call once per subscriber of each change. The shared execution runs in the context of the
 * first subscriber to read the event, so its REST calls count in that operation's budget and log line.
 * Each execution starts that budget anew: it is one event's (GatewayContext.beginEvent).
 */
export async function subscribeSharingResults(args: ExecutionArgs): Promise<AsyncGenerator<ExecutionResult> | ExecutionResult> {
  const stream = await createSourceEventStream(args);
  const context = args.contextValue as Partial<Pick<GatewayContext, 'beginEvent' | 'stats'>> | undefined;
  // A traced subscription's span covers its start; each event is then a trace of its own (tracing.ts).
  if (context?.stats?.trace) subscriptionStarted(context.stats, isAsyncIterable(stream) ? undefined : stream.errors);
  if (!isAsyncIterable(stream)) return stream;
  const operation = operationKey(args);
  return mapAsyncIterator(stream, (event: unknown) =>
    sharedResult(event, operation, () => {
      context?.beginEvent?.();
      return traceEvent(context?.stats, () => execute({ ...args, rootValue: event }));
    }),
  );
}

type Result = ExecutionResult | Promise<ExecutionResult>;

/** Each event's results by operation key; an event leaves with its last subscriber's read. */
const resultsByEvent = new WeakMap<object, Map<string, Result>>();

function sharedResult(event: unknown, operation: string, run: () => Result): Result {
  if (typeof event !== 'object' || event === null) return run();
  let results = resultsByEvent.get(event);
  if (!results) resultsByEvent.set(event, (results = new Map<string, Result>()));
  let result = results.get(operation);
  if (result === undefined) results.set(operation, (result = run()));
  return result;
}

const documentIds = new WeakMap<DocumentNode, number>();
let nextDocumentId = 0;

/** The document (by identity: the operation cache hands out one per text), the operation and the variables. */
function operationKey(args: ExecutionArgs): string {
  let id = documentIds.get(args.document);
  if (id === undefined) documentIds.set(args.document, (id = nextDocumentId++));
  return `${id}|${args.operationName ?? ''}|${JSON.stringify(args.variableValues ?? {})}`;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
