import { readFileSync } from 'node:fs';
import type { GatewayOptions } from './options.js';
import type { GatewayLogger } from '../observability/logger.js';
import { DEFAULT_QUERY_LIMITS } from '../policy/limits.js';
import { LOG_LEVELS, type LogLevel } from '../observability/logger.js';
import { restBaseUrl } from '../datasources/upstream-url.js';
import { DEFAULT_CONNECTIONS, DEFAULT_MAX_RESPONSE_BYTES } from '../datasources/rest-client.js';
import { GATEWAY_DEFAULTS as D, TRUSTED_DOCUMENTS_DEFAULTS } from './defaults.js';
import { DEFAULT_REDIS_KEY_PREFIX, MIN_KEY_SECRET_LENGTH } from '../shared-state/replicas.js';
import { DEFAULT_SERVICE_NAME, OTLP_PROTOCOLS, TRACE_SAMPLERS, type OtlpProtocol, type TraceSamplerName } from '../observability/tracing.js';

/**
 * The gateway's settings: ONE table, from which the environment and the command line are read,
 * every value checked, `--help` printed and the settings table of docs/operations.md generated, so none of
 * them can drift from the others. This module is the only reader of `process.env`.
 *
 * Every setting is an environment variable (`UPSTREAM_TIMEOUT_MS`) and a command-line option
 * named after it (`--upstream-timeout-ms`); an option given on the command line wins.
 */

type Parsed<T> = { ok: true; value: T } | { ok: false; expected: string };

interface Setting<T> {
  /** The environment variable; the command-line option is derived from it (see `optionName`). */
  env: string;
  /** What the value looks like in `--help`: `<n>`, `<url>`, `<on|off>`. */
  placeholder: string;
  /** The default as `--help` and docs/operations.md show it. */
  shown: string;
  meaning: string;
  fallback: T;
  /** Reads a trimmed, non-empty text; on failure says what was expected (without echoing secrets). */
  parse(text: string): Parsed<T>;
  /** A secret is never echoed back in an error message. */
  secret?: boolean;
}

const accept = <T>(value: T): Parsed<T> => ({ ok: true, value });
const refuse = (expected: string): Parsed<never> => ({ ok: false, expected });

function integer(env: string, fallback: number, min: number, max: number, meaning: string, placeholder = '<n>'): Setting<number> {
  return {
    env,
    placeholder,
    shown: String(fallback),
    meaning,
    fallback,
    parse(text) {
      const value = Number(text);
      return Number.isInteger(value) && value >= min && value <= max ? accept(value) : refuse(`a whole number from ${min} to ${max}`);
    },
  };
}

const ON = ['1', 'true', 'on', 'yes'];
const OFF = ['0', 'false', 'off', 'no'];

function flag(env: string, fallback: boolean, meaning: string): Setting<boolean> {
  return {
    env,
    placeholder: '<on|off>',
    shown: fallback ? 'on' : 'off',
    meaning,
    fallback,
    parse(text) {
      const lower = text.toLowerCase();
      if (ON.includes(lower)) return accept(true);
      if (OFF.includes(lower)) return accept(false);
      return refuse('on or off (true/false, 1/0)');
    },
  };
}

function text(env: string, fallback: string, meaning: string, placeholder = '<text>'): Setting<string> {
  return { env, placeholder, shown: fallback, meaning, fallback, parse: accept };
}

function choice<T extends string>(env: string, values: readonly T[], fallback: T, meaning: string): Setting<T> {
  return {
    env,
    placeholder: `<${values.join('|')}>`,
    shown: fallback,
    meaning,
    fallback,
    parse(input) {
      const lower = input.toLowerCase();
      const value = values.find((candidate) => candidate === lower);
      return value === undefined ? refuse(`one of ${values.join(', ')}`) : accept(value);
    },
  };
}

/** A URL setting, unset by default; `parse` says what it accepts. */
function urlSetting(env: string, meaning: string, parse: Setting<string | undefined>['parse']): Setting<string | undefined> {
  return { env, placeholder: '<url>', shown: 'unset', meaning, fallback: undefined, parse };
}

function upstreamUrl(env: string, meaning: string): Setting<string | undefined> {
  return urlSetting(env, meaning, (input) => {
    const base = restBaseUrl(input);
    return 'url' in base ? accept(base.url) : refuse(base.expected);
  });
}

/**
 * A file of PEM certificates, read when the settings are: a path that cannot be read, or a file
 * that holds no certificate, is refused at start rather than at the first REST call, where it
 * would look like an unreachable upstream.
 */
function pemFile(env: string, meaning: string): Setting<string | undefined> {
  return {
    env,
    placeholder: '<path>',
    shown: 'unset',
    meaning,
    fallback: undefined,
    parse(path) {
      let pem: string;
      try {
        pem = readFileSync(path, 'utf8');
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'a directory' : (code ?? 'unreadable');
        return refuse(`a readable file of PEM certificates (${why})`);
      }
      return pem.includes('-----BEGIN CERTIFICATE-----') ? accept(pem) : refuse('a file of PEM certificates (-----BEGIN CERTIFICATE-----); this one holds none');
    },
  };
}

/** A rate limit of the embedded v4 server, `<requests>/<periodSeconds>`, parsed by the server it configures (main.ts). */
function simulatorRateLimit(env: string, meaning: string): Setting<string | undefined> {
  return { env, placeholder: '<n/s>', shown: 'unset', meaning, fallback: undefined, parse: accept };
}

/** A path to a file, checked when it is used (the trusted documents' manifest is read by createGateway). */
function path(env: string, meaning: string): Setting<string | undefined> {
  return { env, placeholder: '<path>', shown: 'unset', meaning, fallback: undefined, parse: accept };
}

/** `*`, or origins such as `https://app.example.com` separated by commas; empty means no CORS at all. */
function origins(env: string, meaning: string): Setting<'*' | string[]> {
  return {
    env,
    placeholder: '<origins>',
    shown: 'unset',
    meaning,
    fallback: [],
    parse(input) {
      if (input === '*') return accept('*');
      const list = input
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean);
      const isOrigin = (origin: string) => URL.canParse(origin) && new URL(origin).origin === origin && /^https?:/.test(origin);
      return list.length > 0 && list.every(isOrigin)
        ? accept(list)
        : refuse('* or a comma-separated list of origins such as https://app.example.com (scheme, host and port; no path)');
    },
  };
}

function secret(env: string, meaning: string): Setting<string | undefined> {
  return {
    env,
    placeholder: '<token>',
    shown: 'unset',
    meaning,
    fallback: undefined,
    secret: true,
    parse: (input) => (/^\S+$/.test(input) ? accept(input) : refuse('one token without spaces')),
  };
}

/** A Redis URL; it may hold a password, so it is never echoed back. */
function redisUrl(env: string, meaning: string): Setting<string | undefined> {
  return {
    env,
    placeholder: '<url>',
    shown: 'unset',
    meaning,
    fallback: undefined,
    secret: true,
    parse(input) {
      const valid = URL.canParse(input) && ['redis:', 'rediss:'].includes(new URL(input).protocol);
      return valid ? accept(input) : refuse('a redis:// or rediss:// URL such as redis://redis:6379');
    },
  };
}

/** An http:// or https:// URL (an OTLP/HTTP receiver's). */
function httpUrl(env: string, meaning: string): Setting<string | undefined> {
  return urlSetting(env, meaning, (input) => {
    const valid = URL.canParse(input) && ['http:', 'https:'].includes(new URL(input).protocol);
    return valid ? accept(input) : refuse('an http:// or https:// URL such as http://otel-collector:4318');
  });
}

/** A fraction from 0 to 1 (a sampling ratio). */
function fraction(env: string, fallback: number, meaning: string): Setting<number> {
  return {
    env,
    placeholder: '<ratio>',
    shown: String(fallback),
    meaning,
    fallback,
    parse(input) {
      const value = Number(input);
      return Number.isFinite(value) && value >= 0 && value <= 1 ? accept(value) : refuse('a number from 0 to 1');
    },
  };
}

const L = DEFAULT_QUERY_LIMITS;

/** Every setting, in the order `--help` and docs/operations.md list them. The keys are GatewayConfig's fields. */
export const SETTINGS = {
  port: integer('PORT', 4000, 0, 65_535, 'Port for HTTP and WebSocket (`0` picks a free one).'),
  host: text('HOST', '127.0.0.1', 'Interface to listen on.', '<address>'),
  upstreamUrl: upstreamUrl('V4_URL', 'The GitLab instance URL, or its REST URL ending in `/api/v4`. Unset: start the embedded v4 server with demo data.'),
  serviceToken: secret(
    'SERVICE_TOKEN',
    "Token used for callers that send none (a credential of the gateway's own); unset: such callers are anonymous. Prefer the variable: options show in process lists.",
  ),
  upstreamTimeoutMs: integer(
    'UPSTREAM_TIMEOUT_MS',
    10_000,
    100,
    600_000,
    'Time allowed for REST response headers, and between body chunks.',
  ),
  upstreamMaxResponseBytes: integer(
    'UPSTREAM_MAX_RESPONSE_BYTES',
    DEFAULT_MAX_RESPONSE_BYTES,
    64 * 1024,
    1024 * 1024 * 1024,
    'Most bytes of one REST answer read (a page of 100 issues with long descriptions is 5-10 MB); a larger one is refused as `UPSTREAM_ERROR` without reading the rest. Artifact downloads are streamed, not held to it.',
  ),
  upstreamConnections: integer(
    'UPSTREAM_CONNECTIONS',
    DEFAULT_CONNECTIONS,
    1,
    10_000,
    'Connections kept to the upstream at most (one undici pool per upstream). An https upstream that offers HTTP/2 gets up to 100 calls at once on each.',
  ),
  upstreamCa: pemFile(
    'UPSTREAM_CA_FILE',
    "PEM file of the CA certificate(s) the upstream's certificate must chain to (a private GitLab CA), read at start; they replace Node's bundled roots for REST calls. `NODE_EXTRA_CA_CERTS` adds to them instead.",
  ),
  upstreamRetryAttempts: integer(
    'UPSTREAM_RETRY_ATTEMPTS',
    3,
    1,
    10,
    'Attempts for a REST read (GET) that meets no answer, 429 or 502-504, with jittered backoff or the `Retry-After` asked for when it is short. Writes are never retried. `1` turns retries off.',
  ),
  circuitBreakerFailures: integer(
    'CIRCUIT_BREAKER_FAILURES',
    5,
    0,
    1_000,
    'Upstream faults in a row after which the gateway fails fast (`UPSTREAM_UNAVAILABLE`); `0` turns the breaker off.',
  ),
  circuitBreakerCooldownMs: integer(
    'CIRCUIT_BREAKER_COOLDOWN_MS',
    5_000,
    100,
    600_000,
    'How long the circuit stays open before one trial call is let through.',
  ),
  maxConcurrentRestCalls: integer(
    'MAX_CONCURRENT_REST_CALLS',
    0,
    0,
    10_000,
    'A ceiling on the REST calls one operation may have in flight, on top of its fair share of the upstream connections; `0`: none (an operation alone may use every connection).',
  ),
  requestDeadlineMs: integer('REQUEST_DEADLINE_MS', D.requestDeadlineMs, 100, 3_600_000, 'Time an operation may spend on REST in all, from its start.'),
  runnerPollIntervalMs: integer('RUNNER_POLL_INTERVAL_MS', D.runnerPollIntervalMs, 10, 3_600_000, 'Time between two polls of a watched runner or issue.'),
  batching: flag('BATCHING', D.batching, 'DataLoader batching and per-request caching; `off` only to measure what they buy.'),
  landingPage: flag('LANDING_PAGE', D.landingPage, 'Apollo Sandbox on GET /graphql from a browser; switch off in production.'),
  introspection: flag('INTROSPECTION', D.introspection, 'Schema introspection; switch off in production.'),
  explainRestCalls: flag(
    'EXPLAIN_REST_CALLS',
    D.explainRestCalls,
    'Lets a caller ask (`"extensions": {"explainRestCalls": true}`) for the REST calls its operation made, in the response.',
  ),
  compiledOperations: flag(
    'COMPILED_OPERATIONS',
    D.compiledOperations,
    'Runs a document on its second use as a compiled function (graphql-jit) rather than interpreting it each time; `off` to compare.',
  ),
  maxQueryLength: integer(
    'MAX_QUERY_LENGTH',
    L.maxQueryLength,
    100,
    1_000_000,
    'Longest query text, in characters; longer is refused before parsing.',
  ),
  maxQueryTokens: integer('MAX_QUERY_TOKENS', L.maxTokens, 100, 1_000_000, 'Most tokens in a document; graphql-js stops parsing past it.'),
  maxDepthAnonymous: integer('MAX_DEPTH_ANONYMOUS', L.maxDepthAnonymous, 2, 1_000, 'Deepest field nesting without a credential.'),
  maxDepth: integer('MAX_DEPTH', L.maxDepthAuthenticated, 2, 1_000, 'Deepest field nesting with a credential.'),
  maxAliases: integer('MAX_ALIASES', L.maxAliases, 0, 10_000, 'Most aliases in one operation.'),
  maxDirectives: integer('MAX_DIRECTIVES', L.maxDirectives, 0, 10_000, 'Most directives in one operation.'),
  maxRestCalls: integer(
    'MAX_REST_CALLS',
    L.maxRestCalls,
    1,
    10_000_000,
    'Most REST calls an operation may need by its worst-case estimate, worked out before it runs; above it the operation is refused with no REST call.',
  ),
  maxRestCallsMade: integer(
    'MAX_REST_CALLS_MADE',
    L.maxRestCallsMade,
    1,
    1_000_000,
    'Most REST calls an operation may really make, counted as it runs; the fields past it fail with `LIMIT_EXCEEDED`, the rest of the answer stands.',
  ),
  batchedHttpRequests: flag('BATCHED_HTTP_REQUESTS', D.allowBatchedHttpRequests, 'Several operations in one HTTP request (a JSON array body).'),
  maxBatchOperations: integer(
    'MAX_BATCH_OPERATIONS',
    L.maxBatchOperations,
    1,
    1_000,
    'Most operations in one batched HTTP request; each is held to every other limit on its own.',
  ),
  callerOperationsPerSecond: integer(
    'CALLER_OPERATIONS_PER_SECOND',
    0,
    0,
    1_000_000,
    'Operations one credential (by its keyed digest) may send per second on average, HTTP and WebSocket alike; past it an operation is refused `RATE_LIMITED` (HTTP 429, `Retry-After`) before any REST call. Shared by the replicas with `REDIS_URL`. `0`: no limit.',
  ),
  callerOperationBurst: integer(
    'CALLER_OPERATION_BURST',
    0,
    0,
    1_000_000,
    'Operations one credential may send at once before `CALLER_OPERATIONS_PER_SECOND` holds it; `0`: one second of its rate.',
  ),
  callerRestCallsPerMinute: integer(
    'CALLER_REST_CALLS_PER_MINUTE',
    0,
    0,
    100_000_000,
    "REST calls one credential's operations may really make per minute (counted as they are made, not estimated); an operation is admitted while at least one is left, and a caller that overdrew waits until the minute's refill has paid it back. `0`: no limit.",
  ),
  anonymousOperationsPerSecond: integer(
    'ANONYMOUS_OPERATIONS_PER_SECOND',
    0,
    0,
    1_000_000,
    "`CALLER_OPERATIONS_PER_SECOND` for callers without a credential of their own, per address (the socket's: behind a proxy, the proxy's; IPv6 by /64), with a burst of one second of it; `0`: the credential figure.",
  ),
  anonymousRestCallsPerMinute: integer(
    'ANONYMOUS_REST_CALLS_PER_MINUTE',
    0,
    0,
    100_000_000,
    '`CALLER_REST_CALLS_PER_MINUTE` for callers without a credential of their own, per address; `0`: the credential figure.',
  ),
  upstreamRateLimits: flag(
    'UPSTREAM_RATE_LIMITS',
    D.upstreamRateLimits,
    "GitLab's rate limits respected per credential (its `RateLimit-*` headers): an operation whose REST-call estimate the calls left would not cover before the reset is refused `RATE_LIMITED` with `retryAfter` (HTTP 429, `Retry-After`), a call with none left is not sent, pollers wait longer. On by default: GitLab sends no such header while its throttles are off, and then nothing is refused.",
  ),
  corsOrigins: origins(
    'CORS_ORIGINS',
    'Origins browsers may call the gateway from: `*` or a comma-separated list; unset: no CORS headers.',
  ),
  wsInitTimeoutMs: integer(
    'WS_INIT_TIMEOUT_MS',
    D.connectionInitWaitTimeoutMs,
    100,
    600_000,
    'Time a WebSocket client has to send `connection_init` (else close 4408).',
  ),
  wsMaxUnsentBytes: integer(
    'WS_MAX_UNSENT_BYTES',
    D.maxUnsentWebSocketBytes,
    64 * 1024,
    1024 * 1024 * 1024,
    'Bytes a WebSocket connection may have waiting to be sent (its client reading too slowly, or not at all) before it is closed.',
  ),
  wsMaxMessagesPerSecond: integer(
    'WS_MAX_MESSAGES_PER_SECOND',
    D.maxWebSocketMessagesPerSecond,
    1,
    1_000_000,
    'Messages a WebSocket client may send per second on average, after a burst of one second of messages plus twice `MAX_SUBSCRIPTIONS_PER_CONNECTION`; a faster one is closed with 1008.',
  ),
  maxSubscriptionsPerConnection: integer(
    'MAX_SUBSCRIPTIONS_PER_CONNECTION',
    D.maxSubscriptionsPerConnection,
    1,
    100_000,
    'Operations one WebSocket connection may hold at once.',
  ),
  maxUploadBytes: integer(
    'UPLOAD_MAX_BYTES',
    D.maxUploadBytes,
    1,
    1024 * 1024 * 1024,
    'Largest file upload (GraphQL multipart request) in one request.',
  ),
  persistedQueries: flag(
    'PERSISTED_QUERIES',
    D.persistedQueries,
    'Automatic persisted queries (a bounded store of 1000 queries: in memory, or in Redis with `REDIS_URL`).',
  ),
  trustedDocuments: path(
    'TRUSTED_DOCUMENTS',
    "Manifest of trusted documents (JSON of id, the SHA-256 of the text, to text: the client preset's persisted-documents.json); only its documents run, by id (`documentId` or `extensions.persistedQuery.sha256Hash`); any other is refused before parsing. Read at start, again when the file changes. Unset: any document.",
  ),
  trustedDocumentsRequireId: flag(
    'TRUSTED_DOCUMENTS_REQUIRE_ID',
    TRUSTED_DOCUMENTS_DEFAULTS.requireId,
    'With `TRUSTED_DOCUMENTS`, refuse query text even when it is a document of the list (`PERSISTED_QUERY_ID_REQUIRED`); off: such text runs as its id would.',
  ),
  trustedDocumentsPollMs: integer(
    'TRUSTED_DOCUMENTS_POLL_MS',
    TRUSTED_DOCUMENTS_DEFAULTS.pollIntervalMs,
    100,
    3_600_000,
    'How often the `TRUSTED_DOCUMENTS` file is checked for a change (modification time, size); a changed one is read, checked and swapped whole, a bad one leaves the list in force.',
  ),
  responseCacheTtlMs: integer(
    'RESPONSE_CACHE_TTL_MS',
    0,
    0,
    86_400_000,
    'How long a query response is reused for the same credential, query and variables; `0` turns the response cache off.',
  ),
  responseCacheMaxEntries: integer('RESPONSE_CACHE_MAX_ENTRIES', 1_000, 1, 1_000_000, 'Most responses the response cache holds.'),
  responseCacheMaxMb: integer('RESPONSE_CACHE_MAX_MB', 64, 1, 16_384, 'Most memory the response cache holds, in MiB of response JSON.'),
  redisUrl: redisUrl(
    'REDIS_URL',
    'Redis shared by several replicas: one poller per watched runner or issue and credential across all of them, the issues and discussions each credential was served, where boards and lists live, persisted queries and the response cache. Unset: all in this process. Needs `REDIS_KEY_SECRET`.',
  ),
  redisKeySecret: {
    ...secret(
      'REDIS_KEY_SECRET',
      `Secret of the keyed hash (HMAC) that names credentials in Redis, which never holds a token; the same on every replica, at least ${MIN_KEY_SECRET_LENGTH} characters.`,
    ),
    placeholder: '<secret>',
  },
  redisKeyPrefix: text('REDIS_KEY_PREFIX', DEFAULT_REDIS_KEY_PREFIX, 'Put before every Redis key and channel, so that deployments can share one Redis.', '<prefix>'),
  logLevel: choice<LogLevel>(
    'LOG_LEVEL',
    LOG_LEVELS,
    'info',
    'JSON log lines on stdout at this level and above; `info` logs one line per request.',
  ),
  metrics: flag('METRICS', D.metrics, 'Prometheus metrics on GET /metrics.'),
  otelSdkDisabled: flag('OTEL_SDK_DISABLED', false, 'Turns tracing off whatever the `OTEL_EXPORTER_OTLP_*` endpoints say.'),
  otelExporterOtlpEndpoint: httpUrl(
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    'OpenTelemetry traces: the base URL of an OTLP/HTTP receiver (an OpenTelemetry Collector, Jaeger: `http://otel-collector:4318`); spans go to `<url>/v1/traces`. Unset, with `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` unset too: no tracing.',
  ),
  otelExporterOtlpTracesEndpoint: httpUrl(
    'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    'The URL spans are sent to, as is (`http://otel-collector:4318/v1/traces`); wins over `OTEL_EXPORTER_OTLP_ENDPOINT`.',
  ),
  otelExporterOtlpProtocol: {
    ...choice<OtlpProtocol>('OTEL_EXPORTER_OTLP_PROTOCOL', OTLP_PROTOCOLS, 'http/protobuf', 'How spans are sent: `http/protobuf` or `http/json` (`grpc` is not offered).'),
    placeholder: '<protocol>',
  },
  otelServiceName: text('OTEL_SERVICE_NAME', DEFAULT_SERVICE_NAME, 'The `service.name` of the spans.', '<name>'),
  otelTracesSampler: {
    ...choice<TraceSamplerName>(
      'OTEL_TRACES_SAMPLER',
      TRACE_SAMPLERS,
      'parentbased_always_on',
      "Which traces are recorded: `parentbased_always_on`, `parentbased_always_off`, `parentbased_traceidratio` (these follow the sampled flag of the caller's `traceparent`, and apply the rest to traces that start here), `always_on`, `always_off`, `traceidratio`.",
    ),
    placeholder: '<sampler>',
  },
  otelTracesSamplerArg: fraction('OTEL_TRACES_SAMPLER_ARG', 1, 'The share of traces the `traceidratio` samplers record, from 0 to 1.'),
  readinessTimeoutMs: integer('READINESS_TIMEOUT_MS', D.readinessTimeoutMs, 100, 60_000, 'Time /readyz waits for the upstream to answer.'),
  shutdownTimeoutMs: integer(
    'SHUTDOWN_TIMEOUT_MS',
    D.shutdownTimeoutMs,
    0,
    600_000,
    'On SIGTERM or SIGINT, time in-flight requests have to finish before their connections are closed.',
  ),
  simulatorLatencyMs: integer('SIMULATOR_LATENCY_MS', 0, 0, 60_000, 'Latency the embedded v4 server adds to each REST call.', '<ms>'),
  // Read by main.ts with the embedded server's own parser (simulator/http/rate-limits.ts), which says what it accepts.
  simulatorRateLimitAuthenticated: simulatorRateLimit(
    'SIMULATOR_RATE_LIMIT_AUTHENTICATED',
    "The embedded v4 server's limit of API requests per user, as GitLab's throttle_authenticated_api: `<requests>/<periodSeconds>` (`7200/3600`, GitLab's default when on); unset: off.",
  ),
  simulatorRateLimitUnauthenticated: simulatorRateLimit(
    'SIMULATOR_RATE_LIMIT_UNAUTHENTICATED',
    "The embedded v4 server's limit of API requests per client IP without a credential, as GitLab's throttle_unauthenticated_api: `<requests>/<periodSeconds>` (`3600/3600`); unset: off.",
  ),
} as const;

type SettingValue<S> = S extends Setting<infer T> ? T : never;

/** The values of every setting, by the keys of SETTINGS. */
export type GatewayConfig = { -readonly [K in keyof typeof SETTINGS]: SettingValue<(typeof SETTINGS)[K]> };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid settings:\n${problems.map((problem) => `  - ${problem}`).join('\n')}\nRun with --help for every setting.`);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

const settingList = (): Array<[keyof GatewayConfig, Setting<unknown>]> =>
  Object.entries(SETTINGS) as Array<[keyof GatewayConfig, Setting<unknown>]>;

/** `UPSTREAM_TIMEOUT_MS` is `--upstream-timeout-ms`. */
export function optionName(env: string): string {
  return `--${env.toLowerCase().replace(/_/g, '-')}`;
}

/** True when the command line asks for the help text (checked before any value, so it always works). */
export function wantsHelp(argv: readonly string[]): boolean {
  return argv.includes('--help') || argv.includes('-h');
}

/**
 * Reads `--name value` and `--name=value` into variable names. Unknown options, missing values
 * and stray arguments are problems, reported with the rest.
 */
function readCommandLine(argv: readonly string[], problems: string[]): Record<string, string> {
  const byOption = new Map(settingList().map(([, setting]) => [optionName(setting.env), setting.env]));
  const values: Record<string, string> = {};
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    const [name, inline] =
      argument.startsWith('--') && argument.includes('=')
        ? [argument.slice(0, argument.indexOf('=')), argument.slice(argument.indexOf('=') + 1)]
        : [argument, undefined];
    const env = byOption.get(name);
    if (env === undefined) {
      problems.push(
        name.startsWith('-') ? `Unknown option ${name}.` : `Unexpected argument "${argument}"; settings are options such as --port 4000.`,
      );
      continue;
    }
    const value = inline ?? argv[index + 1];
    if (value === undefined || (inline === undefined && value.startsWith('--'))) {
      problems.push(`${name} needs a value.`);
      continue;
    }
    if (inline === undefined) index += 1;
    values[env] = value;
  }
  return values;
}

/**
 * Reads every setting from the environment and the command line (which wins), checks each, and
 * reports every bad value at once with what was expected.
 */
export function loadConfig(env: Env = process.env, argv: readonly string[] = []): GatewayConfig {
  const problems: string[] = [];
  const fromCommandLine = readCommandLine(argv, problems);
  const config: Record<string, unknown> = {};
  for (const [key, setting] of settingList()) {
    const given = fromCommandLine[setting.env] ?? env[setting.env];
    const source = fromCommandLine[setting.env] !== undefined ? optionName(setting.env) : setting.env;
    const raw = given?.trim();
    if (!raw) {
      config[key] = setting.fallback;
      continue;
    }
    const parsed = setting.parse(raw);
    if (parsed.ok) {
      config[key] = parsed.value;
    } else {
      config[key] = setting.fallback;
      problems.push(`${source} must be ${parsed.expected}${setting.secret ? '.' : `; got "${raw}".`}`);
    }
  }
  problems.push(...redisProblems(config as GatewayConfig));
  if (problems.length > 0) throw new ConfigError(problems);
  return config as GatewayConfig;
}

/** Settings that are only right together: Redis names credentials with a secret all replicas share. */
function redisProblems(config: GatewayConfig): string[] {
  if (config.redisUrl === undefined) return [];
  if (config.redisKeySecret === undefined) return ['REDIS_URL needs REDIS_KEY_SECRET: the secret every replica hashes credentials with.'];
  if (config.redisKeySecret.length < MIN_KEY_SECRET_LENGTH) return [`REDIS_KEY_SECRET must have at least ${MIN_KEY_SECRET_LENGTH} characters.`];
  return [];
}

/** The createGateway options the settings stand for (the CLI's composition; testable without a process). */
export function gatewayOptions(config: GatewayConfig, upstreamUrl: string, logger?: GatewayLogger): GatewayOptions {
  return {
    upstreamUrl,
    ...(config.serviceToken ? { serviceToken: config.serviceToken } : {}),
    upstreamTimeoutMs: config.upstreamTimeoutMs,
    upstreamMaxResponseBytes: config.upstreamMaxResponseBytes,
    upstreamConnections: config.upstreamConnections,
    ...(config.upstreamCa ? { upstreamCa: config.upstreamCa } : {}),
    upstreamRetryAttempts: config.upstreamRetryAttempts,
    circuitBreaker:
      config.circuitBreakerFailures === 0
        ? false
        : { failureThreshold: config.circuitBreakerFailures, cooldownMs: config.circuitBreakerCooldownMs },
    ...(config.maxConcurrentRestCalls > 0 ? { maxConcurrentRestCalls: config.maxConcurrentRestCalls } : {}),
    requestDeadlineMs: config.requestDeadlineMs,
    runnerPollIntervalMs: config.runnerPollIntervalMs,
    batching: config.batching,
    landingPage: config.landingPage,
    introspection: config.introspection,
    explainRestCalls: config.explainRestCalls,
    compiledOperations: config.compiledOperations,
    limits: {
      maxQueryLength: config.maxQueryLength,
      maxTokens: config.maxQueryTokens,
      maxDepthAnonymous: config.maxDepthAnonymous,
      maxDepthAuthenticated: config.maxDepth,
      maxAliases: config.maxAliases,
      maxDirectives: config.maxDirectives,
      maxRestCalls: config.maxRestCalls,
      maxRestCallsMade: config.maxRestCallsMade,
      maxBatchOperations: config.maxBatchOperations,
    },
    allowBatchedHttpRequests: config.batchedHttpRequests,
    upstreamRateLimits: config.upstreamRateLimits,
    callerLimits: {
      operationsPerSecond: config.callerOperationsPerSecond,
      operationBurst: config.callerOperationBurst,
      restCallsPerMinute: config.callerRestCallsPerMinute,
      anonymous: { operationsPerSecond: config.anonymousOperationsPerSecond, restCallsPerMinute: config.anonymousRestCallsPerMinute },
    },
    ...(config.corsOrigins === '*' || config.corsOrigins.length > 0 ? { cors: { origins: config.corsOrigins } } : {}),
    connectionInitWaitTimeoutMs: config.wsInitTimeoutMs,
    maxUnsentWebSocketBytes: config.wsMaxUnsentBytes,
    maxWebSocketMessagesPerSecond: config.wsMaxMessagesPerSecond,
    maxSubscriptionsPerConnection: config.maxSubscriptionsPerConnection,
    maxUploadBytes: config.maxUploadBytes,
    persistedQueries: config.persistedQueries,
    ...(config.trustedDocuments
      ? { trustedDocuments: { path: config.trustedDocuments, requireId: config.trustedDocumentsRequireId, pollIntervalMs: config.trustedDocumentsPollMs } }
      : {}),
    responseCache:
      config.responseCacheTtlMs === 0
        ? false
        : {
            ttlMs: config.responseCacheTtlMs,
            maxEntries: config.responseCacheMaxEntries,
            maxBytes: config.responseCacheMaxMb * 1024 * 1024,
          },
    metrics: config.metrics,
    ...tracingOptions(config),
    readinessTimeoutMs: config.readinessTimeoutMs,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    ...(config.redisUrl && config.redisKeySecret
      ? { redis: { url: config.redisUrl, keySecret: config.redisKeySecret, keyPrefix: config.redisKeyPrefix } }
      : {}),
    ...(logger ? { logger } : {}),
  };
}

/** OpenTelemetry traces when an OTLP endpoint is set (the OTEL_* settings); none otherwise. */
function tracingOptions(config: GatewayConfig): Pick<GatewayOptions, 'tracing'> {
  const base = config.otelExporterOtlpEndpoint;
  const url = config.otelExporterOtlpTracesEndpoint ?? (base === undefined ? undefined : `${base.replace(/\/+$/, '')}/v1/traces`);
  if (url === undefined || config.otelSdkDisabled) return {};
  const sampler = { name: config.otelTracesSampler, arg: config.otelTracesSamplerArg };
  return { tracing: { otlp: { url, protocol: config.otelExporterOtlpProtocol, serviceName: config.otelServiceName, sampler } } };
}

/** Wraps `text` into lines of at most `width` characters, each prefixed by `indent`. */
function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(indent + line);
  return lines.join('\n');
}

/** What `--help` prints: every setting with its option, variable, default and meaning. */
export function helpText(): string {
  const entries = settingList().map(([, setting]) => {
    const head = `  ${optionName(setting.env)} ${setting.placeholder}`;
    const plain = setting.meaning.replace(/`/g, '');
    return `${head.padEnd(44)} ${setting.env} (default: ${setting.shown})\n${wrap(plain, 88, '      ')}`;
  });
  return [
    'Usage: gitlab-graphql-gateway [options]        (from a checkout: npm start -- [options])',
    '',
    "A GraphQL gateway over GitLab's REST API v4. Without --v4-url it starts the embedded v4 server",
    'with demo data. Every option is also an environment variable; the command line wins.',
    'Endpoints: /graphql (HTTP and WebSocket), /healthz, /readyz, /metrics.',
    '',
    'Options:',
    '  -h, --help                                 Print this help and exit.',
    ...entries,
    '',
  ].join('\n');
}

/** docs/operations.md's settings table, generated from the same table (a test keeps the page in step). */
export function settingsMarkdownTable(): string {
  const rows = settingList().map(
    ([, setting]) =>
      `| \`${optionName(setting.env)}\` | \`${setting.env}\` | ${setting.shown === 'unset' ? 'unset' : `\`${setting.shown}\``} | ${setting.meaning} |`,
  );
  return ['| Option | Variable | Default | Meaning |', '| --- | --- | --- | --- |', ...rows].join('\n');
}
