import type { GraphQLFormattedError, GraphQLSchema } from 'graphql';
import { createContext, type ContextDependencies, type GatewayContext } from './context.js';
import { TRUSTED_DOCUMENTS_DEFAULTS, type ResolvedOptions } from './defaults.js';
import { BoardLocator } from '../datasources/board-locator.js';
import { credentialPolicy, type Credential, type CredentialPolicy } from '../datasources/credentials.js';
import type { IssueKey } from '../datasources/issues.js';
import { RestClient } from '../datasources/rest-client.js';
import { UpstreamQuota } from '../datasources/upstream-quota.js';
import { restBaseUrl } from '../datasources/upstream-url.js';
import { formatError } from '../errors/graphql-errors.js';
import { redactDeep } from '../errors/redact.js';
import { createLogger, type GatewayLogger } from '../observability/logger.js';
import { GatewayMetrics } from '../observability/metrics.js';
import { ReadinessProbe } from '../observability/readiness.js';
import { Telemetry } from '../observability/telemetry.js';
import { createTracing, type GatewayTracing } from '../observability/tracing.js';
import { createAdmission, type Admission } from '../policy/admission.js';
import { createCallerLimits, type CallerIdentity } from '../policy/caller-limits.js';
import { DEFAULT_QUERY_LIMITS, type QueryLimits } from '../policy/limits.js';
import { ManifestError, TrustedDocuments } from '../policy/trusted-documents.js';
import { UpstreamQuotaAdmission } from '../policy/upstream-quota-admission.js';
import { DEFAULT_SERVED_DISCUSSION_BOUNDS, DISCUSSION_REFERENCES, ServedDiscussions, type ServedDiscussion } from '../resolvers/discussions/served-discussions.js';
import { createExecutableSchema } from '../schema/executable.js';
import { ReplicaSharing } from '../shared-state/replicas.js';
import { DEFAULT_ISSUE_REFERENCE_BOUNDS, ISSUE_REFERENCES, IssueReferences } from '../subscriptions/issue-references.js';
import { RecordPollers } from '../subscriptions/record-pollers.js';
import type { ContextFactory } from '../transport/http-handler.js';

/**
 * What the gateway's transports share, built once per gateway from its options: the REST client,
 * logs and metrics, the replicas' shared state, the pollers, the request contexts, the schema and
 * the admission of operations. gateway.ts puts the transports on top.
 */
export interface GatewayServices {
  options: ResolvedOptions;
  restClient: RestClient;
  logger: GatewayLogger;
  sharing: ReplicaSharing | undefined;
  metrics: GatewayMetrics | undefined;
  telemetry: Telemetry;
  readiness: ReadinessProbe;
  pollers: RecordPollers;
  contextFor: ContextFactory & ((credential: Credential | null, requestId?: string, options?: { longLived?: boolean; caller?: CallerIdentity }) => GatewayContext);
  credentials: CredentialPolicy;
  limits: QueryLimits;
  schema: GraphQLSchema;
  admission: Admission;
  /** The trusted documents list and its file's watch, when `trustedDocuments` is set; closed with the gateway. */
  trustedDocuments: TrustedDocuments | undefined;
  /** What callers see of an error, over HTTP and WebSocket alike. */
  formatErrorForCaller: typeof formatError;
  /** OpenTelemetry traces (observability/tracing.ts); undefined when off, and then nothing is traced. */
  tracing: GatewayTracing | undefined;
  /** GitLab's rate limits per credential (datasources/upstream-quota.ts); undefined when `upstreamRateLimits` is off. */
  upstreamQuota: UpstreamQuota | undefined;
}

export function createServices(options: ResolvedOptions): GatewayServices {
  const logger = options.logger ?? createLogger({ level: 'error' });
  // Named by the pollers' digest (the replicas' shared one with Redis), which exists once calls are made.
  const upstreamQuota: UpstreamQuota | undefined = options.upstreamRateLimits
    ? new UpstreamQuota({ digest: (credential): string => pollers.credentialDigest(credential) })
    : undefined;
  // Telemetry and metrics come after what they observe; these callbacks run only once requests do.
  const restClient = createRestClient(options, (event) => telemetry.restCall(event), upstreamQuota);
  // Fallbacks to memory are counted from the first request on, when metrics exist.
  const sharing = options.redis ? new ReplicaSharing(options.redis, logger, (store) => metrics?.redisFallback(store)) : undefined;
  const pollers = new RecordPollers({
    restClient,
    intervalMs: options.runnerPollIntervalMs,
    upstreamQuota,
    ...(sharing ? { credentialDigest: sharing.credentialDigest, coordination: sharing.pollerCoordination(options.runnerPollIntervalMs) } : {}),
  });
  if (sharing && upstreamQuota) sharing.shareUpstreamQuota(upstreamQuota);
  const metrics = options.metrics ? createMetrics(pollers, sharing, upstreamQuota) : undefined;
  const telemetry = new Telemetry(logger, metrics);
  const callerLimits = createCallerLimits(options.callerLimits, {
    digest: pollers.credentialDigest,
    link: sharing?.link,
    onFallback: sharing?.fallbackCounter('caller_limits'),
    onRefusal: (limit, anonymous) => metrics?.callerLimitRefused(limit, anonymous),
  });
  const readiness = new ReadinessProbe({ restClient, timeoutMs: options.readinessTimeoutMs, ...(sharing ? { details: sharing.readinessDetails } : {}) });
  const dependencies = { ...contextDependencies(options, restClient, pollers, sharing, telemetry), callerLimits };
  const contextFor = (credential: Credential | null, requestId?: string, contextOptions?: { longLived?: boolean; caller?: CallerIdentity }) => createContext(dependencies, credential, requestId, contextOptions);
  const limits: QueryLimits = { ...DEFAULT_QUERY_LIMITS, ...options.limits };
  const credentials = credentialPolicy(options);
  const schema = createExecutableSchema(options.extend);
  const trustedDocuments = createTrustedDocuments(options, limits, logger, metrics);
  return {
    options,
    restClient,
    logger,
    sharing,
    metrics,
    telemetry,
    readiness,
    pollers,
    contextFor,
    credentials,
    limits,
    schema,
    admission: createAdmission(schema, limits, {
      batching: options.batching,
      trustedDocuments,
      callerLimits,
      upstreamQuota: upstreamQuota && new UpstreamQuotaAdmission(upstreamQuota, credentials.fallback),
    }),
    trustedDocuments,
    formatErrorForCaller: callerErrorFormat(credentials.secrets, options.introspection),
    tracing: createTracing(options.tracing),
    upstreamQuota,
  };
}

/**
 * The trusted documents list (policy/trusted-documents.ts), read now: a manifest that cannot be
 * used stops createGateway, saying why. Reloads are logged (ids and counts, never a document) and
 * counted.
 */
function createTrustedDocuments(options: ResolvedOptions, limits: QueryLimits, logger: GatewayLogger, metrics: GatewayMetrics | undefined): TrustedDocuments | undefined {
  const settings = options.trustedDocuments;
  if (!settings) return undefined;
  const { path } = settings;
  let loads = 0;
  try {
    return new TrustedDocuments({
      path,
      requireId: settings.requireId ?? TRUSTED_DOCUMENTS_DEFAULTS.requireId,
      pollIntervalMs: settings.pollIntervalMs ?? TRUSTED_DOCUMENTS_DEFAULTS.pollIntervalMs,
      maxQueryLength: limits.maxQueryLength,
      onLoaded: (documents) => {
        metrics?.trustedDocumentsInForce(documents);
        if (loads++ > 0) logger.info?.({ path, documents }, 'trusted documents reloaded');
      },
      onReloadFailure: (reason) => {
        metrics?.trustedDocumentsReloadFailed();
        logger.warn?.({ path, reason }, 'trusted documents manifest refused; the list in force stays');
      },
      onRefusal: (code) => metrics?.trustedDocumentRefused(code),
    });
  } catch (error) {
    if (error instanceof ManifestError) throw new TypeError(`trustedDocuments: ${error.message} (${path}).`);
    throw error;
  }
}

function createRestClient(
  options: ResolvedOptions,
  onResponse: NonNullable<ConstructorParameters<typeof RestClient>[0]['onResponse']>,
  upstreamQuota: UpstreamQuota | undefined,
): RestClient {
  const upstream = restBaseUrl(options.upstreamUrl);
  if (!('url' in upstream)) throw new TypeError(`upstreamUrl must be ${upstream.expected}.`);
  return new RestClient({
    baseUrl: upstream.url,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    ...(options.upstreamTimeoutMs ? { timeoutMs: options.upstreamTimeoutMs } : {}),
    ...(options.upstreamMaxResponseBytes ? { maxResponseBytes: options.upstreamMaxResponseBytes } : {}),
    ...(options.upstreamConnections ? { connections: options.upstreamConnections } : {}),
    ...(options.upstreamCa ? { ca: options.upstreamCa } : {}),
    ...(options.upstreamRetryAttempts ? { retry: { attempts: options.upstreamRetryAttempts } } : {}),
    ...(options.circuitBreaker !== undefined ? { circuitBreaker: options.circuitBreaker } : {}),
    onResponse,
    upstreamQuota,
  });
}

function createMetrics(pollers: RecordPollers, sharing: ReplicaSharing | undefined, upstreamQuota: UpstreamQuota | undefined): GatewayMetrics {
  return new GatewayMetrics({
    ...(upstreamQuota ? { upstreamQuota: (max: number) => upstreamQuota.snapshot(max) } : {}),
    activeSubscriptions: () => pollers.activeSubscriptions,
    activePollers: () => pollers.activePollers,
    pollingPollers: () => pollers.pollingPollers,
    ...(sharing ? { redisUp: () => (sharing.link.isUp ? 1 : 0) } : {}),
  });
}

/** What outlives requests and every request's context is built from. */
function contextDependencies(
  options: ResolvedOptions,
  restClient: RestClient,
  pollers: RecordPollers,
  sharing: ReplicaSharing | undefined,
  telemetry: Telemetry,
): ContextDependencies {
  return {
    restClient,
    pollers,
    issueReferences: new IssueReferences(
      pollers.credentialDigest,
      sharing?.servedReferenceStore<number, IssueKey>(ISSUE_REFERENCES, DEFAULT_ISSUE_REFERENCE_BOUNDS.perCredential),
    ),
    servedDiscussions: new ServedDiscussions(
      pollers.credentialDigest,
      sharing?.servedReferenceStore<string, ServedDiscussion>(DISCUSSION_REFERENCES, DEFAULT_SERVED_DISCUSSION_BOUNDS.perCredential),
    ),
    // One per gateway, shared by the replicas through Redis when there is one.
    boardLocator: new BoardLocator(sharing?.boardPlaceStore()),
    batching: options.batching,
    maxConcurrentRestCalls: options.maxConcurrentRestCalls,
    requestDeadlineMs: options.requestDeadlineMs,
    maxRestCallsMade: options.limits?.maxRestCallsMade ?? DEFAULT_QUERY_LIMITS.maxRestCallsMade,
    onLoaderBatch: telemetry.loaderBatch,
  };
}

/**
 * What callers see of an error, over HTTP and WebSocket alike: codes from the table, tokens and the
 * gateway's own secrets scrubbed; with introspection off, no suggestions naming the schema.
 */
function callerErrorFormat(secrets: readonly string[], introspection: boolean): typeof formatError {
  return (formatted, error) => {
    const scrubbed = secrets.length === 0 ? formatError(formatted, error) : (redactDeep(formatError(formatted, error), secrets) as GraphQLFormattedError);
    return introspection ? scrubbed : withoutSuggestions(scrubbed);
  };
}

/**
 * The error without graphql-js's "Did you mean …?" ending (didYouMean, and ScalarLeafsRule's
 * `Did you mean "field { ... }"?`), which names the schema's fields, arguments, types and enum
 * values: with introspection off, validation and variable coercion errors must not teach the
 * schema one guess at a time. Apollo's `hideSchemaDetailsFromClientErrors` strips the same text
 * (with this pattern), but from validation errors over HTTP only: this formatter serves both
 * transports and every phase.
 */
function withoutSuggestions(error: GraphQLFormattedError): GraphQLFormattedError {
  return { ...error, message: error.message.replace(/ ?Did you mean(.+?)\?$/, '') };
}
