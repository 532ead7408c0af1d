import { DEFAULT_MAX_UPLOAD_BYTES } from '../transport/uploads.js';
import { DEFAULT_MAX_UNSENT_WEBSOCKET_BYTES, DEFAULT_WEBSOCKET_MESSAGES_PER_SECOND } from '../transport/websocket.js';
import type { GatewayOptions, TrustedDocumentsOptions } from './options.js';

/**
 * The defaults of createGateway's options, said once: createGateway fills in what an embedder
 * leaves out from here, and the command line's settings (config.ts) fall back to the same values,
 * so `npm start` and an embedding behave alike. The query limits' defaults are DEFAULT_QUERY_LIMITS
 * (policy/limits.ts) and the REST client's are in datasources/rest-client.ts, beside what they bound.
 */
export const GATEWAY_DEFAULTS = {
  runnerPollIntervalMs: 5_000,
  requestDeadlineMs: 30_000,
  readinessTimeoutMs: 2_000,
  shutdownTimeoutMs: 10_000,
  batching: true,
  introspection: true,
  landingPage: true,
  metrics: true,
  persistedQueries: true,
  explainRestCalls: false,
  upstreamRateLimits: true,
  compiledOperations: true,
  allowBatchedHttpRequests: false,
  maxSubscriptionsPerConnection: 100,
  connectionInitWaitTimeoutMs: 10_000,
  maxUnsentWebSocketBytes: DEFAULT_MAX_UNSENT_WEBSOCKET_BYTES,
  maxWebSocketMessagesPerSecond: DEFAULT_WEBSOCKET_MESSAGES_PER_SECOND,
  maxUploadBytes: DEFAULT_MAX_UPLOAD_BYTES,
} as const satisfies Partial<GatewayOptions>;

/** The defaults of `trustedDocuments` (off unless a manifest is given). */
export const TRUSTED_DOCUMENTS_DEFAULTS = {
  requireId: false,
  pollIntervalMs: 5_000,
} as const satisfies Omit<Required<TrustedDocumentsOptions>, 'path'>;

type Defaulted = keyof typeof GATEWAY_DEFAULTS;

/** createGateway's options with every default filled in. */
export type ResolvedOptions = Omit<GatewayOptions, Defaulted> & { readonly [K in Defaulted]: NonNullable<GatewayOptions[K]> };

export function withDefaults(options: GatewayOptions): ResolvedOptions {
  const resolved: Record<string, unknown> = { ...options };
  for (const [key, value] of Object.entries(GATEWAY_DEFAULTS)) resolved[key] ??= value;
  return resolved as ResolvedOptions;
}
