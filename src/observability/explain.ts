import type { ApolloServerPlugin } from '@apollo/server';
import type { GatewayContext } from '../server/context.js';
import { RestCallLog } from '../datasources/call-log.js';
import type { QueryLimits } from '../policy/limits.js';
import { endpointOf } from './endpoint.js';

/** What a caller who asked sees in `extensions.restCalls`. */
export interface RestCallsExplained {
  /** The REST calls the operation may need by the estimate made before it ran. */
  estimate: number | null;
  /** The calls it made, and the most it may make (QueryLimits.maxRestCallsMade). */
  made: number;
  budget: number;
  /** Each call: its endpoint template (never a raw path), status, duration and wave (call-log.ts). */
  calls: Array<{ method: string; endpoint: string; status: number; durationMs: number; wave: number }>;
}

/**
 * Answers `"extensions": {"explainRestCalls": true}` with the REST calls the operation made: how a
 * frontend developer sees why a query is slow (how many waves, which endpoint took long). Off
 * unless the gateway enables it (GatewayOptions.explainRestCalls, EXPLAIN_REST_CALLS): the
 * endpoints and timings describe the upstream, which a public deployment may not want to show.
 */
export function explainRestCallsPlugin(limits: Pick<QueryLimits, 'maxRestCallsMade'>): ApolloServerPlugin<GatewayContext> {
  return {
    requestDidStart({ request, contextValue }) {
      if (request.extensions?.['explainRestCalls'] !== true) return Promise.resolve();
      contextValue.stats.restCallLog = new RestCallLog();
      return Promise.resolve({
        willSendResponse({ response, contextValue: context }) {
          const log = context.stats.restCallLog;
          if (!log || response.body.kind !== 'single') return Promise.resolve();
          const explained: RestCallsExplained = {
            estimate: context.stats.estimate ?? null,
            made: context.stats.restCalls,
            budget: limits.maxRestCallsMade,
            calls: log.calls.map((call) => ({ method: call.method, endpoint: endpointOf(call.path), status: call.status, durationMs: call.durationMs, wave: call.wave })),
          };
          const result = response.body.singleResult;
          result.extensions = { ...result.extensions, restCalls: explained };
          return Promise.resolve();
        },
      });
    },
  };
}
