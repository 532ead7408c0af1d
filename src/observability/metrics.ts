import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RestCallEvent } from '../datasources/rest-client.js';
import type { QuotaSnapshot } from '../datasources/upstream-quota.js';
import { endpointOf } from './endpoint.js';

/** What the gauges read when Prometheus scrapes: the live counts of the gateway. */
export interface GaugeSources {
  activeSubscriptions(): number;
  activePollers(): number;
  /** Watched runners this replica polls itself (with Redis, the others are polled by another replica). */
  pollingPollers?: () => number;
  /** 1 while Redis is usable, 0 while not; absent without Redis. */
  redisUp?: () => number;
  /** GitLab's rate-limit figures of up to `max` credentials, most recently updated first; absent when not followed. */
  upstreamQuota?: (max: number) => QuotaSnapshot[];
}

/**
 * Credential digests labelled at most in the upstream quota series: the most recently updated ones,
 * whose window has not reset; the others' series go (digests are as many as callers).
 */
export const MAX_QUOTA_CREDENTIALS_SHOWN = 100;

/** Distinct operation names kept as label values; later ones are counted as `__other` (names are chosen by clients). */
const MAX_OPERATION_NAMES = 200;

/** Seconds; GraphQL operations over REST take from a millisecond to the request deadline. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Keys per batch; a REST page holds at most 100 records, so a batch rarely exceeds a few hundred. */
const BATCH_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500];

/**
 * The kind of upstream error an exchange was, or undefined for an answer that is no error of the
 * upstream's (2xx-4xx but 429: a 404 is an answer).
 */
export function upstreamErrorKind(event: Pick<RestCallEvent, 'status' | 'failure' | 'redirect' | 'unsent'>): string | undefined {
  // Refused while being built: nothing reached the upstream (gateway_rest_calls_unsent_total counts these).
  if (event.unsent) return undefined;
  if (event.failure) return event.failure.replace(/-/g, '_');
  if (event.redirect) return 'redirect';
  if (event.status === 429) return 'rate_limited';
  if (event.status >= 500) return 'server_error';
  return undefined;
}

interface RestCallSeries {
  calls: Counter.Internal;
  duration: Histogram.Internal<'endpoint'>;
}

/**
 * The gateway's Prometheus metrics, in a registry of its own (never prom-client's global one), so
 * that two gateways in one process keep apart and an embedder decides what else to expose.
 * Label values are bounded: REST paths become endpoint templates, operation names are capped.
 */
/** How an operation ran: as a compiled function, or through graphql-js' interpreter. */
export type ExecutionEngine = 'compiled' | 'interpreted';

/** Operations run, by engine; each label bound once, so that the hot path increments without looking it up. */
function executionCounters(registers: Registry[]): Record<ExecutionEngine, { inc(): void }> {
  const executions = new Counter({
    name: 'gateway_operations_executed_total',
    help: 'Operations run over HTTP, by engine: compiled (a document sent before, run as its compiled function; COMPILED_OPERATIONS) or interpreted (graphql-js).',
    labelNames: ['engine'],
    registers,
  });
  return { compiled: executions.labels('compiled'), interpreted: executions.labels('interpreted') };
}

export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly operationNames = new Set<string>();
  private readonly operationDuration: Histogram<'operation_name' | 'operation_type'>;
  private readonly restCalls: Counter<'endpoint' | 'status'>;
  private readonly restCallDuration: Histogram<'endpoint'>;
  private readonly upstreamErrors: Counter<'kind'>;
  private readonly unsentCalls: Counter<'reason'>;
  private readonly loaderBatchSize: Histogram<'loader'>;
  private readonly responseCacheLookups: Counter<'result'>;
  private readonly redisFallbacks: Counter<'store'>;
  private readonly restCallSeriesByKey = new Map<string, RestCallSeries>();
  private readonly trustedDocumentsLoaded: Gauge;
  private readonly trustedDocumentReloadFailures: Counter;
  private readonly trustedDocumentRefusals: Counter<'code'>;
  private readonly callerLimitRefusals: Counter<'limit' | 'caller'>;
  private readonly executedBy: Record<ExecutionEngine, { inc(): void }>;

  constructor(sources: GaugeSources) {
    const registers = [this.registry];
    this.operationDuration = new Histogram({
      name: 'gateway_operation_duration_seconds',
      help: 'Time to answer a GraphQL query or mutation, by operation name and type.',
      labelNames: ['operation_name', 'operation_type'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.restCalls = new Counter({
      name: 'gateway_rest_calls_total',
      help: 'REST calls to the upstream, by endpoint template and HTTP status (`none`: no answer).',
      labelNames: ['endpoint', 'status'],
      registers,
    });
    this.restCallDuration = new Histogram({
      name: 'gateway_rest_call_duration_seconds',
      help: 'Time of one REST exchange with the upstream, by endpoint template.',
      labelNames: ['endpoint'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.upstreamErrors = new Counter({
      name: 'gateway_upstream_errors_total',
      help: 'REST exchanges that failed on the upstream side, by kind: timeout, connection, deadline, malformed_body, oversized_answer, oversized_body, redirect, rate_limited, server_error.',
      labelNames: ['kind'],
      registers,
    });
    this.unsentCalls = new Counter({
      name: 'gateway_rest_calls_unsent_total',
      help: 'REST calls refused before anything was sent, by reason: invalid_credential, invalid_argument (a value no request can carry), unbuildable (the HTTP client refused the request: a gateway bug).',
      labelNames: ['reason'],
      registers,
    });
    this.loaderBatchSize = new Histogram({
      name: 'gateway_loader_batch_size',
      help: 'Keys per DataLoader batch, by loader.',
      labelNames: ['loader'],
      buckets: BATCH_BUCKETS,
      registers,
    });
    this.responseCacheLookups = new Counter({
      name: 'gateway_response_cache_lookups_total',
      help: 'Response cache lookups, by result (hit or miss); none when the cache is off.',
      labelNames: ['result'],
      registers,
    });
    this.redisFallbacks = new Counter({
      name: 'gateway_redis_fallbacks_total',
      help: 'Lookups and writes served from memory because Redis could not be used, by store (persisted_queries, response_cache); none without Redis.',
      labelNames: ['store'],
      registers,
    });
    this.trustedDocumentsLoaded = new Gauge({
      name: 'gateway_trusted_documents',
      help: 'Documents in the trusted documents list in force (TRUSTED_DOCUMENTS); none when it is off.',
      registers,
    });
    this.trustedDocumentReloadFailures = new Counter({
      name: 'gateway_trusted_documents_reload_failures_total',
      help: 'Trusted documents manifests refused on reload (unreadable, not JSON, an id that is not its text\'s SHA-256); the list in force stays.',
      registers,
    });
    this.trustedDocumentRefusals = new Counter({
      name: 'gateway_trusted_documents_refusals_total',
      help: 'Operations refused by the trusted documents list, by code: PERSISTED_QUERY_NOT_IN_LIST, PERSISTED_QUERY_ID_REQUIRED, BAD_REQUEST.',
      labelNames: ['code'],
      registers,
    });
    this.callerLimitRefusals = new Counter({
      name: 'gateway_caller_limit_refusals_total',
      help: 'Operations refused RATE_LIMITED by the caller limits (CALLER_*, ANONYMOUS_*), by limit (operations, restCalls) and caller (credential, anonymous); none when they are off.',
      labelNames: ['limit', 'caller'],
      registers,
    });
    this.executedBy = executionCounters(registers);
    this.registerGauges(sources);
  }

  /** An operation run, compiled or interpreted (server/compiled-execution.ts). */
  operationExecuted(engine: ExecutionEngine): void {
    this.executedBy[engine].inc();
  }

  /** An operation refused by the caller limits. */
  callerLimitRefused(limit: string, anonymous: boolean): void {
    this.callerLimitRefusals.inc({ limit, caller: anonymous ? 'anonymous' : 'credential' });
  }

  /** A trusted documents manifest put in force, with this many documents. */
  trustedDocumentsInForce(documents: number): void {
    this.trustedDocumentsLoaded.set(documents);
  }

  /** A trusted documents manifest refused on reload. */
  trustedDocumentsReloadFailed(): void {
    this.trustedDocumentReloadFailures.inc();
  }

  /** An operation refused by the trusted documents list. */
  trustedDocumentRefused(code: string): void {
    this.trustedDocumentRefusals.inc({ code });
  }

  /** The gauges read when /metrics is scraped, from what the pollers and the Redis link say then. */
  private registerGauges(sources: GaugeSources): void {
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.set(read());
        },
      });
    const { pollingPollers, redisUp } = sources;
    if (pollingPollers) {
      gauge(
        'gateway_runners_polled',
        'Watched runners this replica polls itself: with Redis, those whose lease it holds, and every one it watches while Redis is unreachable.',
        pollingPollers,
      );
    }
    if (sources.upstreamQuota) this.registerUpstreamQuota(sources.upstreamQuota);
    if (redisUp) gauge('gateway_redis_up', '1 while Redis is usable; 0 while the gateway runs degraded (local polling, in-memory stores).', redisUp);
    gauge('gateway_active_subscriptions', 'GraphQL subscriptions being served.', () => sources.activeSubscriptions());
    gauge(
      'gateway_active_pollers',
      'Runners watched for subscriptions on this replica (one per credential and runner); gateway_runners_polled counts those it polls itself.',
      () => sources.activePollers(),
    );
  }

  /**
   * GitLab's rate limits per credential digest, read from the ledger when scraped (nothing on the
   * calls' way): calls left, calls not sent for want of any (paced), operations refused. Each series
   * is rebuilt from the ledger at each scrape, so a credential that went idle, or whose window reset,
   * leaves the exposition, and the counters restart from 0 if it comes back.
   */
  private registerUpstreamQuota(read: (max: number) => QuotaSnapshot[]): void {
    const registers = [this.registry];
    const labelNames = ['credential'] as const;
    const series = (metric: Gauge<'credential'> | Counter<'credential'>, value: (entry: QuotaSnapshot) => number) => {
      metric.reset();
      for (const entry of read(MAX_QUOTA_CREDENTIALS_SHOWN)) {
        if (metric instanceof Gauge) metric.set({ credential: entry.digest }, value(entry));
        else if (value(entry) > 0) metric.inc({ credential: entry.digest }, value(entry));
      }
    };
    new Gauge({
      name: 'gateway_upstream_quota_remaining',
      help: `REST calls GitLab's rate limit still allows a credential (keyed digest, or anonymous) until its window resets, less those in flight; at most ${MAX_QUOTA_CREDENTIALS_SHOWN} credentials, the most recently updated.`,
      labelNames,
      registers,
      collect() {
        series(this, (entry) => entry.remaining);
      },
    });
    new Counter({
      name: 'gateway_upstream_quota_paced_total',
      help: "REST calls not sent because the credential had no call left before GitLab's reset (answered RATE_LIMITED), by credential digest.",
      labelNames,
      registers,
      collect() {
        series(this, (entry) => entry.paced);
      },
    });
    new Counter({
      name: 'gateway_upstream_quota_refused_total',
      help: "Operations refused RATE_LIMITED before any REST call because their estimate exceeded what GitLab's rate limit left the credential, by credential digest.",
      labelNames,
      registers,
      collect() {
        series(this, (entry) => entry.refused);
      },
    });
  }

  /** A query or mutation answered (subscriptions live too long for a duration to mean anything). */
  operation(name: string | null | undefined, type: string, seconds: number): void {
    this.operationDuration.observe({ operation_name: this.operationLabel(name), operation_type: type }, seconds);
  }

  restCall(event: RestCallEvent): void {
    if (event.unsent) {
      this.unsentCalls.inc({ reason: event.unsent.replace(/-/g, '_') });
      return;
    }
    const series = this.restCallSeries(event);
    series.calls.inc();
    series.duration.observe(event.durationMs / 1000);
    const kind = upstreamErrorKind(event);
    if (kind) this.upstreamErrors.inc({ kind });
  }

  /**
   * The labelled series one REST call counts in, kept once made: making one validates its labels
   * and binds new functions, which a page of 200 calls would pay 400 times (prom-client 15 still
   * hashes the labels on each `inc` and `observe` of a series). Bounded like the labels (endpoint
   * templates times statuses).
   */
  private restCallSeries(event: RestCallEvent): RestCallSeries {
    const endpoint = `${event.method} ${endpointOf(event.path)}`;
    const status = event.status === 0 ? 'none' : String(event.status);
    const key = `${endpoint} ${status}`;
    let series = this.restCallSeriesByKey.get(key);
    if (!series) {
      series = { calls: this.restCalls.labels({ endpoint, status }), duration: this.restCallDuration.labels({ endpoint }) };
      this.restCallSeriesByKey.set(key, series);
    }
    return series;
  }

  loaderBatch(loader: string, size: number): void {
    this.loaderBatchSize.observe({ loader }, size);
  }

  responseCacheLookup(hit: boolean): void {
    this.responseCacheLookups.inc({ result: hit ? 'hit' : 'miss' });
  }

  redisFallback(store: string): void {
    this.redisFallbacks.inc({ store });
  }

  /** The exposition text for GET /metrics. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private operationLabel(name: string | null | undefined): string {
    if (!name) return '__anonymous';
    if (this.operationNames.has(name)) return name;
    if (this.operationNames.size >= MAX_OPERATION_NAMES) return '__other';
    this.operationNames.add(name);
    return name;
  }
}
