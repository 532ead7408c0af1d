import { randomUUID } from 'node:crypto';
import type { BoardLocator } from '../datasources/board-locator.js';
import type { Credential } from '../datasources/credentials.js';
import { createDataSources, type DataSources } from '../datasources/index.js';
import { RestSession, type RestClient } from '../datasources/rest-client.js';
import type { RestCallLog } from '../datasources/call-log.js';
import type { OperationTrace } from '../observability/trace-context.js';
import { createLoaders, type Loaders } from '../datasources/loaders.js';
import { restCallBudgetSpent } from '../policy/call-budget.js';
import type { CallerIdentity, CallerLimits } from '../policy/caller-limits.js';
import type { ServedDiscussions } from '../resolvers/discussions/served-discussions.js';
import { PrefetchStore } from '../resolvers/prefetch-store.js';
import type { IssueReferences } from '../subscriptions/issue-references.js';
import type { RecordPollers } from '../subscriptions/record-pollers.js';

/** What every resolver receives. One is made per HTTP request and per WebSocket operation. */
export interface GatewayContext {
  credential: Credential | null;
  /** Who sent the operation, for the caller limits: its own credential (not the service token) and address. */
  caller: CallerIdentity;
  requestId: string;
  api: DataSources;
  readonly loaders: Loaders;
  /** REST pages sent ahead of the resolvers that will take them (resolvers/lookahead.ts). */
  readonly prefetch: PrefetchStore;
  pollers: RecordPollers;
  /** The issues each credential was served, so that it may subscribe to them by global ID. */
  issueReferences: IssueReferences;
  /** The merge request discussions each credential was served, so that it may resolve them by global ID. */
  servedDiscussions: ServedDiscussions;
  /** What the request's log line and metrics tell: filled in as the operation runs. */
  stats: RequestStats;
  /**
   * A subscription's next event starts: its budget of REST calls made starts again, with fresh
   * loaders. A subscription runs for as long as its client wants, so its budget is one event's, as
   * an HTTP operation's is one request's (without it, a field following an upstream that kept
   * announcing a next page made 1,500 calls for one event: issue 27). Nothing to do for the
   * context of one request.
   */
  beginEvent(): void;
  /**
   * An operation starts reading with this context; the function returned says it has its
   * response. When the last operation holding the context has its response, the context forgets
   * what they read (its loaders' records, the pages sent ahead): later reads start afresh. Apollo
   * Server keeps an operation's copy of the context past its response when operations are compiled
   * (docs/performance.md, "What outlived a response"), so a copy that still held them kept every
   * REST answer of the request in memory until V8's next full collection.
   */
  holdReads(): () => void;
}

export interface RequestStats {
  /** REST calls made for this operation so far (a retried call counts once). */
  restCalls: number;
  /** The REST calls the operation may need by the estimate made before it ran (limits.ts). */
  estimate?: number;
  /** Set when the caller asked to see the REST calls its operation made (EXPLAIN_REST_CALLS). */
  restCallLog?: RestCallLog;
  /** The operation's name and type, once Apollo or graphql-ws has resolved them. */
  operationName?: string | null;
  operationType?: string;
  /** Answered from the response cache (response-cache.ts), so with no REST call. */
  cached?: boolean;
  /** The operation's trace, while tracing is on (observability/tracing.ts); its REST calls are its child spans. */
  trace?: OperationTrace;
}

/** What outlives requests: the REST transport, the poller registry and the settings. */
export interface ContextDependencies {
  restClient: RestClient;
  pollers: RecordPollers;
  issueReferences: IssueReferences;
  servedDiscussions: ServedDiscussions;
  /** Where boards and lists live, learnt from REST's records for every caller (not a secret: it only picks the REST URL). */
  boardLocator: BoardLocator;
  batching: boolean;
  /** A ceiling on the REST calls one operation may have in flight at once, on top of its fair share. */
  maxConcurrentRestCalls?: number | undefined;
  /** Milliseconds an operation may spend waiting on REST, from its start. */
  requestDeadlineMs: number;
  /** REST calls an operation, or one event of a subscription, may really make (QueryLimits.maxRestCallsMade). */
  maxRestCallsMade: number;
  /** How the loaders' batches went (observability/metrics.ts); absent when metrics are off. */
  onLoaderBatch?: (loader: string, size: number) => void;
  /** The caller limits, when on: every REST call made is taken from its caller's bucket. */
  callerLimits?: CallerLimits | undefined;
}

/**
 * The one way to build a context, used by the HTTP handler and the WebSocket server alike:
 * a fresh REST session for the caller's credential, fresh loaders and a fresh prefetch store, so
 * nothing is shared between requests or credentials.
 *
 * Apollo Server runs each operation with a shallow copy of the context (and an embedder may spread
 * it into a context of their own), so what the request has read is let go in place: the copies
 * share the one loaders object and the one prefetch store, and `forget` empties them for all.
 */
export function createContext(
  dependencies: ContextDependencies,
  credential: Credential | null,
  requestId: string = randomUUID(),
  /** A subscription lives as long as its client wants: its events are not bound by a request deadline. */
  options: { longLived?: boolean; caller?: CallerIdentity } = {},
): GatewayContext {
  const stats: RequestStats = { restCalls: 0 };
  const caller = options.caller ?? { credential };
  const budget: CallBudget = { spent: 0 };
  const api = createDataSources(restSession(dependencies, credential, requestId, { stats, caller, budget, longLived: options.longLived === true }), dependencies.boardLocator);
  const loaders = createLoaders(api, { batching: dependencies.batching, onBatch: dependencies.onLoaderBatch });
  const prefetch = new PrefetchStore();
  const forget = () => {
    loaders.forget();
    prefetch.clear();
  };
  return {
    credential,
    caller,
    requestId,
    api,
    loaders,
    prefetch,
    pollers: dependencies.pollers,
    issueReferences: dependencies.issueReferences,
    servedDiscussions: dependencies.servedDiscussions,
    stats,
    beginEvent: () => {
      if (!options.longLived) return;
      // Each event is read as a request is: within a budget of its own, from fresh loaders (what
      // an earlier event read may have changed since, and a field an earlier event's budget
      // failed must not fail again from the loader's cache).
      budget.spent = 0;
      forget();
    },
    holdReads: holdsUntilLastRelease(forget),
  };
}

/** The REST calls counted against the budget: the request's, or the current event's of a subscription. */
interface CallBudget {
  spent: number;
}

/**
 * The context's REST session. Built apart from the context, so that the session's callbacks hold
 * the request's counters and nothing else.
 */
function restSession(
  dependencies: ContextDependencies,
  credential: Credential | null,
  requestId: string,
  { stats, caller, budget, longLived }: { stats: RequestStats; caller: CallerIdentity; budget: CallBudget; longLived: boolean },
): RestSession {
  const { callerLimits, maxRestCallsMade } = dependencies;
  return new RestSession(dependencies.restClient, credential, requestId, {
    onCall: () => {
      if (budget.spent >= maxRestCallsMade) throw restCallBudgetSpent(maxRestCallsMade, stats.estimate);
      budget.spent += 1;
      stats.restCalls += 1;
      callerLimits?.spent(caller, 1);
    },
    log: () => stats.restCallLog,
    trace: () => stats.trace,
    ...(dependencies.maxConcurrentRestCalls === undefined ? {} : { maxConcurrentCalls: dependencies.maxConcurrentRestCalls }),
    ...(longLived ? {} : { deadline: Date.now() + dependencies.requestDeadlineMs }),
  });
}

/**
 * GatewayContext.holdReads: `onLastRelease` runs when every hold taken has been released (Apollo
 * runs a batch's operations side by side, each holding the one context).
 */
function holdsUntilLastRelease(onLastRelease: () => void): () => () => void {
  let holds = 0;
  return () => {
    holds += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      holds -= 1;
      if (holds === 0) onLastRelease();
    };
  };
}
