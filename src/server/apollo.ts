import type { Server } from 'node:http';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { ApolloServerErrorCode } from '@apollo/server/errors';
import type { GatewayInterface } from '@apollo/server-gateway-interface';
import { GraphQLError, OperationTypeNode, type GraphQLSchema } from 'graphql';
import type { GatewayContext } from './context.js';
import { compiledExecution, type CompiledExecutionOptions } from './compiled-execution.js';
import type { GatewayServices } from './services.js';
import { isUnexpectedError, isWrongShapeFromUpstream } from '../errors/graphql-errors.js';
import { redact } from '../errors/redact.js';
import { explainRestCallsPlugin } from '../observability/explain.js';
import { tracingPlugin } from '../observability/tracing.js';
import { persistedQueryStore, PERSISTED_QUERY_ENTRIES, type createResponseCache } from '../caching/response-cache.js';

/**
 * A document is compiled on its second use (one sent once is never worth compiling), and only with
 * at most 300 fields written out: above the pages clients send (the bench's fleet page has 12) and
 * about 40 ms of compiling at most; and at most 600 fields compiled a second by all callers
 * together (under 10% of a core), so that new documents sent to be compiled cannot crowd out the
 * operations being served. Documents past either are interpreted, as before.
 */
const COMPILED_EXECUTION: CompiledExecutionOptions = { compileAfterUses: 2, maxCompiledFields: 300, compiledFieldsPerSecond: 600 };

/** What the Apollo Server of a gateway needs besides the services: its HTTP server, its response cache, and what its drain closes. */
export interface ApolloParts {
  httpServer: Server;
  responseCache: ReturnType<typeof createResponseCache> | undefined;
  /** Closes the pollers and the WebSocket connections when Apollo drains. */
  drainSubscriptions: () => Promise<void>;
}

/** Apollo Server as the gateway's HTTP host: its settings and its plugins, in the order they must run. */
export function createApolloServer(services: GatewayServices, parts: ApolloParts): ApolloServer<GatewayContext> {
  const { options, sharing, limits, telemetry } = services;
  return new ApolloServer<GatewayContext>({
    ...executionOf(services),
    formatError: services.formatErrorForCaller,
    introspection: options.introspection,
    allowBatchedHttpRequests: options.allowBatchedHttpRequests,
    includeStacktraceInErrorResponses: false,
    // Signals belong to the process's owner (main.ts, or the BFF embedding the gateway); Apollo's
    // own handlers would race a second stop() against theirs and hang the shutdown.
    stopOnTerminationSignals: false,
    parseOptions: { maxTokens: limits.maxTokens },
    // Apollo's default store is bounded by bytes (about 30 MB); a count is easier to reason about:
    // each query is at most MAX_QUERY_LENGTH characters, and limits apply to it on every use.
    // With Redis, one store for every replica: a query registered on one is found on the others.
    persistedQueries:
      options.persistedQueries === false ? false : { cache: sharing ? sharing.persistedQueryStore(PERSISTED_QUERY_ENTRIES) : persistedQueryStore() },
    plugins: [
      // Names the operation for the request's log line and times it; first, so it sees what the limits refuse.
      telemetry.apolloPlugin(),
      // A span per operation, with spans for its parsing, validation and REST calls (off unless configured: no plugin then).
      ...(services.tracing ? [tracingPlugin(services.tracing)] : []),
      // Neither is used (no cache hints, no Apollo Studio traces); both cost CPU on every request (bench: hot-path).
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      admissionPlugin(services),
      readsHeldUntilResponse(),
      // The REST calls an operation made, in its response, for a caller who asks (off unless enabled).
      ...(options.explainRestCalls ? [explainRestCallsPlugin(limits)] : []),
      ApolloServerPluginDrainHttpServer({ httpServer: parts.httpServer, stopGracePeriodMillis: options.shutdownTimeoutMs }),
      // It answers after the limits, which a cached answer passes too.
      ...(parts.responseCache ? [parts.responseCache.plugin] : []),
      unexpectedErrorLog(services),
      { serverWillStart: () => Promise.resolve({ drainServer: parts.drainSubscriptions }) },
      options.landingPage === false ? ApolloServerPluginLandingPageDisabled() : ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false }),
    ],
  });
}

/**
 * How Apollo runs an operation: graphql-js' interpreter, or its `gateway` seam with an executor
 * that runs documents sent again as compiled functions (compiled-execution.ts).
 */
function executionOf({ schema, options, metrics }: GatewayServices): { schema: GraphQLSchema } | { gateway: GatewayInterface } {
  if (!options.compiledOperations) return { schema };
  return { gateway: compiledExecution(schema, { ...COMPILED_EXECUTION, onRun: metrics && ((engine) => metrics.operationExecuted(engine)) }) };
}

/** The admission's second step (policy/admission.ts), after parsing and validation, before any resolver (so before any REST call). */
function admissionPlugin({ admission }: GatewayServices): ApolloServerPlugin<GatewayContext> {
  return {
    requestDidStart: () =>
      Promise.resolve({
        didResolveOperation: async ({ source, document, operation, operationName, contextValue, request }) => {
          if (operation?.operation === OperationTypeNode.SUBSCRIPTION) throw subscriptionOverHttp();
          const { credential, caller } = contextValue;
          contextValue.stats.estimate = await admission.beforeExecution({ source, document, operationName, variables: request.variables, authenticated: credential !== null, caller });
        },
      }),
  };
}

/**
 * Each operation holds its context's reads (loaders, pages sent ahead) until its response is ready,
 * then lets go of them (GatewayContext.holdReads): Apollo's gateway seam keeps its copy of the
 * context past the response, and that copy then reaches none of the request's REST answers.
 */
function readsHeldUntilResponse(): ApolloServerPlugin<GatewayContext> {
  return {
    requestDidStart: ({ contextValue }) => {
      const release = contextValue.holdReads();
      return Promise.resolve({
        willSendResponse: () => {
          release();
          return Promise.resolve();
        },
      });
    },
  };
}

/** Callers get "Internal error in the gateway"; the details of such bugs are logged here. */
function unexpectedErrorLog({ logger, credentials }: GatewayServices): ApolloServerPlugin<GatewayContext> {
  return {
    requestDidStart: () =>
      Promise.resolve({
        didEncounterErrors: ({ errors }) => {
          for (const error of errors) {
            if (isUnexpectedError(error)) logger.error(redact(`Unexpected error: ${errorDetails(error)}`, credentials.secrets));
            // REST data of a shape the schema cannot carry: the upstream's fault, told to the caller as
            // UPSTREAM_ERROR, logged at warn with the field, so a gateway bug reading REST stays visible.
            else if (isWrongShapeFromUpstream(error))
              logger.warn?.({ path: error.path?.join('.') ?? null }, redact(`upstream value of the wrong type: ${error.message}`, credentials.secrets).slice(0, 500));
          }
          return Promise.resolve();
        },
      }),
  };
}

/**
 * A subscription sent over HTTP. Apollo Server would execute it as a query, with no event for its
 * resolver (a TypeError, answered INTERNAL_SERVER_ERROR); it is the caller's mistake, so it is
 * refused before the limits and any REST call, saying where subscriptions are served. BAD_REQUEST
 * and 400, as Apollo refuses a mutation over GET, but not 405: POST is the right method for this
 * URL, and no method would carry a subscription (a 405 owes an Allow header naming one that does).
 */
function subscriptionOverHttp(): GraphQLError {
  return new GraphQLError(
    'Subscriptions are served over WebSocket (the graphql-transport-ws protocol), not over HTTP: send this operation through a WebSocket client.',
    { extensions: { code: ApolloServerErrorCode.BAD_REQUEST, http: { status: 400 } } },
  );
}

function errorDetails(error: Error): string {
  const cause = (error as { originalError?: unknown }).originalError;
  return cause instanceof Error ? `${cause.stack ?? cause.message}` : (error.stack ?? error.message);
}
