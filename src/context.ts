import { randomUUID } from 'node:crypto';
import type { Credential } from './datasources/credentials.js';
import { createDataSources, type DataSources } from './datasources/index.js';
import { RestSession, type RestClient } from './datasources/rest-client.js';
import { createLoaders, type Loaders } from './loaders.js';
import type { RunnerStatusPollers } from './subscriptions/runner-status.js';

/** What every resolver receives. One is made per HTTP request and per WebSocket operation. */
export interface GatewayContext {
  credential: Credential | null;
  requestId: string;
  api: DataSources;
  loaders: Loaders;
  pollers: RunnerStatusPollers;
}

/** What outlives requests: the REST transport, the poller registry and the settings. */
export interface ContextDependencies {
  restClient: RestClient;
  pollers: RunnerStatusPollers;
  batching: boolean;
}

/**
 * The one way to build a context, used by the HTTP handler and the WebSocket server alike:
 * a fresh REST session for the caller's credential and fresh loaders, so nothing is shared
 * between requests or credentials.
 */
export function createContext(
  dependencies: ContextDependencies,
  credential: Credential | null,
  requestId: string = randomUUID(),
): GatewayContext {
  const rest = new RestSession(dependencies.restClient, credential, requestId);
  const api = createDataSources(rest);
  return {
    credential,
    requestId,
    api,
    loaders: createLoaders(api, { batching: dependencies.batching }),
    pollers: dependencies.pollers,
  };
}
